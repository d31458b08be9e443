/**
 * The demo model as an eval judge: asked for a structured `{score, reasons}` about a prompt with
 * `<rubric>` and `<answer>` sections (as `core/evals/judged.ts` writes it), it scores by a fixed
 * rule instead of by understanding, so judged evals run the same every time with no key:
 *
 * - The rubric's key terms are its quoted phrases ("…", '…' or `…`) when it has any; otherwise
 *   its numbers and its words of four or more letters, without common filler words
 *   ({@link FILLER_WORDS}), each once.
 * - A term is found when the answer holds it, case-insensitively, as a whole word (or phrase).
 * - The score is the share of terms found, rounded to two decimals (0 when there are none), and
 *   the reasons name each term found or missing.
 */

/** Words a rubric uses to talk about answers, which say nothing about a good one. */
const FILLER_WORDS = new Set(
  ("about also answer answers assistant before after does doing done each every from give " +
    "gives given have into just like make makes mention mentions more most must only reply " +
    "response said says should some tell tells than that their them then there these they " +
    "this those turn user very what when where which while will with without would could")
    .split(" "),
);

/** The text between `<tag>` and the last `</tag>`, or undefined. */
function section(message: string, tag: string): string | undefined {
  const start = message.indexOf(`<${tag}>`);
  const end = message.lastIndexOf(`</${tag}>`);
  if (start === -1 || end < start) return undefined;
  return message.slice(start + tag.length + 2, end).trim();
}

/** The rubric's key terms by the rule above, lower-cased, in the order written. */
export function rubricTerms(rubric: string): string[] {
  const quoted = [
    ...rubric.matchAll(/"([^"\n]+)"|“([^”\n]+)”|`([^`\n]+)`|(?<!\p{L})'([^'\n]+)'(?!\p{L})/gu),
  ]
    .map((match) => (match[1] ?? match[2] ?? match[3] ?? match[4]).trim().toLowerCase())
    .filter((term) => term !== "");
  if (quoted.length > 0) return [...new Set(quoted)];
  const words = (rubric.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) =>
    /^\p{N}+$/u.test(word) || (word.length >= 4 && !FILLER_WORDS.has(word))
  );
  return [...new Set(words)];
}

/** Whether `text` holds `term` as a whole word or phrase, case-insensitively. */
function holds(text: string, term: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "iu").test(text);
}

/** The demo judge's verdict on an answer against a rubric. */
export function demoJudgement(
  rubric: string,
  answer: string,
): { score: number; reasons: string[] } {
  const terms = rubricTerms(rubric);
  if (terms.length === 0) {
    return { score: 0, reasons: ["the rubric has no key words to look for in the answer"] };
  }
  const found = terms.filter((term) => holds(answer, term));
  const score = Math.round((found.length / terms.length) * 100) / 100;
  return {
    score,
    reasons: [
      `${found.length} of ${terms.length} key terms of the rubric are in the answer`,
      ...terms.map((term) => `${found.includes(term) ? "found" : "missing"} "${term}"`),
    ],
  };
}

/**
 * The demo judge's JSON answer when the message is a judge's prompt (it has `<rubric>` and
 * `<answer>`) and the response schema asks for a `score`; otherwise undefined.
 */
export function judgeAnswer(message: string, schema: unknown): string | undefined {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!properties || !("score" in properties)) return undefined;
  const rubric = section(message, "rubric");
  const answer = section(message, "answer");
  if (rubric === undefined || answer === undefined) return undefined;
  return JSON.stringify(demoJudgement(rubric, answer));
}
