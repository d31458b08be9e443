/**
 * The house rules of ARCHITECTURE.md, checked on the product code's own imports (type-only and
 * dynamic ones included): no import circle, and every arrow between floors points down.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PRODUCT = [
  "main.ts",
  "mod.ts",
  "lass.ts",
  "core",
  "routes",
  "wire",
  "cli",
  "islands",
  "runtime",
];

/**
 * What each floor may not import. Floors: the composition (root files) → cli, routes → core →
 * wire; islands sit beside them and talk to the server only through `wire/`; runtime/ holds the
 * Deno adapters, which the runtime-agnostic core never imports.
 */
const FORBIDDEN: Record<string, string[]> = {
  wire: ["core", "routes", "cli", "islands", "runtime", "(root)"],
  core: ["routes", "cli", "islands", "runtime", "(root)"],
  routes: ["cli", "islands", "runtime", "(root)"],
  cli: ["islands", "routes"],
  islands: ["core", "routes", "cli", "runtime", "(root)"],
  runtime: ["routes", "cli", "islands", "(root)"],
};

/** An import statement or `export … from` at a line's start, or a dynamic `import("…")`. */
const IMPORT =
  /^\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

function productFiles(path: string, found: string[] = []): string[] {
  const full = join(ROOT, path);
  if (statSync(full, { throwIfNoEntry: false })?.isDirectory()) {
    for (const name of readdirSync(full)) {
      if (name !== "node_modules") productFiles(join(path, name), found);
    }
  } else if (/\.tsx?$/.test(path) && statSync(full, { throwIfNoEntry: false })) found.push(path);
  return found;
}

/** Each product file's imports of other product files, as paths from the repository's root. */
export function importGraph(): Map<string, string[]> {
  const files = PRODUCT.flatMap((path) => productFiles(path));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of readFileSync(join(ROOT, file), "utf8").matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (!specifier.startsWith(".")) continue;
      const target = normalize(join(dirname(file), specifier));
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

function floorOf(file: string): string {
  return file.includes("/") ? file.split("/")[0] : "(root)";
}

/** The strongly connected groups of more than one file (Tarjan), each sorted. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)!.includes(file)) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

Deno.test("the product code has no import circle (type-only and dynamic imports included)", () => {
  const found = circles(importGraph()).map((group) => group.join(" ⇄ "));
  assert.deepEqual(found, [], `import circles:\n${found.join("\n")}`);
});

Deno.test("every import between floors points down (wire ← core ← routes ← the composition)", () => {
  const wrong: string[] = [];
  for (const [file, targets] of importGraph()) {
    const forbidden = FORBIDDEN[floorOf(file)] ?? [];
    for (const target of targets) {
      if (forbidden.includes(floorOf(target))) wrong.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(wrong, [], `imports that point the wrong way:\n${wrong.join("\n")}`);
});

/** A re-export of another product file's names: `export … from "./x.ts"`, or `export { a }` of an imported `a`. */
function reExports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const found: string[] = [];
  for (
    const match of text.matchAll(
      /^export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*from\s*["'](\.[^"']+)["']/gm,
    )
  ) {
    found.push(`${file} re-exports ${match[1]}`);
  }
  const imported = new Map<string, string>();
  for (
    const match of text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["'](\.[^"']+)["']/gm)
  ) {
    for (const item of match[1].split(",")) {
      const name = item.replace(/^\s*type\s+/, "").split(/\s+as\s+/).at(-1)!.trim();
      if (name) imported.set(name, match[2]);
    }
  }
  for (const match of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\};/gm)) {
    for (const item of match[1].split(",")) {
      const name = item.replace(/^\s*type\s+/, "").split(/\s+as\s+/)[0].trim();
      if (imported.has(name)) found.push(`${file} re-exports ${name} of ${imported.get(name)}`);
    }
  }
  return found;
}

Deno.test("no product file is a barrel: a name is imported from the module that defines it", () => {
  // mod.ts is the module's one public entry point; it re-exports on purpose.
  const found = [...importGraph().keys()].filter((file) => file !== "mod.ts").flatMap(reExports);
  assert.deepEqual(found, [], `re-exports of product names:\n${found.join("\n")}`);
});

Deno.test("the import graph sees type-only, multi-line and dynamic imports", () => {
  const graph = importGraph();
  assert.ok(
    graph.size > 100,
    `only ${graph.size} product files found under ${relative(".", ROOT)}`,
  );
  // mod.ts re-exports the composition; cli/demo_server.ts loads the demo server on first use.
  assert.ok(graph.get("mod.ts")!.some((target) => target.endsWith("lass.ts")), "mod.ts → lass.ts");
  assert.ok(
    graph.get("cli/demo_server.ts")!.some((target) => target.includes("demo")),
    "cli/demo_server.ts → the demo server (a dynamic import)",
  );
});
