/** JUnit XML reports (the format CI systems read test results from), for `lass check` and `lass eval`. */

/** One test case: passed unless it has a failure or an error. */
export interface JUnitCase {
  name: string;
  /** The group the case belongs to (CI systems show it as the class). */
  className: string;
  /** How long it took, in milliseconds. */
  timeMs?: number;
  /** An expectation that did not hold: a one-line message and an optional longer text. */
  failure?: { message: string; text?: string };
  /** The case could not run at all. */
  error?: { message: string; text?: string };
  /** The case was left out on purpose, and why. */
  skipped?: { message: string };
  /** Extra output shown beside the case. */
  systemOut?: string;
}

/** A named group of cases (`<testsuite>`). */
export interface JUnitSuite {
  name: string;
  cases: JUnitCase[];
}

/** Characters XML 1.0 does not allow at all (control characters other than tab, LF, CR). */
// deno-lint-ignore no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Escapes text for an XML attribute or element, dropping characters XML cannot hold. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;")
    .replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}

/** Seconds with three decimals, as JUnit's `time` attribute has them. */
function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

function caseXml(testCase: JUnitCase): string {
  const attributes = `name="${escapeXml(testCase.name)}" classname="${
    escapeXml(testCase.className)
  }" time="${seconds(testCase.timeMs)}"`;
  const inner: string[] = [];
  if (testCase.skipped) {
    inner.push(`      <skipped message="${escapeXml(testCase.skipped.message)}"/>`);
  }
  for (const kind of ["failure", "error"] as const) {
    const problem = testCase[kind];
    if (!problem) continue;
    inner.push(
      `      <${kind} message="${escapeXml(problem.message)}">${
        escapeXml(problem.text ?? problem.message)
      }</${kind}>`,
    );
  }
  if (testCase.systemOut) {
    inner.push(`      <system-out>${escapeXml(testCase.systemOut)}</system-out>`);
  }
  return inner.length === 0
    ? `    <testcase ${attributes}/>`
    : `    <testcase ${attributes}>\n${inner.join("\n")}\n    </testcase>`;
}

function count(cases: JUnitCase[], kind: "failure" | "error" | "skipped"): number {
  return cases.filter((testCase) => testCase[kind] !== undefined).length;
}

/** The JUnit XML document of some suites, with the counts and times CI systems read. */
export function junitXml(suites: JUnitSuite[], name = "lass"): string {
  const all = suites.flatMap((suite) => suite.cases);
  const total = (cases: JUnitCase[]) => cases.reduce((sum, c) => sum + (c.timeMs ?? 0), 0);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${escapeXml(name)}" tests="${all.length}" failures="${
      count(all, "failure")
    }" errors="${count(all, "error")}" time="${seconds(total(all))}">`,
  ];
  for (const suite of suites) {
    lines.push(
      `  <testsuite name="${escapeXml(suite.name)}" tests="${suite.cases.length}" failures="${
        count(suite.cases, "failure")
      }" errors="${count(suite.cases, "error")}" skipped="${count(suite.cases, "skipped")}" time="${
        seconds(total(suite.cases))
      }">`,
      ...suite.cases.map(caseXml),
      `  </testsuite>`,
    );
  }
  lines.push(`</testsuites>`, "");
  return lines.join("\n");
}
