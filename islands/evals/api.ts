/** The Evals page's routes, typed, through the one API client. */
import type {
  EvalCaseDraft,
  EvalCaseRequest,
  EvalCaseSaved,
  EvalCaseSaveRequest,
  EvalFileList,
  EvalFileText,
  EvalLine,
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
