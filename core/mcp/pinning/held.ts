/** Which tools of a server chat leaves out: those added or changed since pinned, under `block`. */
import type { PinDrift } from "../../../wire/pinning.ts";

/** Why a held tool is left out of a chat turn (the `start` chunk's `unavailable`). */
export const CHANGED_SINCE_PINNED = "changed since pinned";

/** The names of the tools a drift holds back from chat: none unless its `pinning` is `block`. */
export function heldTools(drift: PinDrift | undefined): Set<string> {
  if (drift?.pinning !== "block") return new Set();
  return new Set(
    drift.changes
      .filter((change) => change.kind === "tool" && change.change !== "removed")
      .map((change) => change.name),
  );
}
