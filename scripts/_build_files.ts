/**
 * What the build scripts share: running `deno`, modification times of sources and a lock between
 * concurrent builds. On Deno's own file API: `lass serve` checks the UI's staleness with it once it
 * listens, and the Node layer (`node:fs`) would cost that start several MB and milliseconds.
 */

/** A lock older than this belongs to a build that died. */
const STALE_LOCK_MS = 120_000;

/** A file's modification time, 0 when it does not exist. */
export async function mtimeOf(url: URL): Promise<number> {
  try {
    return (await Deno.stat(url)).mtime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

/** The newest modification time of any file under `dir` (a URL ending in `/`). */
export async function newestIn(dir: URL): Promise<number> {
  let newest = await mtimeOf(dir);
  const entries: Deno.DirEntry[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) entries.push(entry);
  } catch {
    return newest;
  }
  for (const entry of entries) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    newest = Math.max(newest, entry.isDirectory ? await newestIn(url) : await mtimeOf(url));
  }
  return newest;
}

/**
 * Runs `run` holding the lock file `lock` (created exclusively), so that concurrent builds (tests
 * under `--parallel`) take turns. A lock left by a build that died is taken over after 2 minutes.
 */
export async function withLock<T>(lock: URL, run: () => Promise<T>): Promise<T> {
  await Deno.mkdir(new URL(".", lock), { recursive: true });
  const deadline = Date.now() + STALE_LOCK_MS;
  while (true) {
    try {
      (await Deno.open(lock, { write: true, createNew: true })).close();
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      const age = Date.now() - await mtimeOf(lock);
      if (age > STALE_LOCK_MS || Date.now() > deadline) await removeIfThere(lock);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await run();
  } finally {
    await removeIfThere(lock);
  }
}

/** Removes a file; one that is not there is fine. */
async function removeIfThere(path: URL): Promise<void> {
  try {
    await Deno.remove(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** Runs `deno <args>` in `cwd`; a failure throws with what it printed. */
export async function runDeno(args: string[], cwd: string): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (!output.success) {
    const text = new TextDecoder().decode(output.stderr) + new TextDecoder().decode(output.stdout);
    throw new Error(`deno ${args[0]} failed:\n${text.trim()}`);
  }
}
