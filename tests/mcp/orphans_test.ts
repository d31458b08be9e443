/**
 * No orphan processes: a stdio tool server is stopped with its whole process tree (stdin closed,
 * SIGTERM, SIGKILL after 2 s), on disconnect and when Lass shuts down, even when it ignores SIGTERM
 * or started children of its own.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import process from "node:process";
import { processTree, stillRunning, stopProcessTree } from "../../core/mcp/session/process_tree.ts";
import { cliHome, runLass, serveLass } from "../_cli.ts";
import { configWithServers, post, startService } from "../_helpers.ts";

/** Whether a pid names a running process (not a zombie). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

function describe(pid: number): string {
  try {
    return `${pid} (${readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim()})`;
  } catch {
    return String(pid);
  }
}

/** Waits (at most 10 s) until none of `pids` runs; fails naming the survivors. */
async function waitAllGone(pids: number[], after: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (pids.some(running) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const left = pids.filter(running);
  assert.deepEqual(left.map(describe), [], `processes still running 10 s after ${after}`);
}

/** Reads the pids a fixture wrote, waiting for `count` of them. */
async function pidsIn(file: string, count: number): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const pids = existsSync(file)
      ? readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number)
      : [];
    if (pids.length >= count) return pids;
    if (Date.now() > deadline) throw new Error(`the fixture wrote ${pids.length} of ${count} pids`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const FIXTURES = {
  "ignores SIGTERM": { file: "sigterm_ignoring_server.ts", pids: 1 },
  "forks a child": { file: "forking_server.ts", pids: 2 },
};

/** Fails after 30 s saying what did not finish (a connect that hangs must not hang the test). */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within 30 s`)), 30_000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** One scenario: a fixture server connected in `era`, then disconnected or Lass shut down. */
async function leavesNoProcess(
  fixture: { file: string; pids: number },
  how: "disconnect" | "shutdown",
  era: "auto" | "legacy",
): Promise<void> {
  const pidFile = await Deno.makeTempFile({ prefix: "lass-orphans-" });
  const path = new URL(`../fixtures/${fixture.file}`, import.meta.url).pathname;
  const t = await startService({
    config: configWithServers([{
      id: "orphans",
      name: "Orphans",
      transport: "stdio",
      command: Deno.execPath(),
      args: ["run", "-A", path, pidFile],
      protocolEra: era,
    }]),
  });
  let pids: number[] = [];
  let closed = false;
  try {
    const connected = await within(post(t, "/api/mcp/orphans/connect"), "the connect");
    assert.equal(connected.body.status, "connected", JSON.stringify(connected.body));
    // Every start (the probe's, then the session's) wrote its pids before it answered.
    pids = await pidsIn(pidFile, fixture.pids);
    const session = pids.slice(-fixture.pids);
    assert.equal(session.every(running), true, "the server's processes run while connected");
    if (how === "disconnect") {
      const disconnected = await within(post(t, "/api/mcp/orphans/disconnect"), "disconnect");
      assert.equal(disconnected.body.status, "disconnected");
    } else {
      closed = true;
      await within(t.close(), "the shutdown");
    }
    await waitAllGone(pids, how);
  } finally {
    for (const pid of pids.filter(running)) process.kill(pid, "SIGKILL");
    if (!closed) await t.close();
    await Deno.remove(pidFile);
  }
}

// `auto` (the default) probes the era on a short-lived extra process first: it is stopped the same
// way. The four cases of a fixture run at once (each has its own service and processes): most of
// their time is the stop's grace periods.
for (const [kind, fixture] of Object.entries(FIXTURES)) {
  Deno.test(`a stdio server that ${kind} leaves no process after disconnect or shutdown, in both eras`, async () => {
    const cases = [
      ["disconnect", "auto"],
      ["shutdown", "auto"],
      ["disconnect", "legacy"],
      ["shutdown", "legacy"],
    ] as const;
    const outcomes = await Promise.allSettled(
      cases.map(([how, era]) => leavesNoProcess(fixture, how, era)),
    );
    const failures = outcomes.flatMap((outcome, index) =>
      outcome.status === "rejected"
        ? [
          `after ${cases[index][0]} (${cases[index][1]}): ${
            outcome.reason?.message ?? outcome.reason
          }`,
        ]
        : []
    );
    assert.deepEqual(failures, []);
  });
}

for (const source of ["proc", "ps"] as const) {
  Deno.test(`processTree lists a process and its descendants; stopProcessTree stops them all (${source})`, async () => {
    // A shell that ignores SIGTERM and keeps stdin open, with a child that ignores it too.
    const shell = new Deno.Command("sh", {
      args: ["-c", "trap '' TERM; sleep 600 & wait"],
      stdin: "piped",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      let tree = await processTree(shell.pid, source);
      const deadline = Date.now() + 10_000;
      while (tree.length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        tree = await processTree(shell.pid, source);
      }
      assert.equal(tree[0].pid, shell.pid);
      assert.equal(tree.length, 2, "the shell and its sleep");
      assert.deepEqual(await stillRunning(tree, source), tree);
      let stdinClosed = false;
      await stopProcessTree(shell.pid, async () => {
        stdinClosed = true;
        await shell.stdin.close();
      }, { graceMs: 200, source });
      assert.equal(stdinClosed, true);
      await shell.status;
      await waitAllGone(tree.map((member) => member.pid), "stopProcessTree");
      assert.deepEqual(await stillRunning(tree, source), []);
    } finally {
      for (const member of await processTree(shell.pid, "proc")) {
        if (running(member.pid)) process.kill(member.pid, "SIGKILL");
      }
    }
  });
}

Deno.test("lass serve with the start task's permissions stops a stdio server and its child on disconnect", async () => {
  const pidFile = await Deno.makeTempFile({ prefix: "lass-orphans-" });
  const path = new URL("../fixtures/forking_server.ts", import.meta.url).pathname;
  const home = await cliHome(configWithServers([{
    id: "orphans",
    name: "Orphans",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", path, pidFile],
    protocolEra: "legacy",
  }]));
  const lass = await serveLass(home.args);
  let pids: number[] = [];
  try {
    const call = (path: string) =>
      fetch(`${lass.origin}${path}`, {
        method: "POST",
        headers: { "x-service-token": lass.token },
      }).then((response) => response.json());
    const connected = await within(call("/api/mcp/orphans/connect"), "the connect");
    assert.equal(connected.status, "connected", JSON.stringify(connected));
    pids = await pidsIn(pidFile, 2);
    assert.equal(pids.every(running), true, "the server and its child run while connected");
    const disconnected = await within(call("/api/mcp/orphans/disconnect"), "the disconnect");
    assert.equal(disconnected.status, "disconnected", JSON.stringify(disconnected));
    await waitAllGone(pids, "the disconnect");
  } finally {
    for (const pid of pids.filter(running)) process.kill(pid, "SIGKILL");
    await lass.stop();
    await home.close();
    await Deno.remove(pidFile);
  }
});

/**
 * A config whose active workspace uses `silent`: a stdio server that never answers and appends
 * its pid to `pidFile` (`exec` keeps the pid the shell wrote).
 */
function silentWorkspace(pidFile: string, extra: Record<string, unknown>) {
  const silent = {
    id: "silent",
    name: "Silent",
    transport: "stdio",
    command: "sh",
    args: ["-c", `echo $$ >> '${pidFile}'; exec sleep 600`],
    ...extra,
  };
  const config = configWithServers([silent]);
  (config.workspaces as { mcpServerIds: string[] }[])[0].mcpServerIds = ["silent"];
  return config;
}

for (const era of ["auto", "legacy"] as const) {
  Deno.test(`lass serve stopped while a stdio server is still connecting leaves no process (${era})`, async () => {
    const pidFile = await Deno.makeTempFile({ prefix: "lass-orphans-" });
    const home = await cliHome(silentWorkspace(pidFile, { protocolEra: era, timeoutMs: 120_000 }));
    const lass = await serveLass(home.args);
    let pids: number[] = [];
    try {
      // The background connect started the server (under auto: the era probe's process).
      pids = await pidsIn(pidFile, 1);
      assert.equal(pids.every(running), true, "the silent server runs while Lass connects");
      await lass.stop();
      await waitAllGone(pids, "Lass stopped");
    } finally {
      for (const pid of pids.filter(running)) process.kill(pid, "SIGKILL");
      await home.close();
      await Deno.remove(pidFile);
    }
  });
}

Deno.test("lass check on a stdio server that never answers leaves no process once it exits", async () => {
  const pidFile = await Deno.makeTempFile({ prefix: "lass-orphans-" });
  const home = await cliHome(silentWorkspace(pidFile, { timeoutMs: 2_000 }));
  let pids: number[] = [];
  try {
    const ran = await runLass(["check", ...home.args]);
    assert.equal(ran.code, 1, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^silent\s+error/m);
    // The era probe's process and the fallback's (the SDK forgets a pid when its connect fails).
    pids = await pidsIn(pidFile, 2);
    await waitAllGone(pids, "lass check exited");
  } finally {
    for (const pid of pids.filter(running)) process.kill(pid, "SIGKILL");
    await home.close();
    await Deno.remove(pidFile);
  }
});
