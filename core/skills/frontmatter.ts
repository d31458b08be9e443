/** SKILL.md frontmatter: split the file at its `---` lines and parse the YAML with every scalar a string. */
import { parseDocument } from "yaml";

/** A SKILL.md split into its frontmatter text and body, or why it cannot be. */
export type SplitSkillFile =
  | { ok: true; yaml: string; body: string }
  | { ok: false; error: string };

/**
 * Splits a SKILL.md: it must start with a `---` line, and the frontmatter ends at the next line
 * that is exactly `---`. The body is the rest, trimmed. A byte-order mark and CRLF are accepted.
 */
export function splitSkillFile(text: string): SplitSkillFile {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0].trimEnd() !== "---") {
    return { ok: false, error: "SKILL.md must start with a `---` line that opens the frontmatter" };
  }
  const close = lines.findIndex((line, index) => index > 0 && line.trimEnd() === "---");
  if (close === -1) {
    return { ok: false, error: "the frontmatter has no closing `---` line" };
  }
  return {
    ok: true,
    yaml: lines.slice(1, close).join("\n"),
    body: lines.slice(close + 1).join("\n").trim(),
  };
}

/** Parsed frontmatter: the mapping and the notes on how it was read, or why it could not be. */
export type ParsedFrontmatter =
  | { ok: true; data: Record<string, unknown>; warnings: string[] }
  | { ok: false; error: string };

/**
 * Parses YAML with the failsafe schema (so `version: 1.0` stays "1.0"): the value, or the first
 * error with its line in SKILL.md (the frontmatter starts on line 2).
 */
function parseFailsafe(yaml: string): { error?: string; value?: unknown } {
  const doc = parseDocument(yaml, { schema: "failsafe", prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const line = yaml.slice(0, first.pos[0]).split("\n").length + 1;
    return { error: `${first.message} (line ${line} of SKILL.md)` };
  }
  try {
    return { value: doc.toJS() };
  } catch (error) {
    // e.g. too many aliases: YAML that expands beyond reason.
    return { error: (error as Error).message };
  }
}

/** A `key: value` line whose plain value holds `: `, which YAML reads as a nested mapping. */
const COLON_LINE = /^(\s*)([A-Za-z0-9_-]+):[ \t]+([^'"|>\[{&*!#\s].*: .*)$/;

/** Quotes the plain values that contain `: ` (the usual `description: Use when: ...` mistake). */
function quoteColonValues(yaml: string): { text: string; keys: string[] } {
  const keys: string[] = [];
  const text = yaml.split("\n").map((line) => {
    const match = COLON_LINE.exec(line);
    if (!match) return line;
    keys.push(match[2]);
    return `${match[1]}${match[2]}: ${JSON.stringify(match[3].trimEnd())}`;
  }).join("\n");
  return { text, keys };
}

/**
 * Parses the frontmatter text into a mapping. When YAML rejects it and some plain values contain
 * `: `, those values are quoted and parsing is tried once more; success then is a warning.
 */
export function parseFrontmatter(yaml: string): ParsedFrontmatter {
  const warnings: string[] = [];
  let { error, value } = parseFailsafe(yaml);
  if (error !== undefined) {
    const retry = quoteColonValues(yaml);
    const second = retry.keys.length > 0 ? parseFailsafe(retry.text) : { error };
    if (second.error !== undefined) {
      return { ok: false, error: `the frontmatter is not valid YAML: ${error}` };
    }
    value = second.value;
    warnings.push(
      `the value of ${retry.keys.map((key) => `\`${key}\``).join(", ")} contains ": " and was ` +
        "read as quoted text; put it in quotes so every YAML parser reads it",
    );
  }
  if (value === null || value === undefined) return { ok: true, data: {}, warnings };
  if (typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "the frontmatter must be a YAML mapping of fields" };
  }
  return { ok: true, data: value as Record<string, unknown>, warnings };
}
