/**
 * The kept eval reports: every finished run's report as one JSON file in
 * `<data dir>/evals/reports/`, named by its id (which sorts by time), the newest 100 kept.
 */
import { join } from "node:path";
import { LassError } from "../errors.ts";
import { type FileSystem, writeFileAtomic } from "../files.ts";
import type { EvalReport, EvalReportSummary } from "../../wire/evals.ts";

/** How many reports are kept; a new one beyond it removes the oldest. */
export const KEPT_REPORTS = 100;

/** A report id: `<UTC time, compact>-<6 hex>`, e.g. `20261128T131522123Z-1a2b3c`. */
const REPORT_ID = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;

/** A report as kept: with its id and the time it was kept. */
export type KeptReport = EvalReport & { id: string; createdAt: string };

/** A new report id for a time: sorting ids sorts by time. */
function newReportId(now: Date): string {
  const compact = now.toISOString().replace(/[-:.]/g, "");
  return `${compact}-${crypto.randomUUID().replace(/-/g, "").slice(0, 6)}`;
}

/** The summary of a kept report, as the list shows it. */
function summaryOf(report: KeptReport): EvalReportSummary {
  return {
    id: report.id,
    createdAt: report.createdAt,
    ...(report.file !== undefined && { file: report.file }),
    workspace: report.workspace,
    models: report.models,
    cases: report.cases.length,
    runs: report.runs,
    passed: report.passed,
    passRate: report.passRate,
    tokens: report.tokens,
    durationMs: report.durationMs,
  };
}

/** The kept reports of one folder. */
export class EvalReportStore {
  /** Summaries by id, read once: a kept report never changes. */
  readonly #summaries = new Map<string, EvalReportSummary>();

  readonly #fs: FileSystem;
  readonly #dir: string;
  readonly #keep: number;

  /** Reports in `dir`; at most `keep` (default {@link KEPT_REPORTS}) are kept. */
  constructor(fs: FileSystem, dir: string, keep = KEPT_REPORTS) {
    this.#fs = fs;
    this.#dir = dir;
    this.#keep = keep;
  }

  /** Keeps a report (atomically, readable by the user only) and prunes the oldest; the kept report. */
  async save(report: EvalReport, now = new Date()): Promise<KeptReport> {
    const kept: KeptReport = { ...report, id: newReportId(now), createdAt: now.toISOString() };
    delete kept.keepError;
    await writeFileAtomic(this.#fs, this.#path(kept.id), JSON.stringify(kept, null, 2) + "\n", {
      mode: 0o600,
      dirMode: 0o700,
    });
    this.#summaries.set(kept.id, summaryOf(kept));
    await this.#prune();
    return kept;
  }

  /** The kept reports' summaries, newest first; a file that cannot be read is left out. */
  async list(): Promise<EvalReportSummary[]> {
    const summaries: EvalReportSummary[] = [];
    for (const id of (await this.#ids()).reverse()) {
      let summary = this.#summaries.get(id);
      if (!summary) {
        const report = await this.read(id).catch(() => undefined);
        if (!report) continue;
        summary = summaryOf(report);
        this.#summaries.set(id, summary);
      }
      summaries.push(summary);
    }
    return summaries;
  }

  /** One kept report; 404 `not-found` for an unknown (or malformed) id or a damaged file. */
  async read(id: string): Promise<KeptReport> {
    const missing = () =>
      new LassError("not-found", `no kept eval report has id ${JSON.stringify(id.slice(0, 200))}`);
    if (!REPORT_ID.test(id)) throw missing();
    const text = await this.#fs.readText(this.#path(id));
    if (text === undefined) throw missing();
    let report: KeptReport;
    try {
      report = JSON.parse(text);
    } catch {
      throw new LassError("not-found", `the kept eval report ${id} is damaged (not JSON)`);
    }
    if (typeof report !== "object" || report === null || !Array.isArray(report.cases)) {
      throw new LassError("not-found", `the kept eval report ${id} is damaged (no cases)`);
    }
    return { ...report, id, createdAt: report.createdAt ?? "" };
  }

  /** The ids of the kept reports, oldest first. */
  async #ids(): Promise<string[]> {
    const names = await this.#fs.list(this.#dir);
    return names.filter((name) => name.endsWith(".json")).map((name) => name.slice(0, -5))
      .filter((id) => REPORT_ID.test(id)).sort();
  }

  /** Removes the oldest reports beyond the number to keep. */
  async #prune(): Promise<void> {
    const ids = await this.#ids();
    for (const id of ids.slice(0, Math.max(0, ids.length - this.#keep))) {
      await this.#fs.remove(this.#path(id)).catch(() => false);
      this.#summaries.delete(id);
    }
  }

  #path(id: string): string {
    return join(this.#dir, `${id}.json`);
  }
}
