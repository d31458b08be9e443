/** Writing TypeScript source: literals, env lookups, object literals, the header, and the helpers both code targets share. */
import type { ExportEnvVar } from "../../wire/export.ts";
import type { Piece } from "./_env.ts";
import type { ApprovalMode, WorkspacePlan } from "./_plan.ts";

/** A string literal. */
export function str(text: string): string {
  return JSON.stringify(text);
}

/** Text inside a template literal: backticks, backslashes and `${` escaped. */
function templateText(text: string): string {
  return text.replace(/[`\\]|\$\{/g, (match) => `\\${match}`);
}

/** A multi-line template literal, for long texts such as instructions. */
export function templateLiteral(text: string): string {
  return `\`${templateText(text)}\``;
}

/** An expression for a value: a literal, `env("NAME")`, or a template literal of both. */
export function expr(pieces: Piece[]): string {
  if (pieces.every((piece) => typeof piece === "string")) return str(pieces.join(""));
  if (pieces.length === 1 && typeof pieces[0] !== "string") return `env(${str(pieces[0].env)})`;
  const body = pieces.map((piece) =>
    typeof piece === "string" ? templateText(piece) : `\${env(${str(piece.env)})}`
  ).join("");
  return `\`${body}\``;
}

/** A property key: bare when it is an identifier. */
export function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : str(name);
}

/**
 * An object literal from `[key, expression]` pairs: on one line when it fits in `width`
 * characters, else one property per line at `indent` + 2 spaces.
 */
export function objectLiteral(entries: [string, string][], indent = "", width = 80): string {
  if (entries.length === 0) return "{}";
  const parts = entries.map(([name, value]) => `${key(name)}: ${value}`);
  const line = `{ ${parts.join(", ")} }`;
  if (line.length + indent.length <= width && !line.includes("\n")) return line;
  return `{\n${parts.map((part) => `${indent}  ${part},`).join("\n")}\n${indent}}`;
}

/** A JSON value as a TypeScript literal: bare keys where they can be, one line when it fits. */
export function jsonLiteral(value: unknown, indent = ""): string {
  if (Array.isArray(value)) {
    return arrayLiteral(value.map((item) => jsonLiteral(item, `${indent}  `)), indent);
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([name, item]): [string, string] => [
      name,
      jsonLiteral(item, `${indent}  `),
    ]);
    return objectLiteral(entries, indent);
  }
  return JSON.stringify(value) ?? "undefined";
}

/** An array literal of expressions, on one line when it fits. */
export function arrayLiteral(items: string[], indent = "", width = 80): string {
  const line = `[${items.join(", ")}]`;
  if (line.length + indent.length <= width) return line;
  return `[\n${items.map((item) => `${indent}  ${item},`).join("\n")}\n${indent}]`;
}

/** Key/value pairs of exported values as an object literal of expressions. */
export function valueMap(entries: [string, Piece[]][], indent = ""): string {
  return objectLiteral(entries.map(([name, value]) => [name, expr(value)]), indent);
}

/** An approval setting as an object literal. */
export function approvalLiteral(
  approval: { default: ApprovalMode; tools: Record<string, ApprovalMode> },
  indent = "",
): string {
  const tools = objectLiteral(Object.entries(approval.tools).map(([k, v]) => [k, str(v)]), indent);
  return objectLiteral([["default", str(approval.default)], ["tools", tools]], indent);
}

/** One line of a block comment: `*\/` cannot end the comment early. */
function commentText(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}

/** What the header of a code export says. */
export interface HeaderOptions {
  title: string;
  plan: WorkspacePlan;
  dependencies: Record<string, string>;
  filename: string;
}

/** The header comment: what the file is, how to install and run it, its variables and notes. */
export function header(options: HeaderOptions): string {
  const { plan, dependencies, filename } = options;
  const install = Object.entries(dependencies).map(([name, version]) => `${name}@${version}`);
  const example = `${filename} "What tools do you have?"`;
  const lines = [
    `${options.title}, exported from the Lass workspace "${plan.workspace.name}" ` +
    `(${plan.workspace.id}).`,
    "",
    "Install the pinned packages (Node.js 22.18 or later, which runs TypeScript as is):",
    `  npm install --save-exact ${install.join(" ")}`,
    "Run it with a prompt; the answer streams to stdout, tool activity to stderr:",
    `  node ${example}`,
    "Or with Deno in the same folder (it reads package.json and node_modules):",
    `  deno run -A ${example}`,
  ];
  const vars = plan.vars.list();
  if (vars.length > 0) lines.push("", "Environment variables:", ...vars.map(describeVar));
  if (plan.notes.length > 0) lines.push("", "Notes:", ...plan.notes.map((note) => `- ${note}`));
  const body = lines.flatMap((line) => wrap(commentText(line), 96))
    .map((line) => line === "" ? " *" : ` * ${line}`);
  return ["/**", ...body, " */"].join("\n");
}

function describeVar(variable: ExportEnvVar): string {
  const hint = variable.replacesLiteral
    ? " (set it: the config holds a literal value, which is not exported)"
    : "";
  return `  ${variable.name}: ${variable.description}${hint}`;
}

/** Wraps a comment line at word boundaries; continued lines are indented two more spaces. */
function wrap(line: string, width: number): string[] {
  // A command stays on one line, so it can be copied whole.
  if (line.length <= width || /^\s+(npm|node|deno) /.test(line)) return [line];
  const lead = /^\s*/.exec(line)![0];
  const out: string[] = [];
  let current = lead;
  for (const word of line.slice(lead.length).split(" ")) {
    if (current.trim() !== "" && current.length + word.length + 1 > width) {
      out.push(current);
      current = `${lead}  ${word}`;
    } else {
      current = current.trim() === "" ? current + word : `${current} ${word}`;
    }
  }
  if (current.trim() !== "") out.push(current);
  return out;
}

/** An import declaration, on several lines when one would pass 100 characters. */
export function importLine(names: string[], from: string): string {
  const line = `import { ${names.join(", ")} } from ${str(from)};`;
  if (line.length <= 100) return line;
  return `import {\n${names.map((name) => `  ${name},`).join("\n")}\n} from ${str(from)};`;
}

/** `env(name)`: how exported code reads a variable (unset reads as "", as in Lass). */
export const ENV_HELPER = `/** Reads an environment variable; unset reads as "", as in Lass. */
function env(name: string): string {
  return process.env[name] ?? "";
}`;

/** Lass's model tool names (core/mcp/tool_names.ts), so the model sees the same names. */
export const TOOL_NAME_HELPER =
  `/** A short, stable hash (FNV-1a, 32 bits, hex) that keeps shortened names unique. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The name the model sees, as in Lass: \`<serverId>__<tool>\`, at most 64 safe characters. */
function toolName(serverId: string, tool: string): string {
  const full = \`\${serverId}__\${tool}\`;
  const safe = full.replace(/[^A-Za-z0-9_-]/g, "_");
  if (safe === full && safe.length <= 64) return safe;
  const suffix = \`_\${shortHash(full)}\`;
  return safe.slice(0, 64 - suffix.length) + suffix;
}`;

/**
 * `forModel(meta)`: whether the model may see a tool, as Lass decides (`toolInfo` of the manager): MCP
 * Apps keep a tool for their View when its `_meta.ui.visibility` leaves out "model".
 */
export const FOR_MODEL_HELPER = `/**
 * Whether the model may see a tool, as in Lass: MCP Apps keep a tool for their View when its
 * \`_meta.ui.visibility\` leaves out "model".
 */
function forModel(meta: unknown): boolean {
  const visibility = (meta as { ui?: { visibility?: unknown } } | undefined)?.ui?.visibility;
  return !Array.isArray(visibility) || visibility.includes("model");
}`;

/** `ask(question)`: a yes/no question on the terminal; no terminal means no. */
export const ASK_HELPER =
  `/** Asks a yes/no question on the terminal; without a terminal the answer is no. */
async function ask(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await terminal.question(question)).trim());
  } finally {
    terminal.close();
  }
}`;

/** `ollamaOrigin()`: Ollama's address from `OLLAMA_HOST`, read as Lass reads it. */
export const OLLAMA_HELPER =
  `/** Ollama's address from OLLAMA_HOST (host, host:port or a URL), read as Lass reads it. */
function ollamaOrigin(host = env("OLLAMA_HOST")): string {
  if (!host) return "http://127.0.0.1:11434";
  const withScheme = /^[a-z][a-z0-9+.-]*:\\/\\//i.test(host) ? host : \`http://\${host}\`;
  const url = new URL(withScheme);
  const authority = withScheme.replace(/^[a-z][a-z0-9+.-]*:\\/\\//i, "").split("/")[0];
  if (!/:\\d+$/.test(authority)) url.port = "11434";
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  return url.origin;
}`;

/**
 * The `main` of a generated command-line script: reads the prompt from the arguments (usage and
 * exit code 2 without one), aborts on Ctrl+C, runs `setup`, then `body` (which streams the
 * answer), ends the line, runs `cleanup`, and reports a failure with exit code 1. `setup` opens
 * the block that `cleanup` closes; both see `prompt` and `abort`.
 */
export function mainFunction(filename: string, setup: string, body: string, cleanup: string) {
  return `/** Answers the prompt from the command line, streaming the text to stdout. */
async function main(): Promise<void> {
  const prompt = process.argv.slice(2).join(" ").trim();
  if (prompt === "") {
    console.error('Usage: node ${filename} "<prompt>"');
    process.exitCode = 2;
    return;
  }
  const abort = new AbortController();
  process.once("SIGINT", () => abort.abort());
  ${setup}
${body}    process.stdout.write("\\n");
${cleanup}
}

main().catch((error) => {
  console.error(\`error: \${message(error)}\`);
  process.exitCode = 1;
});`;
}
