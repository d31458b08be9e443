/** The Evals page's routes, typed, through the one API client. */
import type {
  EvalCaseDraft,
  EvalCaseRequest,
  EvalCaseSaved,
  EvalCaseSaveRequest,
  EvalDiff,
  EvalFileList,
  EvalFileText,
  EvalLine,
  EvalReport,
  EvalReportList,
  EvalReportSummary,
  EvalRunRequest,
} from "../../wire/evals.ts";
import { api } from "../state.ts";

/** The eval files beside the config file. */
export function listEvalFiles(): Promise<EvalFileList> {
  return api().json<EvalFileList>("GET", "/api/evals/files");
}

/** One eval file's text. */
export function readEvalFile(name: string): Promise<EvalFileText> {
  return api().json<EvalFileText>("GET", `/api/evals/files/${encodeURIComponent(name)}`);
}

/** Starts an eval; its progress lines, then the report. Aborting `signal` stops the runs. */
export function runEval(
  body: EvalRunRequest,
  signal: AbortSignal,
): Promise<AsyncGenerator<EvalLine>> {
  return api().postLines<EvalLine>("/api/evals/run", body, signal);
}

/** The kept reports, newest first. */
export async function listEvalReports(): Promise<EvalReportSummary[]> {
  return (await api().json<EvalReportList>("GET", "/api/evals/reports")).reports;
}

/** One kept report. */
export function readEvalReport(id: string): Promise<EvalReport> {
  return api().json<EvalReport>("GET", `/api/evals/reports/${encodeURIComponent(id)}`);
}

/** Two kept reports compared: `id` against `baseline`. */
export function diffEvalReports(id: string, baseline: string): Promise<EvalDiff> {
  return api().json<EvalDiff>(
    "GET",
    `/api/evals/reports/${encodeURIComponent(id)}/diff?baseline=${encodeURIComponent(baseline)}`,
  );
}

/** A case made of a stored chat's turns (not saved). */
export function draftCase(body: EvalCaseRequest): Promise<EvalCaseDraft> {
  return api().json<EvalCaseDraft>("POST", "/api/evals/cases", body);
}

/** Adds a case to an eval file beside the config file, creating the file when it is missing. */
export function saveCase(file: string, body: EvalCaseSaveRequest): Promise<EvalCaseSaved> {
  return api().json<EvalCaseSaved>(
    "POST",
    `/api/evals/files/${encodeURIComponent(file)}/cases`,
    body,
  );
}
