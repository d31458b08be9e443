/**
 * The eval file (`*.eval.yaml` or `.json`): a workspace, model profiles and cases, each a prompt and
 * what the turn must do. The zod schema is the single source of the type, the checks with their
 * paths and the JSON Schema in `schema/eval.schema.json`.
 */
import { type Document, parseDocument } from "yaml";
import { z } from "zod";
import { detailsFromIssues, LassError } from "../errors.ts";
import { type ErrorDetail } from "../../wire/errors.ts";

/** Whether a string compiles as a JavaScript regular expression. */
function isRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const Regex = z.string().refine(isRegex, { message: "is not a valid regular expression" });

const Strings = z.array(z.string().min(1, { message: "must not be empty" }));

/** A tool the turn must call. */
const CallSchema = z.strictObject({
  tool: z.string().min(1).meta({
    description: "The tool's model name, `<serverId>__<tool>` (e.g. `demo__add`)",
  }),
  args: z.record(z.string(), z.unknown()).optional().meta({
    description: "Arguments the call must have: a subset match (deep equality per given field)",
  }),
  argsMatch: z.record(z.string(), Regex).optional().meta({
    description:
      "Regular expressions per argument, tested against the value (numbers and booleans as " +
      "written, objects as JSON)",
  }),
});

/** What the turn's answer text must (not) hold. */
const TextSchema = z.strictObject({
  contains: Strings.optional().meta({ description: "Substrings the answer must contain" }),
  notContains: Strings.optional().meta({ description: "Substrings the answer must not contain" }),
  regex: Regex.optional().meta({ description: "A regular expression the answer must match" }),
});

/** A judged expectation: a judge model scores the turn from 0 to 1 against a rubric. */
const JudgeSchema = z.strictObject({
  rubric: z.string().trim().min(1, { message: "must not be empty" }).meta({
    description: "What a good answer does, in words; the judge scores the turn against it",
  }),
  llmId: z.string().min(1).optional().meta({
    description: "The judge's model profile id; default the file's `judge`, else the " +
      "workspace's model",
  }),
  threshold: z.number().min(0).max(1).default(0.7).meta({
    description: "The lowest score (0 to 1) that passes",
  }),
  gate: z.boolean().default(true).meta({
    description: "`false`: advisory, the score is reported but never fails the run",
  }),
}).meta({ description: "Ask a judge model to score the turn against a rubric" });

/** Every expectation of a case; a misspelt one is an error rather than a check that never fails. */
const ExpectSchema = z.strictObject({
  calls: z.array(CallSchema).optional().meta({ description: "Tool calls the turn must make" }),
  notCalled: Strings.optional().meta({ description: "Model tool names the turn must not call" }),
  ordered: z.boolean().default(false).meta({
    description: "`true`: the `calls` must happen in this order (others may come between)",
  }),
  text: TextSchema.optional(),
  maxSteps: z.int().min(1).optional().meta({ description: "At most this many model steps" }),
  maxTokens: z.int().min(1).optional().meta({
    description: "At most this many tokens over the whole turn (input + output)",
  }),
  judge: JudgeSchema.optional(),
});

/** A message as the chat body takes it; its content is checked against the AI SDK's schema. */
const MessageSchema = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.unknown(),
});

/** One turn of a multi-turn case: its prompt (or messages) and what that turn must do. */
const TurnSchema = z.strictObject({
  prompt: z.string().min(1).optional().meta({ description: "The user message of the turn" }),
  messages: z.array(MessageSchema).min(1).optional().meta({
    description: "Model messages appended to the conversation instead of `prompt`",
  }),
  expect: ExpectSchema.default({ ordered: false }),
});

/**
 * One case: a prompt (or messages) and what the turn must do, or `turns` run as one conversation.
 * Extra fields are kept.
 */
const CaseSchema = z.looseObject({
  name: z.string().min(1, { message: "must not be empty" }).meta({
    description: "Unique within the file; the report's key with the model",
  }),
  prompt: z.string().min(1).optional().meta({ description: "The user message of the turn" }),
  messages: z.array(MessageSchema).min(1).optional().meta({
    description: "Model messages instead of `prompt` (a conversation so far)",
  }),
  turns: z.array(TurnSchema).min(1).optional().meta({
    description: "Turns run one after the other as one conversation (tool results carried " +
      "on), each checked against its own `expect`; instead of `prompt` or `messages`",
  }),
  expect: ExpectSchema.default({ ordered: false }),
});

/** A whole eval file. Extra top-level fields are kept. */
export const EvalFileSchema = z.looseObject({
  $schema: z.string().optional(),
  workspace: z.string().min(1).optional().meta({
    description: "The workspace id; default the active workspace",
  }),
  models: z.array(z.string().min(1)).min(1).optional().meta({
    description: "Model profile ids; default the workspace's model. `--model` overrides",
  }),
  judge: z.string().min(1).optional().meta({
    description: "The model profile id that scores `expect.judge` when the expectation names " +
      "none; default the workspace's model",
  }),
  cases: z.array(CaseSchema).min(1, { message: "needs at least one case" }),
});

/** A checked eval file. */
export type EvalFile = z.output<typeof EvalFileSchema>;
/** One checked case. */
export type EvalCase = EvalFile["cases"][number];
/** The expectations of a case. */
export type EvalExpect = EvalCase["expect"];
/** One turn of a case: its messages (or prompt) and what it must do. */
export type EvalTurn = NonNullable<EvalCase["turns"]>[number];

/** The turns of a case: its `turns`, or the case itself as its one turn. */
export function caseTurns(testCase: EvalCase): EvalTurn[] {
  if (testCase.turns) return testCase.turns;
  return [{
    ...(testCase.prompt !== undefined && { prompt: testCase.prompt }),
    ...(testCase.messages !== undefined && { messages: testCase.messages }),
    expect: testCase.expect,
  }];
}

/** The eval file's JSON Schema, for editors (`schema/eval.schema.json`). */
export function evalJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(EvalFileSchema, { io: "input", unrepresentable: "any" }),
    title: "Lass eval file",
  };
}

/** The error of an invalid eval: 400 `invalid-request`, every problem at its dotted path. */
export function invalidEval(details: ErrorDetail[]): LassError {
  const first = details[0];
  return new LassError(
    "invalid-request",
    `the eval is invalid: ${first.path || "(top level)"}: ${first.message}` +
      (details.length > 1 ? ` (and ${details.length - 1} more)` : ""),
    details,
  );
}

/** A record's field, when the value is a record. */
function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The problem of a case or turn without exactly one of its message fields, or undefined. */
function messageProblem(value: unknown, fields: string[]): string | undefined {
  const given = fields.filter((key) => field(value, key) !== undefined);
  if (given.length === 1) return undefined;
  const what = fields.includes("turns") ? "a case" : "a turn";
  const quoted = (keys: string[]) => keys.map((key) => `\`${key}\``);
  if (given.length === 0) {
    const names = quoted(fields);
    return `${what} needs ${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
  }
  return `${what} has ${quoted(given).join(" and ")}: one of them, not ${
    given.length === 2 ? "both" : "all"
  }`;
}

/** The problems of one case's message fields: the case's and each of its turns'. */
function caseMessageProblems(testCase: unknown, index: number) {
  const problems: { path: string; message: string }[] = [];
  const at = `cases.${index}`;
  const problem = messageProblem(testCase, ["prompt", "messages", "turns"]);
  if (problem) problems.push({ path: `${at}.prompt`, message: problem });
  const turns = field(testCase, "turns");
  if (turns === undefined) return problems;
  if (field(testCase, "expect") !== undefined) {
    problems.push({
      path: `${at}.expect`,
      message: "a case with `turns` puts each `expect` in its turn",
    });
  }
  if (!Array.isArray(turns)) return problems;
  turns.forEach((turn, t) => {
    const missing = messageProblem(turn, ["prompt", "messages"]);
    if (missing) problems.push({ path: `${at}.turns.${t}.prompt`, message: missing });
  });
  return problems;
}

/**
 * The rules across fields, checked on the raw value so they are reported beside every schema
 * problem: a case has one of `prompt`, `messages` or `turns` (each turn `prompt` or `messages`),
 * and case names are unique.
 */
function crossFieldProblems(value: unknown): { path: string; message: string }[] {
  const cases = field(value, "cases");
  if (!Array.isArray(cases)) return [];
  const problems: { path: string; message: string }[] = [];
  const seen = new Map<unknown, number>();
  cases.forEach((testCase, index) => {
    problems.push(...caseMessageProblems(testCase, index));
    const name = field(testCase, "name");
    if (typeof name !== "string") return;
    const first = seen.get(name);
    if (first === undefined) seen.set(name, index);
    else {
      problems.push({
        path: `cases.${index}.name`,
        message: `duplicate name "${name}" (first used at cases.${first})`,
      });
    }
  });
  return problems;
}

/** An eval value checked against the schema and the rules across fields. */
export interface EvalFileCheck {
  /** The checked file, when there is no problem. */
  file?: EvalFile;
  /** Every problem at its dotted path (under `prefix`), in the order found. */
  problems: ErrorDetail[];
}

/** Checks an eval given as a value without throwing; `prefix` puts its paths under a field. */
export function checkEvalFile(value: unknown, prefix = ""): EvalFileCheck {
  const parsed = EvalFileSchema.safeParse(value);
  const cross = crossFieldProblems(value);
  if (parsed.success && cross.length === 0) return { file: parsed.data, problems: [] };
  const issues = [
    ...(parsed.error?.issues ?? []),
    ...cross.map((problem) => ({
      path: problem.path.split(".").map((part) => /^\d+$/.test(part) ? Number(part) : part),
      message: problem.message,
    })),
  ];
  return { problems: detailsFromIssues(issues, prefix) };
}

/** Checks an eval given as a value; `prefix` puts its paths under a field (e.g. `eval`). */
export function parseEval(value: unknown, prefix = ""): EvalFile {
  const { file, problems } = checkEvalFile(value, prefix);
  if (file) return file;
  throw invalidEval(problems);
}

/** The fields of the file's top level and of a case, for the warnings about misspelt ones. */
export const KNOWN_FIELDS = {
  file: Object.keys(EvalFileSchema.shape),
  case: Object.keys(CaseSchema.shape),
};

/**
 * The YAML document of a text; its first syntax error is 400 `invalid-request` with its line, at
 * `path` (the text's place in the input, if any).
 */
export function parseYaml(text: string, path = ""): Document.Parsed {
  const doc = parseDocument(text);
  const first = doc.errors[0];
  if (first) {
    const line = first.linePos?.[0].line;
    // The message's first line, without the position and the excerpt that follow it.
    const message = first.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw invalidEval([{
      path,
      message: `not valid YAML${line ? ` (line ${line})` : ""}: ${message}`,
    }]);
  }
  return doc;
}

/** The value of a parsed YAML document; an alias that cannot be resolved is 400 at `path`. */
export function yamlValue(doc: Document.Parsed, path = ""): unknown {
  try {
    return doc.toJS();
  } catch (error) {
    throw invalidEval([{ path, message: `not valid YAML: ${(error as Error).message}` }]);
  }
}

/**
 * Reads an eval file's text: JSON when `name` ends in `.json`, else YAML. A syntax error is
 * 400 `invalid-request` with its line, at `path` (the text's place in the input, if any).
 */
export function readEvalText(text: string, name: string, path = ""): unknown {
  if (name.toLowerCase().endsWith(".json")) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw invalidEval([{ path, message: `not valid JSON: ${(error as Error).message}` }]);
    }
  }
  return yamlValue(parseYaml(text, path), path);
}
