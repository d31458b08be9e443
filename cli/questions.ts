/** Questions of a tool server that no one can answer at a command line (`lass record`, `lass verify`). */
import type { Service } from "../core/service.ts";

/**
 * Declines the server's sampling and elicitation questions that wait for a person (there is none
 * at a command line), so no call hangs; the declines are recorded. Returns the stop function.
 */
export function declineQuestions(
  service: Service,
  { serverId, command }: { serverId: string; command: string },
): () => void {
  return service.events.subscribe((event) => {
    if (event.type !== "interaction.created") return;
    const interaction = (event.data as {
      interaction?: { id: string; kind: string; serverId?: string };
    }).interaction;
    if (!interaction || interaction.serverId !== serverId) return;
    const answer = interaction.kind === "sampling"
      ? { approved: false }
      : interaction.kind === "elicitation"
      ? { action: "decline" }
      : undefined;
    if (!answer) return;
    console.error(
      `lass ${command}: declined the server's ${interaction.kind} request (no one to ask)`,
    );
    // After the emit that announced it: the registry is not re-entered from its own event.
    queueMicrotask(() => service.interactions.answer(interaction.id, answer).catch(() => {}));
  });
}
