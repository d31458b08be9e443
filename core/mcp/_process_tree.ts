/**
 * Stopping a stdio tool server with everything it started: the server process and its
 * descendants (a server run by `npx` or a shell script is a tree of processes). On Linux the tree
 * is read from `/proc`; elsewhere only the server's own process is known.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import process from "node:process";

/** A process of a tree; `start` (its start time, from `/proc`) tells a reused pid apart. */
export interface TreeProcess {
  pid: number;
  start?: string;
}

/** How long a server may take to exit after its stdin closed, and after SIGTERM. */
export const STOP_GRACE_MS = 2000;

const POLL_MS = 50;

/** Whether `/proc` describes this system's processes (Linux). */
function hasProc(): boolean {
  return existsSync(`/proc/${process.pid}/stat`);
}

/** A process's state letter and start time from `/proc/<pid>/stat`; undefined once it is gone. */
function statOf(pid: number): { state: string; start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: the fields after it start at the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0], start: fields[19] };
}

/** The direct children of a process (every thread's children). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8");
        for (const word of text.split(/\s+/)) if (word) children.push(Number(word));
      } catch {
        // The thread ended meanwhile.
      }
    }
  } catch {
    // The process ended meanwhile.
  }
  return children;
}

/** The process `pid` and all its living descendants; just `pid` where there is no `/proc`. */
export function processTree(pid: number): TreeProcess[] {
  if (!hasProc()) return [{ pid }];
  const tree: TreeProcess[] = [];
  const seen = new Set<number>();
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const stat = statOf(next);
    if (!stat) continue;
    tree.push({ pid: next, start: stat.start });
    queue.push(...childrenOf(next));
  }
  return tree;
}

/** Whether a process of a tree still runs (a zombie does not; a reused pid is another process). */
export function isAlive(member: TreeProcess): boolean {
  if (member.start === undefined) {
    try {
      process.kill(member.pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  const stat = statOf(member.pid);
  return stat !== undefined && stat.start === member.start && stat.state !== "Z" &&
    stat.state !== "X";
}

function signal(members: TreeProcess[], name: "SIGTERM" | "SIGKILL"): void {
  for (const member of members) {
    if (!isAlive(member)) continue;
    try {
      process.kill(member.pid, name);
    } catch {
      // Gone meanwhile, or not ours to signal.
    }
  }
}

/** Waits until `done()` holds or `ms` pass, calling `tick` between checks. */
async function waitUntil(done: () => boolean, ms: number, tick: () => void): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    tick();
  }
}

/**
 * Stops the process `pid` and its descendants: `closeStdin` (the SDK's close, which ends the
 * server's stdin) runs first and the server gets {@link STOP_GRACE_MS} to exit; then every process
 * of the tree left gets SIGTERM, and SIGKILL after another {@link STOP_GRACE_MS}. Descendants are
 * collected before and while the server runs, so children it leaves behind are stopped too.
 */
export async function stopProcessTree(
  pid: number | null | undefined,
  closeStdin: () => Promise<void>,
  graceMs = STOP_GRACE_MS,
): Promise<void> {
  if (!pid) return await closeStdin();
  const root = processTree(pid).find((member) => member.pid === pid) ?? { pid };
  const known = new Map<number, TreeProcess>([[pid, root]]);
  const living = () => [...known.values()].filter(isAlive);
  // Every living process of the tree adds its descendants, so a child the server leaves behind
  // still brings its own.
  const collect = () => {
    for (const member of living()) {
      for (const found of processTree(member.pid)) {
        if (!known.has(found.pid)) known.set(found.pid, found);
      }
    }
  };
  collect();
  const closed = closeStdin().catch(() => {});
  await waitUntil(() => !isAlive(root), graceMs, collect);
  collect();
  if (living().length > 0) {
    signal(living(), "SIGTERM");
    await waitUntil(() => living().length === 0, graceMs, collect);
    collect();
    signal(living(), "SIGKILL");
  }
  await closed;
}
