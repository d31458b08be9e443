/**
 * `lass eval --merge`: shard reports read from files, checked to be the shards of one plan (each
 * once, none missing), and joined into the report a single run gives.
 */
import { z } from "zod";
import { detailsFromIssues, LassError } from "../errors.ts";
import type { EvalCaseReport, EvalReport, EvalShard } from "../../wire/evals.ts";
import { rate, totals } from "./report.ts";
import { addCost, noCost } from "../../wire/usage.ts";
import { sliceBounds } from "./shard.ts";

/** The shape a report file must have to be merged (extra fields are allowed). */
const ReportFileSchema = z.looseObject({
  workspace: z.string(),
  models: z.array(z.string()),
  cases: z.array(z.looseObject({
    name: z.string(),
    model: z.string(),
    runs: z.int().min(0),
    passed: z.int().min(0),
    tokens: z.number().min(0),
    // Reports of an older Lass have no cost.
    cost: z.looseObject({
      usd: z.number().min(0),
      unpriced: z.int().min(0),
      costUnknown: z.string().optional(),
    }).optional(),
    durationMs: z.number().min(0),
    failures: z.array(z.looseObject({ run: z.int().min(1), reason: z.string() })),
  })),
  runs: z.int().min(0),
  // The plan's fields are optional here so that a report without them is refused by name.
  shard: z.looseObject({
    index: z.int().min(1),
    count: z.int().min(1),
    evalHash: z.string().optional(),
    models: z.array(z.string()).optional(),
    repeat: z.int().min(1).optional(),
    totalRuns: z.int().min(0).optional(),
  }).optional(),
});

/** Checks that a value (a parsed `--json` file) is a report; `label` names it in the paths. */
export function parseReport(value: unknown, label: string): EvalReport {
  const parsed = ReportFileSchema.safeParse(value);
  if (parsed.success) return parsed.data as unknown as EvalReport;
  const details = detailsFromIssues(parsed.error.issues, label);
  throw new LassError(
    "invalid-request",
    `${label} is not an eval report: ${details[0].path}: ${details[0].message}`,
    details,
  );
}

/** `1 run`, `3 runs`. */
function runs(count: number): string {
  return `${count} run${count === 1 ? "" : "s"}`;
}

/** A refusal to merge. */
function refuse(message: string): never {
  throw new LassError("invalid-request", message);
}

/** How a shard's plan differs from the first one's, e.g. `its repeat is 1, not 3`. */
function planDifferences(a: EvalReport, b: EvalReport): string[] {
  const [x, y] = [a.shard!, b.shard!];
  const list = (models: string[]) => models.join(", ");
  return [
    x.evalHash !== y.evalHash && "it comes from another eval file (or another version of it)",
    a.workspace !== b.workspace && `its workspace is ${a.workspace}, not ${b.workspace}`,
    list(x.models) !== list(y.models) && `its models are ${list(x.models)}, not ${list(y.models)}`,
    x.repeat !== y.repeat && `its repeat is ${x.repeat}, not ${y.repeat}`,
    x.count !== y.count && `it is one of ${x.count} shards, not ${y.count}`,
    x.totalRuns !== y.totalRuns && `its plan has ${runs(x.totalRuns)}, not ${y.totalRuns}`,
  ].filter((difference): difference is string => typeof difference === "string");
}

/**
 * Refuses reports that do not add up to one whole eval: a report that is no shard (unless it is
 * the only one), shards of different plans (eval file, workspace, models, repeat, count), a
 * shard given twice, a shard missing, or a shard holding other than its slice's runs.
 */
function checkShards(reports: EvalReport[], names: string[]): void {
  if (reports.length === 1 && !reports[0].shard) return;
  reports.forEach((report, i) => {
    if (!report.shard) {
      refuse(
        `${names[i]} is not a shard report (it has no "shard"): --merge joins the reports ` +
          "of lass eval --shard i/n, each shard once",
      );
    }
    const shard: Partial<EvalShard> = report.shard;
    if (!shard.evalHash || !shard.models || !shard.repeat || shard.totalRuns === undefined) {
      refuse(`${names[i]} does not record the plan of its shard (an older Lass wrote it)`);
    }
  });
  reports.forEach((report, i) => {
    const differences = planDifferences(report, reports[0]);
    if (differences.length > 0) {
      refuse(
        `${names[i]} is not a shard of the same eval run as ${names[0]}: ` +
          differences.join("; "),
      );
    }
  });
  const { count, totalRuns } = reports[0].shard!;
  const byIndex = new Map<number, number>();
  reports.forEach((report, i) => {
    const { index } = report.shard!;
    const first = byIndex.get(index);
    if (first !== undefined) {
      refuse(`shard ${index}/${count} is given twice: ${names[first]} and ${names[i]}`);
    }
    byIndex.set(index, i);
    const [from, to] = sliceBounds(totalRuns, { index, count });
    if (report.runs !== to - from) {
      refuse(
        `${names[i]} holds ${runs(report.runs)}, but shard ${index}/${count} of ` +
          `${runs(totalRuns)} has ${to - from}`,
      );
    }
  });
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    refuse(`shard ${missing.map((i) => `${i}/${count}`).join(", ")} is missing`);
  }
}

/**
 * Joins the shard reports of one eval run (each with its `shard`) into one: per case and model
 * the runs, passes, tokens, cost, time and failures add up; the order is that of shard 1, 2, ...
 * `names` (e.g. the files) name the reports in refusals. A lone whole report (no `shard`) is
 * accepted too: its numbers come out the same.
 */
export function mergeReports(reports: EvalReport[], names?: string[]): EvalReport {
  if (reports.length === 0) throw new LassError("invalid-request", "no reports to merge");
  checkShards(reports, names ?? reports.map((_, i) => `report ${i + 1}`));
  const sorted = [...reports].sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
  const byKey = new Map<string, EvalCaseReport>();
  for (const report of sorted) {
    for (const entry of report.cases) {
      const key = `${entry.name}\n${entry.model}`;
      const merged = byKey.get(key);
      if (!merged) {
        byKey.set(key, {
          ...entry,
          cost: addCost(noCost(), entry.cost ?? noCost()),
          failures: [...entry.failures],
          ...(entry.judgements && { judgements: [...entry.judgements] }),
        });
        continue;
      }
      merged.runs += entry.runs;
      merged.passed += entry.passed;
      merged.tokens += entry.tokens;
      if (entry.cost) addCost(merged.cost!, entry.cost);
      merged.durationMs += entry.durationMs;
      merged.failures.push(...entry.failures);
      if (entry.judgements?.length) {
        merged.judgements = [...merged.judgements ?? [], ...entry.judgements];
      }
    }
  }
  const cases = [...byKey.values()];
  for (const entry of cases) {
    entry.passRate = rate(entry.passed, entry.runs);
    entry.failures.sort((a, b) => a.run - b.run);
    entry.judgements?.sort((a, b) => a.run - b.run || (a.turn ?? 0) - (b.turn ?? 0));
  }
  const models = [...new Set(sorted.flatMap((report) => report.models))];
  return { workspace: sorted[0].workspace, models, cases, ...totals(cases) };
}
