/**
 * The stderr pane of a stdio server: the lines Lass kept (`GET /api/mcp/:id/log`, the last 200),
 * then new ones live from its `mcp.log` events. Past 50 lines a second the events hold lines back
 * and say how many; the kept lines still have them ("Reload the kept lines").
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { plural } from "../../wire/words.ts";
import { clock } from "../events/row.tsx";
import { api, describeError, subscribe } from "../state.ts";

/** One line of the pane: a stderr line, or a note that lines were held back. */
interface PaneLine {
  key: number;
  at: string;
  text: string;
  heldBack?: number;
}

/** The most lines the pane keeps. */
const MAX_LINES = 1000;

let keys = 0;

/** The stderr lines of server `serverId`, kept and live. */
export function StderrPane({ serverId }: { serverId: string }) {
  const lines = useSignal<PaneLine[]>([]);
  const problem = useSignal<string | null>(null);
  const loaded = useSignal(0);
  const list = useRef<HTMLOListElement>(null);
  const add = (line: PaneLine) => {
    const next = [...lines.peek(), line];
    lines.value = next.length > MAX_LINES ? next.slice(-MAX_LINES) : next;
  };
  useEffect(() => {
    let ready = false;
    const stop = subscribe((event) => {
      if (!ready || event.type !== "mcp.log" || event.data.serverId !== serverId) return;
      const dropped = event.data.dropped;
      if (typeof dropped === "number") {
        add({ key: ++keys, at: event.time, text: "", heldBack: dropped });
      } else if (event.data.level === "stderr") {
        add({ key: ++keys, at: event.time, text: String(event.data.message ?? "") });
      }
    });
    problem.value = null;
    api().json<{ lines: { at: string; level: string; message: string }[] }>(
      "GET",
      `/api/mcp/${encodeURIComponent(serverId)}/log`,
    ).then((answer) => {
      lines.value = answer.lines.filter((line) => line.level === "stderr")
        .map((line) => ({ key: ++keys, at: line.at, text: line.message }));
      ready = true;
    }).catch((error) => problem.value = `Cannot read the kept lines: ${describeError(error)}`);
    return stop;
  }, [serverId, loaded.value]);
  // New lines keep the list at its end.
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [lines.value]);
  const shown = lines.value;
  return (
    <div class="stderr-pane">
      <div class="activity-bar">
        <span class="hint">
          {plural(shown.filter((line) => line.heldBack === undefined).length, "line")}{" "}
          of stderr (the server's own output; secrets taken out)
        </span>
        <button type="button" onClick={() => loaded.value++}>Reload the kept lines</button>
        <button type="button" onClick={() => lines.value = []}>Clear</button>
      </div>
      {problem.value ? <p class="error" role="alert">{problem.value}</p> : null}
      {shown.length === 0
        ? <p class="hint">Nothing on stderr yet.</p>
        : (
          <ol ref={list} class="stderr-lines" aria-label="stderr lines, oldest first">
            {shown.map((line) =>
              line.heldBack === undefined
                ? (
                  <li key={line.key}>
                    <time dateTime={line.at}>{clock(line.at)}</time> <code>{line.text}</code>
                  </li>
                )
                : (
                  <li key={line.key} class="held-back" role="status">
                    <time dateTime={line.at}>{clock(line.at)}</time> {plural(line.heldBack, "line")}
                    {" "}
                    held back (over 50 a second): Reload the kept lines to see the last 200
                  </li>
                )
            )}
          </ol>
        )}
    </div>
  );
}
