/** The problems of a render-tool input: where (a JSON pointer), what (code and sentence), repaired. */
import type { SurfaceProblem } from "../../wire/genui.ts";

/** At most this many problems are listed (a very large input can have thousands). */
const SHOWN_PROBLEMS = 200;

/** The props of {@link ProblemList}. */
export interface ProblemListProps {
  problems: SurfaceProblem[];
  /** Say nothing when there is no problem (component previews). */
  compact?: boolean;
}

/** A list of problems, repaired ones marked; "No problems." when there is none. */
export function ProblemList({ problems, compact }: ProblemListProps) {
  if (problems.length === 0) {
    return compact ? null : <p class="note a2ui-no-problems">No problems.</p>;
  }
  const open = problems.filter((problem) => !problem.repaired).length;
  return (
    <ul
      class="a2ui-problems"
      aria-label={`${problems.length} problem${
        problems.length === 1 ? "" : "s"
      }, ${open} not repaired`}
    >
      {problems.slice(0, SHOWN_PROBLEMS).map((problem, i) => (
        <li key={i} class={problem.repaired ? "repaired" : "open"}>
          <code class="a2ui-problem-path">{problem.path || "/"}</code>{" "}
          <span class="a2ui-problem-code">{problem.code}</span>{" "}
          <span class="a2ui-problem-message">{problem.message}</span>
          {problem.repaired ? <span class="badge badge-ok">repaired</span> : null}
        </li>
      ))}
      {problems.length > SHOWN_PROBLEMS
        ? <li class="open">…and {problems.length - SHOWN_PROBLEMS} more not listed.</li>
        : null}
    </ul>
  );
}
