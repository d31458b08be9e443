/**
 * Eval file texts with a case added: a YAML file through the `yaml` Document API, so its comments,
 * layout and other content stay as written; a JSON file as data. No file access here.
 */
import { Document, isMap, isScalar, isSeq, type Node, visit, YAMLMap, YAMLSeq } from "yaml";
import { invalidEval, parseYaml, yamlValue } from "./file.ts";

/** How Lass writes YAML: no folded lines. */
const YAML_OUTPUT = { lineWidth: 0 } as const;

/** Flow maps of arguments up to this many characters as JSON: `args: { a: 2, b: 3 }`. */
const FLOW_ARGS_LENGTH = 60;

/** A case to add: its value, and its YAML node (with the comments it was given). */
export interface CaseEntry {
  value: Record<string, unknown>;
  node: Node;
}

/** The settings of a new eval file. */
export interface FileSettings {
  workspace?: string;
  models?: string[];
}

/** Writes short argument maps of scalars on one line, as the examples do. */
function flowShortArgs(doc: Document): void {
  visit(doc, {
    Pair(_, pair) {
      if (!isScalar(pair.key) || pair.key.value !== "args" || !isMap(pair.value)) return;
      const scalars = pair.value.items.every((item) => isScalar(item.value));
      const short = JSON.stringify(pair.value.toJSON()).length <= FLOW_ARGS_LENGTH;
      if (scalars && short) pair.value.flow = true;
    },
  });
}

/** The YAML text of a case, with `comment` (one line) above it. */
export function caseYaml(testCase: object, comment?: string): string {
  const doc = new Document(testCase);
  flowShortArgs(doc);
  if (comment && doc.contents) doc.contents.commentBefore = comment;
  return doc.toString(YAML_OUTPUT);
}

/**
 * A case given as an object or as YAML text (a mapping; the comments above it stay with it).
 * Not YAML, or not a mapping, is 400 `invalid-request` at `path`.
 */
export function caseEntry(input: string | Record<string, unknown>, path = "case"): CaseEntry {
  if (typeof input !== "string") {
    const doc = new Document(input);
    flowShortArgs(doc);
    return { value: input, node: doc.contents as Node };
  }
  const doc = parseYaml(input, path);
  const value = yamlValue(doc, path);
  if (!isMap(doc.contents)) {
    throw invalidEval([{
      path,
      message: "is not a mapping: a case has a name, a prompt (or messages or turns) and expect",
    }]);
  }
  // A comment at the top belongs to the document, or to the first key when no blank line
  // follows it: it moves to the case, so it stays above the case in the file.
  const map = doc.contents;
  const firstKey = map.items[0]?.key as Node | undefined;
  const lead = [doc.commentBefore, firstKey?.commentBefore].filter(Boolean).join("\n");
  if (firstKey) firstKey.commentBefore = undefined;
  map.commentBefore = lead || undefined;
  map.spaceBefore = true;
  return { value: value as Record<string, unknown>, node: map };
}

/** The entry with another name. */
export function renamed(entry: CaseEntry, name: string): CaseEntry {
  (entry.node as YAMLMap).set("name", name);
  return { value: { ...entry.value, name }, node: entry.node };
}

/** A new `cases` list of one case (with no blank line before it). */
function firstCase(entry: CaseEntry): YAMLSeq {
  entry.node.spaceBefore = false;
  const cases = new YAMLSeq();
  cases.items.push(entry.node);
  return cases;
}

/** Text with each line that is not empty moved right by `column` spaces. */
function indented(text: string, column: number): string {
  const pad = " ".repeat(column);
  return text.split("\n").map((line) => line === "" ? line : pad + line).join("\n");
}

/** Whether a file name is read as JSON (else YAML). */
export function isJsonName(name: string): boolean {
  return name.toLowerCase().endsWith(".json");
}

/** The text and value of a new eval file holding the settings and one case. */
export function newFileText(
  name: string,
  settings: FileSettings,
  entry: CaseEntry,
  header?: string,
): { text: string; value: unknown } {
  const top = {
    ...(settings.workspace && { workspace: settings.workspace }),
    ...(settings.models && { models: settings.models }),
  };
  if (isJsonName(name)) {
    const value = { ...top, cases: [entry.value] };
    return { text: JSON.stringify(value, null, 2) + "\n", value };
  }
  const doc = new Document(top);
  flowShortArgs(doc);
  (doc.contents as YAMLMap).set("cases", firstCase(entry));
  if (header) doc.commentBefore = header;
  return { text: doc.toString(YAML_OUTPUT), value: doc.toJS() };
}

/**
 * An existing eval file's text with the case added at the end of its `cases` (made when it has
 * none). A text that is not JSON or YAML, not a mapping, or whose `cases` is not a list, is 400
 * `invalid-request` at `file`.
 */
export function appendedText(
  name: string,
  text: string,
  entry: CaseEntry,
): { text: string; value: unknown } {
  const notList = () => invalidEval([{ path: "file", message: `${name}: cases is not a list` }]);
  const notMapping = () =>
    invalidEval([{ path: "file", message: `${name} is not a mapping of an eval file` }]);
  if (isJsonName(name)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw invalidEval([{
        path: "file",
        message: `${name} is not valid JSON: ${(error as Error).message}`,
      }]);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw notMapping();
    const file = value as Record<string, unknown>;
    if (file.cases !== undefined && !Array.isArray(file.cases)) throw notList();
    const next = { ...file, cases: [...(file.cases as unknown[] ?? []), entry.value] };
    return { text: JSON.stringify(next, null, 2) + "\n", value: next };
  }
  const doc = parseYaml(text, "file");
  // A file of comments only has no mapping yet: `set` makes one.
  if (doc.contents !== null && !isMap(doc.contents)) throw notMapping();
  const cases = doc.get("cases", true);
  if (cases === undefined || (isScalar(cases) && cases.value === null)) {
    doc.set("cases", firstCase(entry));
  } else if (isSeq(cases) && !cases.flow && cases.range) {
    // A block list gets the case as text after its last item: the rest stays byte for byte.
    const value = yamlValue(doc, "file") as Record<string, unknown>;
    const [start, end] = cases.range;
    const column = start - (text.lastIndexOf("\n", start - 1) + 1);
    const item = indented(new Document([entry.node]).toString(YAML_OUTPUT), column);
    const head = text.slice(0, end);
    return {
      text: `${head}${head.endsWith("\n") ? "" : "\n"}${item}${text.slice(end)}`,
      value: { ...value, cases: [...value.cases as unknown[], entry.value] },
    };
  } else if (isSeq(cases)) {
    cases.items.push(entry.node);
  } else throw notList();
  return { text: doc.toString(YAML_OUTPUT), value: yamlValue(doc, "file") };
}
