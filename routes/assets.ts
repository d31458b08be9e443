/**
 * The web UI's built files: `GET /assets/<file>` from the build folder (`build/ui/`, written by
 * `scripts/build_ui.ts`), behind the token like every route. Only files the build's manifest
 * lists are served, so nothing else on disk can be reached.
 */
import type { Routes } from "./context.ts";
import { respond } from "./http.ts";
import { LassError } from "../core/errors.ts";

/** The build folder, next to `routes/` (and next to `dist/` for the bundled `dist/lass.js`). */
export const UI_BUILD_DIR: URL = new URL("../build/ui/", import.meta.url);

/** One built file as the manifest describes it. */
export interface BuiltFile {
  bytes: number;
  gzipBytes: number;
  /** The first 16 hex digits of the file's SHA-256: its ETag. */
  hash: string;
}

/** `build/ui/manifest.json`: what the build wrote. */
export interface UiManifest {
  version: 1;
  builtAt: string;
  /** The entry module of the app shell. */
  entry: string;
  /** Style sheets the shell links. */
  styles: string[];
  /** Modules the entry imports statically (directly or through other chunks): preloaded. */
  preload: string[];
  files: Record<string, BuiltFile>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  map: "application/json; charset=utf-8",
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  woff2: "font/woff2",
  txt: "text/plain; charset=utf-8",
};

/** Headers of every asset: revalidate with the ETag (the token in the URL changes per start). */
const ASSET_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "private, no-cache",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
};

interface Loaded {
  stamp: string;
  manifest: UiManifest;
  bodies: Map<string, Uint8Array>;
}

let loaded: Loaded | undefined;
let checking: Promise<Loaded | undefined> | undefined;

async function fs() {
  // Loaded on the first page or asset request, never at startup.
  return await import("node:fs/promises");
}

async function readManifest(): Promise<Loaded | undefined> {
  const { readFile, stat } = await fs();
  const file = new URL("manifest.json", UI_BUILD_DIR);
  let stamp: string;
  try {
    const info = await stat(file);
    stamp = `${info.mtimeMs}:${info.size}`;
  } catch {
    return loaded = undefined;
  }
  if (loaded?.stamp === stamp) return loaded;
  try {
    const manifest = JSON.parse(await readFile(file, "utf8")) as UiManifest;
    return loaded = { stamp, manifest, bodies: new Map() };
  } catch {
    // A build in progress or a damaged manifest: nothing is served until it is whole again.
    return loaded = undefined;
  }
}

/** The current build, re-read when its manifest changed; concurrent callers share one check. */
function currentBuild(): Promise<Loaded | undefined> {
  checking ??= readManifest().finally(() => checking = undefined);
  return checking;
}

/** The current build's manifest, or `undefined` when the UI is not built. Checked at each call. */
export async function uiManifest(): Promise<UiManifest | undefined> {
  return (await currentBuild())?.manifest;
}

function typeOf(name: string): string {
  return CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

/** Asset routes. */
export const assetRoutes: Routes = {
  "/assets/:file": {
    GET: async (req, { params }) => {
      const name = params.file;
      const current = await currentBuild();
      const described = current?.manifest.files[name];
      if (!current || !described || name === "manifest.json") {
        throw new LassError("not-found", `there is no web UI file ${name}`);
      }
      const etag = `"${described.hash}"`;
      const headers = { ...ASSET_HEADERS, etag };
      if (req.headers.get("if-none-match") === etag) {
        return new Response(null, { status: 304, headers });
      }
      let body = current.bodies.get(name);
      if (!body) {
        const { readFile } = await fs();
        try {
          body = new Uint8Array(await readFile(new URL(name, UI_BUILD_DIR)));
        } catch {
          throw new LassError("not-found", `the web UI file ${name} is missing; rebuild the UI`);
        }
        current.bodies.set(name, body);
      }
      return respond(body as Uint8Array<ArrayBuffer>, { type: typeOf(name), headers });
    },
  },
};
