/**
 * `lass check`'s side of pinning: the connected servers compared with the lock file, and the
 * lock written when it is asked for (`--lock` for a missing file, `--update` to rewrite it).
 */
import type { FileSystem } from "../../files.ts";
import type { CheckProblem } from "../tool_checks.ts";
import type { ToolServerState } from "../../../wire/tool_servers.ts";
import type { LockFile, PinChange, PinDrift, PinnedServer } from "../../../wire/pinning.ts";
import { pinServer } from "./canonical.ts";
import { diffPins, versionChange } from "./diff.ts";
import { readLock, writeLock } from "./pin_files.ts";

/** What to do with the lock file. */
export interface LockRequest {
  path: string;
  /** Write the lock when the file does not exist (`--lock`); otherwise only an existing one counts. */
  create: boolean;
  /** Rewrite the lock with what the servers offer now (`--update`). */
  update: boolean;
}

/** One server's pins as `lass check` found them. */
export interface ServerPins {
  /**
   * `matched` the lock, `drifted` from it, `unpinned` (not in the lock); `written` into a new
   * lock, or `updated` in it (`--update`: its changes were accepted).
   */
  status: "matched" | "drifted" | "unpinned" | "written" | "updated";
  changes: PinChange[];
  version?: PinDrift["version"];
}

/** The lock file's part of the report. */
export interface LockReport {
  path: string;
  /** Whether the file was written by this check. */
  written: boolean;
  servers: Record<string, ServerPins>;
}

/** A server to compare: its state, and whether its record turns pinning off. */
export interface PinCandidate {
  state: ToolServerState;
  pinning?: "off" | "warn" | "block";
}

const VERBS = {
  added: "added since pinned",
  removed: "removed since pinned",
  changed: "changed since pinned",
};

/** The problems of a server's pins: each change, or a server the lock does not have, is an error. */
export function pinProblems(pins: ServerPins, lockName: string): CheckProblem[] {
  if (pins.status === "unpinned") {
    return [{
      severity: "error",
      subject: "pins",
      message: `the server is not in ${lockName} (lass check --update adds it)`,
    }];
  }
  if (pins.status !== "drifted") return [];
  return pins.changes.map((change) => ({
    severity: "error",
    subject: `${
      change.kind === "resourceTemplate" ? "resource template" : change.kind
    } ${change.name}`,
    message: `${VERBS[change.change]} in ${lockName} (lass check --update accepts it)`,
  }));
}

/**
 * Compares the connected candidates (pinning not `off`) with the lock and writes it when asked.
 * Undefined when there is no lock file and none is to be created. Servers in the lock that are
 * not compared here keep their entries.
 */
export async function checkLock(
  fs: FileSystem,
  request: LockRequest,
  candidates: readonly PinCandidate[],
): Promise<LockReport | undefined> {
  const lock = await readLock(fs, request.path);
  if (!lock && !request.create && !request.update) return undefined;
  const next: LockFile = { lockfileVersion: 1, servers: { ...lock?.servers } };
  const servers: Record<string, ServerPins> = {};
  for (const { state, pinning } of candidates) {
    if (pinning === "off" || state.status !== "connected") continue;
    const now = pinServer(state);
    const pinned: PinnedServer | undefined = lock?.servers[state.id];
    next.servers[state.id] = now;
    if (!lock) {
      servers[state.id] = { status: "written", changes: [] };
      continue;
    }
    if (!pinned) {
      servers[state.id] = { status: request.update ? "written" : "unpinned", changes: [] };
      continue;
    }
    const changes = diffPins(pinned, now);
    const version = versionChange(pinned, now);
    const status = changes.length === 0 ? "matched" : request.update ? "updated" : "drifted";
    servers[state.id] = { status, changes, ...(version && { version }) };
  }
  const written = !lock || request.update;
  if (written) await writeLock(fs, request.path, next);
  return { path: request.path, written, servers };
}
