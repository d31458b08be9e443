/** The file operations of Lass on Deno's own API, which `main.ts` passes in (no Node layer at startup). */
import { basename } from "node:path";
import type { FileSystem } from "../core/files.ts";

const missing = (error: unknown) => error instanceof Deno.errors.NotFound;

/** {@link FileSystem} on Deno's file API. */
export const denoFileSystem: FileSystem = {
  async readText(path) {
    try {
      return await Deno.readTextFile(path);
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  },
  async writeNew(path, content, mode) {
    using file = await Deno.open(path, { write: true, createNew: true, mode });
    const bytes = new TextEncoder().encode(content);
    for (let written = 0; written < bytes.length;) {
      written += await file.write(bytes.subarray(written));
    }
    await file.sync();
  },
  rename: (from, to) => Deno.rename(from, to),
  chmod: (path, mode) => Deno.chmod(path, mode),
  async remove(path) {
    try {
      await Deno.remove(path);
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  },
  async list(dir) {
    try {
      const names: string[] = [];
      for await (const entry of Deno.readDir(dir)) names.push(entry.name);
      return names;
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  },
  async entries(dir) {
    try {
      const entries = [];
      for await (const entry of Deno.readDir(dir)) entries.push(entry);
      return entries.map(({ name, isFile, isDirectory, isSymlink }) => ({
        name,
        isFile,
        isDirectory,
        isSymlink,
      }));
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  },
  async stat(path) {
    try {
      const info = await Deno.stat(path);
      return {
        mtimeMs: info.mtime?.getTime() ?? 0,
        size: info.size,
        mode: info.mode ?? 0,
        isDirectory: info.isDirectory,
      };
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  },
  async readBytes(path, limit) {
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
    try {
      const buffer = new Uint8Array(limit);
      let filled = 0;
      while (filled < limit) {
        const read = await file.read(buffer.subarray(filled));
        if (read === null || read === 0) break;
        filled += read;
      }
      return buffer.subarray(0, filled);
    } finally {
      file.close();
    }
  },
  realPath: (path) => Deno.realPath(path),
  makeDir: (path, mode) => Deno.mkdir(path, { recursive: true, mode }),
  exists(path) {
    try {
      Deno.statSync(path);
      return true;
    } catch {
      return false;
    }
  },
  watch(dir, onChange) {
    const watcher = Deno.watchFs(dir, { recursive: false });
    (async () => {
      try {
        for await (const event of watcher) {
          for (const path of event.paths) onChange(basename(path));
        }
      } catch {
        // The watcher was closed or the folder went away.
      }
    })();
    return () => {
      try {
        watcher.close();
      } catch {
        // Already closed.
      }
    };
  },
};
