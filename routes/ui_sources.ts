/**
 * Where the web UI's built files come from: the build folder on disk (`build/ui/`, written by
 * `scripts/build_ui.ts`), or the copy embedded in a bundle (`dist/lass.js`, `dist/mod.js`,
 * written by `scripts/build_bundle.ts`) so that one file carries the whole UI.
 */

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

/** A source of the built UI: its manifest and the bytes of the files it lists. */
export interface UiSource {
  /** The build's manifest, or `undefined` when there is none. Cheap to call per request. */
  manifest(): Promise<UiManifest | undefined>;
  /** A file the manifest lists, or `undefined` when it cannot be had. */
  read(name: string): Promise<Uint8Array | undefined>;
}

/** A build embedded as data: the manifest and each listed file's bytes in base64. */
export interface EmbeddedUi {
  manifest: UiManifest;
  files: Record<string, string>;
}

function fromBase64(text: string): Uint8Array {
  // `atob` is in every runtime Lass runs on (Deno, Node 20+, Bun); each file is decoded once.
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The UI a bundle carries: never changes, loaded by `load` on the first page or asset request
 * (so that a command line run never parses it), each file decoded on its first request.
 */
export function embeddedUiSource(load: () => Promise<EmbeddedUi>): UiSource {
  let ui: Promise<EmbeddedUi> | undefined;
  const loaded = () => ui ??= load();
  const decoded = new Map<string, Uint8Array>();
  return {
    manifest: async () => (await loaded()).manifest,
    async read(name) {
      const text = (await loaded()).files[name];
      if (text === undefined) return undefined;
      let bytes = decoded.get(name);
      if (!bytes) decoded.set(name, bytes = fromBase64(text));
      return bytes;
    },
  };
}

interface Loaded {
  stamp: string;
  manifest: UiManifest;
  bodies: Map<string, Uint8Array>;
}

/**
 * The build folder `dir` (a file URL ending in `/`): its manifest is re-read when it changed (a
 * rebuild while Lass runs), and file bodies are cached per build. Nothing is read until asked.
 */
export function folderUiSource(dir: URL): UiSource {
  let loaded: Loaded | undefined;
  let checking: Promise<Loaded | undefined> | undefined;
  // Loaded on the first page or asset request, never at startup.
  const fs = () => import("node:fs/promises");

  async function readManifest(): Promise<Loaded | undefined> {
    const { readFile, stat } = await fs();
    const file = new URL("manifest.json", dir);
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

  /** The current build; concurrent callers share one check. */
  function current(): Promise<Loaded | undefined> {
    checking ??= readManifest().finally(() => checking = undefined);
    return checking;
  }

  return {
    manifest: async () => (await current())?.manifest,
    async read(name) {
      const build = await current();
      if (!build) return undefined;
      let body = build.bodies.get(name);
      if (!body) {
        const { readFile } = await fs();
        try {
          body = new Uint8Array(await readFile(new URL(name, dir)));
        } catch {
          return undefined;
        }
        build.bodies.set(name, body);
      }
      return body;
    },
  };
}
