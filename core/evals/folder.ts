/**
 * The eval files in the config file's folder (`*.eval.yaml`, `.yml`, `.json`), listed and read
 * for the web UI. Only plain files directly in that folder: no other name, no subfolder, no link.
 */
import { dirname, join } from "node:path";
import type { FileSystem } from "../files.ts";
import { LassError } from "../errors.ts";
import type { EvalFileList, EvalFileText } from "../../wire/evals.ts";

/** The largest eval file the UI reads: 1 MiB. */
export const MAX_EVAL_FILE_BYTES = 1024 * 1024;

/** The name of an eval file: no path separator, not hidden, ending in `.eval.yaml|yml|json`. */
const EVAL_FILE_NAME = /^[^./\\][^/\\]*\.eval\.(ya?ml|json)$/i;

/** Whether `name` is an eval file's name (and nothing else: no folder, no `..`). */
export function isEvalFileName(name: string): boolean {
  return EVAL_FILE_NAME.test(name);
}

/** The eval files beside the config file, by name. */
export async function listEvalFiles(fs: FileSystem, configPath: string): Promise<EvalFileList> {
  const folder = dirname(configPath);
  const entries = await fs.entries(folder);
  const files: EvalFileList["files"] = [];
  for (const entry of entries) {
    if (!entry.isFile || entry.isSymlink || !isEvalFileName(entry.name)) continue;
    const info = await fs.stat(join(folder, entry.name));
    if (!info || info.isDirectory) continue;
    files.push({
      name: entry.name,
      size: info.size,
      modifiedAt: new Date(info.mtimeMs).toISOString(),
    });
  }
  files.sort((a, b) => a.name.localeCompare(b.name));
  return { folder, files };
}

/**
 * One eval file beside the config file. Any other name is 404, and so is a link or a file
 * larger than {@link MAX_EVAL_FILE_BYTES} (413): nothing outside the folder is ever read.
 */
export async function readEvalFile(
  fs: FileSystem,
  configPath: string,
  name: string,
): Promise<EvalFileText> {
  const folder = dirname(configPath);
  const entry = isEvalFileName(name)
    ? (await fs.entries(folder)).find((candidate) => candidate.name === name)
    : undefined;
  if (!entry?.isFile || entry.isSymlink) {
    throw new LassError("not-found", `no eval file ${JSON.stringify(name)} beside the config`);
  }
  const bytes = await fs.readBytes(join(folder, name), MAX_EVAL_FILE_BYTES + 1);
  if (!bytes) throw new LassError("not-found", `no eval file ${JSON.stringify(name)}`);
  if (bytes.byteLength > MAX_EVAL_FILE_BYTES) {
    throw new LassError("too-large", `${name} is larger than ${MAX_EVAL_FILE_BYTES} bytes`);
  }
  return { name, text: new TextDecoder().decode(bytes) };
}
