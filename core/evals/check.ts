/**
 * Checking an eval against the config: its schema, its references (workspace, models) and its
 * messages, every problem at once in the order of the document, plus warnings.
 */
import { modelMessageSchema } from "ai";
import { detailsFromIssues } from "../errors.ts";
import { type ErrorDetail } from "../../wire/errors.ts";
import type { Service } from "../service.ts";
import { checkEvalFile, type EvalFile, invalidEval } from "./file.ts";
import { inDocumentOrder, unknownFieldWarnings } from "./fields.ts";
import { defaultWorkspace } from "../config/workspaces.ts";

/** What the check of references reads besides the file. */
export interface ReferenceOptions {
  /** Model profile ids given over the file's `models` (a flag, a request field). */
  models?: string[];
  /** Where the file's fields sit in the input, for problem paths (e.g. `eval`). */
  pathPrefix?: string;
}

/** A record's field, when the value is a record. */
function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * Problems of an eval's references against the config, at their paths. The workspace and model
 * ids are read from `raw` (the file as written, even one that fails its schema); the messages are
 * checked when the file passed it (`file`).
 */
export function referenceProblems(
  service: Service,
  input: { raw: unknown; file?: EvalFile },
  options: ReferenceOptions = {},
): ErrorDetail[] {
  const config = service.config.config;
  const at = (path: string) => [options.pathPrefix, path].filter(Boolean).join(".");
  const problems: ErrorDetail[] = [];
  const hasProfile = (id: string) => config.llms.some((profile) => profile.id === id);
  const workspace = field(input.raw, "workspace");
  if (workspace === undefined || typeof workspace === "string") {
    const workspaceId = workspace ?? defaultWorkspace(config)?.id;
    if (!config.workspaces.some((candidate) => candidate.id === workspaceId)) {
      problems.push({
        path: at("workspace"),
        message: workspace ? `no workspace has id "${workspace}"` : "the config has none",
      });
    }
  }
  const fileModels = field(input.raw, "models");
  const models: unknown[] = options.models ?? (Array.isArray(fileModels) ? fileModels : []);
  const modelsPath = options.models ? "models" : at("models");
  models.forEach((id, index) => {
    if (typeof id !== "string" || id === "") return;
    if (!config.llms.some((profile) => profile.id === id)) {
      problems.push({ path: `${modelsPath}.${index}`, message: `no model profile has id "${id}"` });
    }
  });
  const judge = field(input.raw, "judge");
  if (typeof judge === "string" && judge !== "" && !hasProfile(judge)) {
    problems.push({ path: at("judge"), message: `no model profile has id "${judge}"` });
  }
  input.file?.cases.forEach((testCase, caseIndex) => {
    const turns = testCase.turns?.map((turn, index) => ({ turn, path: `turns.${index}.` })) ??
      [{ turn: testCase, path: "" }];
    for (const { turn, path } of turns) {
      const where = at(`cases.${caseIndex}.${path}`);
      turn.messages?.forEach((message, index) => {
        const parsed = modelMessageSchema.safeParse(message);
        if (!parsed.success) {
          problems.push(...detailsFromIssues(parsed.error.issues, `${where}messages.${index}`));
        }
      });
      const spec = turn.expect.judge;
      if (spec?.llmId !== undefined && !hasProfile(spec.llmId)) {
        problems.push({
          path: `${where}expect.judge.llmId`,
          message: `no model profile has id "${spec.llmId}"`,
        });
      } else if (
        spec && spec.llmId === undefined && judge === undefined && config.llms.length === 0
      ) {
        problems.push({
          path: `${where}expect.judge`,
          message: "no model profile to judge with: the config has none",
        });
      }
    }
  });
  return problems;
}

/** A checked eval and the warnings about it. */
export interface CheckedEval {
  file: EvalFile;
  /** Extra fields that look like misspelt known ones, at their paths; nothing fails for them. */
  warnings: ErrorDetail[];
}

/**
 * Checks an eval given as a value (the file as parsed from YAML or JSON) against its schema and
 * the config: 400 `invalid-request` with every problem, schema and references together, sorted
 * in the order of the document.
 */
export function checkEval(
  service: Service,
  raw: unknown,
  options: ReferenceOptions = {},
): CheckedEval {
  const prefix = options.pathPrefix ?? "";
  const { file, problems } = checkEvalFile(raw, prefix);
  const all = [...problems, ...referenceProblems(service, { raw, file }, options)];
  if (!file || all.length > 0) {
    throw invalidEval(inDocumentOrder(all, { document: raw, prefix }));
  }
  return { file, warnings: unknownFieldWarnings(raw, prefix) };
}
