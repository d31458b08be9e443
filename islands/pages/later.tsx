/**
 * Pages of the web UI that this build does not have yet (settings, events, inspector). Loaded on
 * demand, like every page besides the chat.
 */
import { onLink } from "../sidebar.tsx";

const TITLES: [RegExp, string][] = [
  [/^\/settings/, "Settings"],
  [/^\/events/, "Events"],
  [/^\/inspector/, "Tool server inspector"],
];

/** The placeholder of a page to come. */
export default function Later({ path }: { path: string }) {
  const title = TITLES.find(([pattern]) => pattern.test(path))?.[1] ?? "Not found";
  return (
    <section class="later">
      <h1>{title}</h1>
      <p>
        This page is not part of this build of the web UI yet. The JSON API behind it works: see the
        README's API table.
      </p>
      <p>
        <a href="/" onClick={(event) => onLink(event, "/")}>Back to the chat</a>
      </p>
    </section>
  );
}
