/**
 * What runs the conformance suite (a Node program from npm): Deno, which Lass runs on and which
 * resolves the pinned package from its lock, else Node 22 or newer through `npx`. A compiled Lass
 * binary is not a Deno that can run npm packages, so it looks for `deno` on the PATH.
 */
import { execFile } from "node:child_process";
import { basename } from "node:path";
import process from "node:process";
import { CONFORMANCE_SUITE } from "../../../wire/conformance.ts";

/** A program that can run the suite. */
export interface SuiteRuntime {
  kind: "deno" | "node";
  /** The executable: `deno`'s path, or `npx` for Node. */
  command: string;
  /** Its version, for messages (`2.9.6`, `v22.3.0`). */
  version: string;
}

/** The suite cannot run here; the message says what it needs. */
export class SuiteUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SuiteUnavailableError";
  }
}

/** Runs `command --version`; its first line, or undefined when it cannot be run. */
export type VersionProbe = (command: string) => Promise<string | undefined>;

/** What {@link findSuiteRuntime} looks at (tests pass their own). */
export interface RuntimeLookup {
  /** This process's executable; default `process.execPath`. */
  execPath?: string;
  /** Whether this process is Deno running a script (not a compiled binary); default: looked up. */
  runningDeno?: boolean;
  probe?: VersionProbe;
}

/** The oldest Node the suite runs on. */
const NODE_MAJOR = 22;

const probeVersion: VersionProbe = (command) =>
  new Promise((resolve) => {
    execFile(command, ["--version"], { timeout: 10_000 }, (error, stdout) => {
      resolve(error ? undefined : String(stdout).split("\n")[0].trim() || undefined);
    });
  });

/** Whether this process is Deno running a script: not Node, not a `deno compile` binary. */
function isDenoScript(execPath: string): boolean {
  return process.versions.deno !== undefined && /^deno(\.exe)?$/i.test(basename(execPath)) &&
    !import.meta.url.includes("/deno-compile-");
}

/**
 * The runtime for the suite: this Deno, else `deno` on the PATH, else Node ≥ 22 (with `npx`).
 * Throws {@link SuiteUnavailableError} naming what is missing.
 */
export async function findSuiteRuntime(lookup: RuntimeLookup = {}): Promise<SuiteRuntime> {
  const execPath = lookup.execPath ?? process.execPath;
  const probe = lookup.probe ?? probeVersion;
  if (lookup.runningDeno ?? isDenoScript(execPath)) {
    return { kind: "deno", command: execPath, version: process.versions.deno ?? "" };
  }
  const deno = await probe("deno");
  if (deno) return { kind: "deno", command: "deno", version: deno.replace(/^deno\s+/, "") };
  const node = await probe("node");
  const major = Number(/^v?(\d+)\./.exec(node ?? "")?.[1] ?? 0);
  if (node && major >= NODE_MAJOR && await probe("npx")) {
    return { kind: "node", command: "npx", version: node };
  }
  const found = node
    ? `found Node ${node}${major >= NODE_MAJOR ? " without npx" : ""}`
    : "found neither";
  throw new SuiteUnavailableError(
    `the MCP conformance suite (npm:${CONFORMANCE_SUITE.package}@${CONFORMANCE_SUITE.version}) ` +
      `needs Deno or Node ${NODE_MAJOR} or newer on the PATH (${found})`,
  );
}
