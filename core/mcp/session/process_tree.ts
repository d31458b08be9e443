/**
 * Stopping a stdio tool server with everything it started: the server process and its
 * descendants (a server run by `npx` or a shell script is a tree of processes). The tree comes
 * from the process table: `/proc` where this process may read it (Linux; Deno asks for
 * `--allow-all` to read it), else `ps` (Linux, macOS). Where neither answers (Windows, a system
 * without `ps`), only the server's own process is known.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";

/** A process of a tree; `start` (its start time in the table) tells a reused pid apart. */
export interface TreeProcess {
  pid: number;
  start?: string;
}

/** One process of the table. */
interface Row {
  ppid: number;
  start: string;
  /** Ended but not yet reaped by its parent. */
  zombie: boolean;
}

/** The process table by pid, as one source read it at one moment. */
type ProcessTable = Map<number, Row>;

/** Where the process table is read from. */
export type TableSource = "proc" | "ps";

/** How long a server may take to exit after its stdin closed, and after SIGTERM. */
export const STOP_GRACE_MS = 2000;

/** The longest pause between two reads of the process table while a stop waits. */
const POLL_MS = 50;
/** The first pause: most servers exit within a few milliseconds of their stdin closing. */
const FIRST_POLL_MS = 4;

/** The table from `/proc`; undefined where there is none or this process may not read it. */
function procTable(): ProcessTable | undefined {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const table: ProcessTable = new Map();
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // Ended meanwhile.
    }
    // The command name (field 2) may hold spaces and parentheses: the fields after it start at the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    table.set(Number(name), {
      ppid: Number(fields[1]),
      start: fields[19],
      zombie: fields[0] === "Z" || fields[0] === "X",
    });
  }
  return table;
}

/** Whether this process may run `ps` without a permission prompt (Node always may). */
function mayRunPs(): boolean {
  // Typed here: this module is also checked without Deno's types (it runs under Node too).
  type Permissions = { querySync(query: { name: "run"; command: string }): { state: string } };
  const deno = (globalThis as { Deno?: { permissions: Permissions } }).Deno;
  return !deno || deno.permissions.querySync({ name: "run", command: "ps" }).state === "granted";
}

/** The table from `ps`; undefined where it cannot run. */
function psTable(): Promise<ProcessTable | undefined> {
  if (!mayRunPs()) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const parse = (error: Error | null, stdout: string) => {
      if (error) return resolve(undefined);
      const table: ProcessTable = new Map();
      for (const line of stdout.split("\n")) {
        const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
        if (!match) continue;
        table.set(Number(match[1]), {
          ppid: Number(match[2]),
          start: match[4],
          zombie: match[3].startsWith("Z"),
        });
      }
      resolve(table);
    };
    try {
      // `=` leaves out the headers; the start time (`lstart`, with spaces) comes last.
      execFile(
        "ps",
        ["-A", "-o", "pid=,ppid=,stat=,lstart="],
        (error, stdout) => parse(error, String(stdout)),
      );
    } catch (error) {
      // Refused before it ran (a permission this process lacks).
      parse(error as Error, "");
    }
  });
}

/** The source of this process's tables: the first that answered, `/proc` tried first. */
let chosen: TableSource | "none" | undefined;

/** Reads the process table from `source`, by default from the one chosen for this process. */
async function readTable(source?: TableSource): Promise<ProcessTable | undefined> {
  const from = source ?? chosen;
  if (from === "none") return undefined;
  if (from) return from === "proc" ? procTable() : await psTable();
  // The first read chooses, and its table is the answer.
  const proc = procTable();
  if (proc) return (chosen = "proc"), proc;
  const ps = await psTable();
  chosen = ps ? "ps" : "none";
  return ps;
}

/** The living process `pid` and its living descendants in `table`. */
function treeIn(table: ProcessTable, pid: number): TreeProcess[] {
  const children = new Map<number, number[]>();
  for (const [child, row] of table) {
    if (!children.has(row.ppid)) children.set(row.ppid, []);
    children.get(row.ppid)!.push(child);
  }
  const tree: TreeProcess[] = [];
  const seen = new Set<number>();
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift()!;
    const row = table.get(next);
    if (seen.has(next) || !row || row.zombie) continue;
    seen.add(next);
    tree.push({ pid: next, start: row.start });
    queue.push(...children.get(next) ?? []);
  }
  return tree;
}

/** Whether a process of a tree still runs (a zombie does not; a reused pid is another process). */
function aliveIn(table: ProcessTable | undefined, member: TreeProcess): boolean {
  if (!table || member.start === undefined) {
    try {
      process.kill(member.pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  const row = table.get(member.pid);
  return row !== undefined && row.start === member.start && !row.zombie;
}

/**
 * The process `pid` and all its living descendants; just `pid` where there is no process table.
 * `source` picks the table (default: the first that answers).
 */
export async function processTree(pid: number, source?: TableSource): Promise<TreeProcess[]> {
  const table = await readTable(source);
  return table ? treeIn(table, pid) : [{ pid }];
}

/** The members of a tree that still run (a zombie does not; a reused pid is another process). */
export async function stillRunning(
  members: TreeProcess[],
  source?: TableSource,
): Promise<TreeProcess[]> {
  const table = await readTable(source);
  return members.filter((member) => aliveIn(table, member));
}

/**
 * Waits until `done()` holds or `ms` pass, calling `tick` between checks; the pauses double from
 * {@link FIRST_POLL_MS} to {@link POLL_MS}, so a quick exit is seen quickly.
 */
async function waitUntil(
  done: () => boolean,
  ms: number,
  tick: () => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + ms;
  let pause = FIRST_POLL_MS;
  while (!done() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, POLL_MS);
    await tick();
  }
}

/** How {@link stopProcessTree} waits and where it reads the process table. */
export interface StopOptions {
  /** How long the server gets after its stdin closed, and after SIGTERM; default 2 s. */
  graceMs?: number;
  /** The process table's source; default the first that answers. */
  source?: TableSource;
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
  options: StopOptions = {},
): Promise<void> {
  if (!pid) return await closeStdin();
  const { graceMs = STOP_GRACE_MS, source } = options;
  let table = await readTable(source);
  const known = new Map<number, TreeProcess>([[pid, { pid, start: table?.get(pid)?.start }]]);
  const living = () => [...known.values()].filter((member) => aliveIn(table, member));
  // Every living process of the tree adds its descendants, so a child the server leaves behind
  // still brings its own.
  const collect = () => {
    if (!table) return;
    for (const member of living()) {
      for (const found of treeIn(table, member.pid)) {
        if (!known.has(found.pid)) known.set(found.pid, found);
      }
    }
  };
  const refresh = async () => {
    table = await readTable(source);
    collect();
  };
  collect();
  const closed = closeStdin().catch(() => {});
  const root = known.get(pid)!;
  await waitUntil(() => !aliveIn(table, root), graceMs, refresh);
  await refresh();
  if (living().length > 0) {
    signal(living(), "SIGTERM");
    await waitUntil(() => living().length === 0, graceMs, refresh);
    await refresh();
    signal(living(), "SIGKILL");
  }
  await closed;
}

function signal(members: TreeProcess[], name: "SIGTERM" | "SIGKILL"): void {
  for (const member of members) {
    try {
      process.kill(member.pid, name);
    } catch {
      // Gone meanwhile, or not ours to signal.
    }
  }
}
