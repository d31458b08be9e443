/** The Agent Skills validation rules: which frontmatter problems are errors and which are warnings. */
import { posix } from "node:path";

/** The frontmatter fields of the Agent Skills standard. */
const STANDARD_FIELDS = new Set([
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
]);

/** Fields some clients (Claude Code, VS Code) understand; common in the wild, ignored by Lass. */
const CLIENT_FIELDS = new Set([
  "disable-model-invocation",
  "user-invocable",
  "argument-hint",
  "model",
  "context",
  "agent",
  "hooks",
]);

/** How {@link checkFrontmatter} judges a skill. */
export interface CheckOptions {
  /** The skill folder's name, which `name` should equal; absent for inline content. */
  dirName?: string;
  /** The record's overrides; an empty string counts as absent. */
  name?: string;
  description?: string;
  /**
   * Whether a malformed `name` (case, characters, length, hyphens) is an error, as in previews,
   * or only a warning, as when loading for chat.
   */
  strictName: boolean;
}

/** The checked fields of a frontmatter and what is wrong with it. */
export interface CheckedFrontmatter {
  /** The name in effect; empty when there is none (an error). */
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  allowedTools?: string;
  metadata?: Record<string, string>;
  errors: string[];
  warnings: string[];
}

const present = (value: string | undefined) => value !== undefined && value.trim() !== "";

/** What is wrong with a skill name's form, if anything (checked after NFKC, like `skills-ref`). */
export function nameProblem(name: string): string | undefined {
  const normal = name.normalize("NFKC");
  if ([...normal].length > 64) return "is longer than 64 characters";
  if (normal !== normal.toLowerCase()) return "must be lowercase";
  if (!/^[\p{L}\p{N}-]+$/u.test(normal)) return "may hold only letters, digits and '-'";
  if (normal.startsWith("-") || normal.endsWith("-")) return "must not start or end with '-'";
  if (normal.includes("--")) return "must not contain '--'";
  return undefined;
}

/**
 * Checks a parsed frontmatter against the standard, with the record's overrides applied.
 * Errors (the skill cannot be used): no name, no description, a wrongly formed name when
 * `strictName`. Everything else the standard would reject is a warning.
 */
export function checkFrontmatter(
  data: Record<string, unknown>,
  options: CheckOptions,
): CheckedFrontmatter {
  const errors: string[] = [];
  const warnings: string[] = [];
  const text = (field: string): string | undefined => {
    const value = data[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string") return value;
    warnings.push(`\`${field}\` must be a string; it is ignored`);
    return undefined;
  };

  const fromFile = text("name");
  const name = (present(options.name) ? options.name : fromFile)?.trim() ?? "";
  if (name === "") errors.push("`name` is missing or empty");
  else {
    const problem = nameProblem(name);
    if (problem) (options.strictName ? errors : warnings).push(`\`name\` "${name}" ${problem}`);
    if (
      !present(options.name) && options.dirName !== undefined &&
      name.normalize("NFKC") !== options.dirName.normalize("NFKC")
    ) {
      warnings.push(`\`name\` "${name}" differs from its folder name "${options.dirName}"`);
    }
  }

  const description = (present(options.description) ? options.description : text("description"))
    ?.trim() ?? "";
  if (description === "") {
    errors.push("`description` is missing or empty; it tells the model when to use the skill");
  } else if (description.length > 1024) {
    warnings.push(`\`description\` is ${description.length} characters long (at most 1024)`);
  }

  const license = text("license")?.trim() || undefined;
  const compatibility = text("compatibility")?.trim() || undefined;
  if (compatibility !== undefined && compatibility.length > 500) {
    warnings.push(`\`compatibility\` is ${compatibility.length} characters long (at most 500)`);
  }
  const allowedTools = allowedToolsOf(data["allowed-tools"], warnings);
  const metadata = metadataOf(data.metadata, warnings);

  for (const key of Object.keys(data)) {
    if (STANDARD_FIELDS.has(key)) continue;
    warnings.push(
      CLIENT_FIELDS.has(key)
        ? `\`${key}\` is a client-specific field, not in the Agent Skills standard; Lass ignores it`
        : `\`${key}\` is not an Agent Skills frontmatter field; Lass ignores it`,
    );
  }

  return {
    name,
    description,
    ...(license && { license }),
    ...(compatibility && { compatibility }),
    ...(allowedTools && { allowedTools }),
    ...(metadata && { metadata }),
    errors,
    warnings,
  };
}

/** `allowed-tools`: a space-separated string; a list of strings is joined (with a warning). */
function allowedToolsOf(value: unknown, warnings: string[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim() || undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
    warnings.push("`allowed-tools` should be one space-separated string, not a list");
    return value.join(" ").trim() || undefined;
  }
  warnings.push("`allowed-tools` must be a space-separated string; it is ignored");
  return undefined;
}

/** `metadata`: a map of strings; other values are written as JSON (with a warning). */
function metadataOf(value: unknown, warnings: string[]): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    warnings.push("`metadata` must be a map of strings; it is ignored");
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === "string") out[key] = item;
    else {
      out[key] = JSON.stringify(item);
      warnings.push(`\`metadata.${key}\` is not a string; it is kept as JSON text`);
    }
  }
  return out;
}

/** The body length the standard recommends at most: 500 lines, about 5000 tokens. */
const MAX_BODY_LINES = 500;
const MAX_BODY_TOKENS = 5000;

/** Relative paths a body points at: Markdown link targets and code spans under the usual folders. */
function referencedPaths(body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1].replace(/[#?].*$/, "");
    if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("/")) continue;
    try {
      found.add(decodeURI(target));
    } catch {
      found.add(target);
    }
  }
  for (const match of body.matchAll(/`((?:scripts|references|assets)\/[^`\s]+)`/g)) {
    found.add(match[1]);
  }
  return [...found].map((path) => posix.normalize(path).replace(/\/$/, ""));
}

/**
 * Warnings about a body: longer than recommended, or pointing at bundled files that do not exist.
 * `files` is the complete list of bundled paths, or undefined when references cannot be checked.
 */
export function checkBody(body: string, files: readonly string[] | undefined): string[] {
  const warnings: string[] = [];
  const lines = body === "" ? 0 : body.split("\n").length;
  if (lines > MAX_BODY_LINES) {
    warnings.push(
      `the body has ${lines} lines; keep it under ${MAX_BODY_LINES} (move detail ` +
        "into references/)",
    );
  }
  const tokens = Math.round(body.length / 4);
  if (tokens > MAX_BODY_TOKENS) {
    warnings.push(`the body is about ${tokens} tokens; keep it under ${MAX_BODY_TOKENS}`);
  }
  if (files !== undefined) {
    const known = new Set(files);
    const dirs = new Set(files.flatMap((path) => {
      const parts = path.split("/");
      return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join("/"));
    }));
    const missing = referencedPaths(body).filter((path) =>
      !path.startsWith("..") && path !== "." && !known.has(path) && !dirs.has(path)
    );
    for (const path of missing.slice(0, 20)) {
      warnings.push(`the body refers to ${path}, which is not a file of the skill`);
    }
  }
  return warnings;
}
