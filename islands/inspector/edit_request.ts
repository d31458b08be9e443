/**
 * "Edit and send" of a History row: the past request waits here until its tab and form take it
 * (the form fills in its arguments, ready to be changed and sent).
 */
import { signal } from "@preact/signals";
import type { Rerun } from "./timeline.ts";

/** A past request on its way into its form. */
export interface EditRequest {
  serverId: string;
  rerun: Rerun;
}

/** The request waiting for its form, if any. */
export const editRequest = signal<EditRequest | null>(null);

/** Sends a past request of `serverId` to its form. */
export function editAgain(serverId: string, rerun: Rerun): void {
  editRequest.value = { serverId, rerun };
}

/** The waiting request of this kind for this server, if there is one. */
export function waitingEdit<K extends Rerun["kind"]>(
  serverId: string,
  kind: K,
): Extract<Rerun, { kind: K }> | undefined {
  const waiting = editRequest.value;
  if (!waiting || waiting.serverId !== serverId || waiting.rerun.kind !== kind) return undefined;
  return waiting.rerun as Extract<Rerun, { kind: K }>;
}

/** Marks the waiting request as taken by its form. */
export function takeEdit(): void {
  editRequest.value = null;
}
