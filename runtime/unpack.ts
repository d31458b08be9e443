/**
 * The head of `dist/lass.js`. The command line's modules (a code-split, minified build) travel in
 * the same file, after this code, as one packed payload. The first run unpacks them into a cache
 * folder named by the payload's hash, and every run imports them from there: a command loads only
 * the modules it needs, from files Deno caches compiled code for, instead of parsing all of Lass.
 *
 * The folder is `LASS_CACHE_DIR`, else `$XDG_CACHE_HOME/lass/bundles`, `~/.cache/lass/bundles` or
 * `%LOCALAPPDATA%\lass\bundles`. Unpacking writes a temp folder and renames it into place, so a
 * folder that exists is whole, and concurrent first runs agree. Deno-only: `node:zlib` (brotli) is
 * loaded only to pack and unpack, so that the loader of a run that finds its folder loads no Node
 * module.
 */
import type { BundleInfo } from "../core/export/demo_command.ts";

/**
 * Where the payload starts: a comment at the end of the file. The loader's code holds this text
 * too, before it, so the payload is found as its last occurrence.
 */
const MARK = "/*LASS-PAYLOAD:";

/** The module of the payload that {@link startBundle} imports. */
export const PAYLOAD_ENTRY = "lass.js";

/** What the payload carries: paths (a name, or a folder and a name) and the files' texts. */
export type PayloadFiles = Record<string, string>;

/** A path the payload may name: one or two plain names, never `.` or `..`. */
const PAYLOAD_PATH = /^(?!\.{1,2}(?:\/|$))[\w.-]+(?:\/(?!\.{1,2}$)[\w.-]+)?$/;

/** How the unpacked entry is started. */
export type BundleStart = (bundle: BundleInfo) => Promise<unknown>;

/** The environment variables {@link cacheRoot} reads. */
const CACHE_ENV = ["LASS_CACHE_DIR", "XDG_CACHE_HOME", "HOME", "LOCALAPPDATA"];

/** Unpacked folders of other payloads unused this long are removed when a new one is unpacked. */
const STALE_MS = 30 * 24 * 60 * 60 * 1000;

/** The folder that holds one unpacked folder per payload hash. */
export function cacheRoot(env: (name: string) => string | undefined): string {
  const own = env("LASS_CACHE_DIR");
  if (own) return own;
  const xdg = env("XDG_CACHE_HOME");
  if (xdg) return `${xdg}/lass/bundles`;
  const home = env("HOME");
  if (home) return `${home}/.cache/lass/bundles`;
  const local = env("LOCALAPPDATA");
  if (local) return `${local}\\lass\\bundles`;
  throw new Error("no cache folder for the unpacked modules: set LASS_CACHE_DIR");
}

/** Brotli at a quality that packs Lass in about a second (the best takes ten for 8% less). */
const BROTLI_QUALITY = 9;

/** The payload comment that ends a bundle: `files` as base64 of brotli-compressed JSON. */
export async function payloadComment(files: PayloadFiles): Promise<string> {
  const { brotliCompressSync, constants } = await import("node:zlib");
  const json = new TextEncoder().encode(JSON.stringify(files));
  const packed = brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
  return `${MARK}${new Uint8Array(packed).toBase64()}*/\n`;
}

/** The files packed at the end of the bundle text. */
export async function readPayload(text: string): Promise<PayloadFiles> {
  const start = text.lastIndexOf(MARK);
  const end = text.lastIndexOf("*/");
  if (start < 0 || end < start) throw new Error("the file carries no Lass payload");
  const { brotliDecompressSync } = await import("node:zlib");
  const packed = Uint8Array.fromBase64(text.slice(start + MARK.length, end));
  return JSON.parse(new TextDecoder().decode(brotliDecompressSync(packed))) as PayloadFiles;
}

/** A file URL for a path (POSIX or Windows). */
function fileUrl(path: string): string {
  const slashed = path.replace(/\\/g, "/");
  return new URL(`file://${slashed.startsWith("/") ? "" : "/"}${encodeURI(slashed)}`).href;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Removes the unpacked folders of other payloads that were not unpacked lately. */
async function pruneOthers(root: string, keep: string): Promise<void> {
  const now = Date.now();
  for await (const entry of Deno.readDir(root)) {
    if (!entry.isDirectory || entry.name === keep || entry.name.includes(".tmp-")) continue;
    const path = `${root}/${entry.name}`;
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.mtime && now - info.mtime.getTime() > STALE_MS) {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    }
  }
}

/** Unpacks the bundle at `url` into `root/id` unless it is there; the folder. */
export async function unpack(url: string, id: string, root: string): Promise<string> {
  const dir = `${root}/${id}`;
  if (await exists(`${dir}/${PAYLOAD_ENTRY}`)) return dir;
  const self = new URL(url);
  const text = self.protocol === "file:"
    ? await Deno.readTextFile(self)
    : await (await fetch(self)).text();
  const files = await readPayload(text);
  await Deno.mkdir(root, { recursive: true, mode: 0o700 });
  const tmp = await Deno.makeTempDir({ dir: root, prefix: `${id}.tmp-` });
  try {
    for (const [path, content] of Object.entries(files)) {
      if (!PAYLOAD_PATH.test(path)) throw new Error(`the payload names a bad file: ${path}`);
      const slash = path.indexOf("/");
      if (slash > 0) await Deno.mkdir(`${tmp}/${path.slice(0, slash)}`, { recursive: true });
      await Deno.writeTextFile(`${tmp}/${path}`, content);
    }
    try {
      await Deno.rename(tmp, dir);
    } catch (error) {
      // Another first run put its copy there first: the same files.
      if (!await exists(`${dir}/${PAYLOAD_ENTRY}`)) throw error;
    }
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
  await pruneOthers(root, id).catch(() => {});
  return dir;
}

/**
 * Unpacks the bundle at `url` (its payload hash `id`) when needed and starts its entry. A
 * failure is printed as `lass: ...` with exit code 1, like the command line's own.
 */
export async function startBundle(url: string, id: string): Promise<void> {
  let start: BundleStart;
  let root: string;
  let dir: string | undefined;
  try {
    root = cacheRoot((name) => Deno.env.get(name));
    dir = await unpack(url, id, root);
    ({ start } = await import(fileUrl(`${dir}/${PAYLOAD_ENTRY}`)) as { start: BundleStart });
  } catch (error) {
    const fix = dir === undefined
      ? "Run it with the start task's permissions (see the README), or set LASS_CACHE_DIR to a " +
        "writable folder."
      : `Remove ${dir} to have it unpacked again.`;
    console.error(`lass: cannot unpack this bundle's modules: ${(error as Error).message}\n${fix}`);
    Deno.exit(1);
  }
  const self = new URL(url);
  const read = self.protocol === "file:" ? [root, decodeURIComponent(self.pathname)] : [root];
  await start({
    url,
    permissions: [
      `--allow-env=${CACHE_ENV.join(",")}`,
      `--allow-read=${read.join(",")}`,
      `--allow-write=${root}`,
    ],
  });
}
