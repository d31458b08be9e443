/**
 * The web UI's built files: `GET /assets/<file>` from the UI a bundle carries, else from the build
 * folder (`build/ui/`, written by `scripts/build_ui.ts`), behind the token like every route. Only
 * files the build's manifest lists are served, so nothing else on disk can be reached.
 */
import type { Routes } from "./context.ts";
import { respond } from "./http.ts";
import { LassError } from "../core/errors.ts";
import {
  type EmbeddedUi,
  embeddedUiSource,
  folderUiSource,
  type UiManifest,
  type UiSource,
} from "./ui_sources.ts";

/** The build folder, next to `routes/` (and next to `dist/` for a bundle run from the repo). */
export const UI_BUILD_DIR: URL = new URL("../build/ui/", import.meta.url);

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

const folder = folderUiSource(UI_BUILD_DIR);
let chosen: UiSource | undefined;

/**
 * Serves the web UI that `load` gives (the copy a bundle carries, loaded on the first request)
 * instead of the build folder. Called by the entry of `dist/lass.js` and `dist/mod.js` before
 * anything is served.
 */
export function useEmbeddedUi(load: () => Promise<EmbeddedUi>): void {
  chosen = embeddedUiSource(load);
}

/**
 * Serves the web UI from the built files in `dir` (a file URL ending in `/`) instead of the build
 * folder: the copy that `dist/lass.js` unpacks beside its modules.
 */
export function useUiFolder(dir: URL): void {
  chosen = folderUiSource(dir);
}

/** The UI being served: the one a bundle chose, else the build folder. */
function source(): UiSource {
  return chosen ?? folder;
}

/** The current build's manifest, or `undefined` when the UI is not built. Checked at each call. */
export async function uiManifest(): Promise<UiManifest | undefined> {
  return await source().manifest();
}

function typeOf(name: string): string {
  return CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

/** Asset routes. */
export const assetRoutes: Routes = {
  "/assets/:file": {
    GET: async (req, { params, uiReady }) => {
      const name = params.file;
      await uiReady;
      const manifest = await source().manifest();
      const described = manifest?.files[name];
      if (!described || name === "manifest.json") {
        throw new LassError("not-found", `there is no web UI file ${name}`);
      }
      const etag = `"${described.hash}"`;
      const headers = { ...ASSET_HEADERS, etag };
      if (req.headers.get("if-none-match") === etag) {
        return new Response(null, { status: 304, headers });
      }
      const body = await source().read(name);
      if (!body) {
        throw new LassError("not-found", `the web UI file ${name} is missing; rebuild the UI`);
      }
      return respond(body as Uint8Array<ArrayBuffer>, { type: typeOf(name), headers });
    },
  },
};
