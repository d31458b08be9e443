/**
 * Lass as a module: `createLass(options)` opens the service and returns `{handler, sandboxHandler,
 * close}` to mount in any server that speaks web `Request`/`Response` (Deno.serve, Node's
 * `node:http` through an adapter, Bun). See docs/mounting.md.
 */
export { createLass, type Lass, type LassOptions, newToken } from "./lass.ts";
export { VERSION } from "./core/version.ts";
