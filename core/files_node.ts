/** The file operations of Lass on `node:fs`: the default for any runtime with Node built-ins. */
import { existsSync, watch } from "node:fs";
import {
  chmod,
  mkdir,
  open,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
} from "node:fs/promises";
import type { FileSystem } from "./files.ts";

const missing = (error: unknown) => (error as { code?: string }).code === "ENOENT";

/** {@link FileSystem} on `node:fs`. */
export const nodeFileSystem: FileSystem = {
  async readText(path) {
    try {
      return await readFile(path, "utf8");
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  },
  async writeNew(path, content, mode) {
    const handle = await open(path, "wx", mode);
    try {
      await handle.writeFile(content, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => rename(from, to),
  chmod: (path, mode) => chmod(path, mode),
  async remove(path) {
    try {
      await rm(path);
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  },
  async list(dir) {
    try {
      return await readdir(dir);
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  },
  async entries(dir) {
    try {
      return (await readdir(dir, { withFileTypes: true })).map((entry) => ({
        name: entry.name,
        isFile: entry.isFile(),
        isDirectory: entry.isDirectory(),
        isSymlink: entry.isSymbolicLink(),
      }));
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  },
  async stat(path) {
    try {
      const info = await stat(path);
      return {
        mtimeMs: info.mtimeMs,
        size: info.size,
        mode: info.mode,
        isDirectory: info.isDirectory(),
      };
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  },
  async readBytes(path, limit) {
    let handle;
    try {
      handle = await open(path, "r");
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
    try {
      const buffer = new Uint8Array(limit);
      let filled = 0;
      while (filled < limit) {
        const { bytesRead } = await handle.read(buffer, filled, limit - filled, null);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    } finally {
      await handle.close();
    }
  },
  realPath: (path) => realpath(path),
  makeDir: async (path, mode) => {
    await mkdir(path, { recursive: true, mode });
  },
  exists: (path) => existsSync(path),
  watch(dir, onChange) {
    const watcher = watch(dir, (_event, name) => onChange(name ?? undefined));
    watcher.on("error", () => watcher.close());
    return () => watcher.close();
  },
};
