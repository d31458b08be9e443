/** Links into the events page, filtered: the events of one chat run. */
import { onLink } from "../sidebar.tsx";

/** The events page filtered by a run: `/events?run=<runId>`. */
export function eventsOfRunPath(runId: string): string {
  return `/events?run=${encodeURIComponent(runId)}`;
}

/** "Events of this turn": opens the events page with only this run's events. */
export function RunEventsLink({ runId }: { runId: string }) {
  const path = eventsOfRunPath(runId);
  return (
    <a
      class="run-events-link"
      href={path}
      title={`Open the events page filtered by run ${runId}`}
      onClick={(event) => onLink(event, path)}
    >
      Events of this turn
    </a>
  );
}
