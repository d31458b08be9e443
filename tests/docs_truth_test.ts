/** README.md and docs/ describe what runs: no shipped part called planned, counts that match the code. */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { defaultConfig } from "../core/config/defaults.ts";
import { chat, user } from "./_chat.ts";
import { type Json, post, startService } from "./_helpers.ts";

const ROOT = new URL("../", import.meta.url);

/** Phrases that say a part of Lass is missing; every part the docs name has shipped. */
const NOT_SHIPPED: RegExp[] = [
  /\bplanned\b/i,
  /\bnot (?:yet )?(?:built|implemented|shipped)(?: yet)?\b/i,
  /\bplaceholder (?:status )?page\b/i,
  /\bplaceholder for the web UI\b/i,
  /\buntil [^.]{0,60}\b(?:is|are) (?:implemented|built)\b/i,
  /\bonce [^.]{0,60}\b(?:is|are) (?:implemented|built)\b/i,
  /\balways `\[\]`/i,
  /\bfor now\b/i,
  /^#+ .*\bso far\b/i,
  /\bcoming soon\b/i,
  /\bwork in progress\b/i,
  /\bwill (?:replace|be added|come later)\b/i,
  /\bin a later (?:step|version|release|build)\b/i,
  /\bfirst page of the web UI\b/i,
  /\bTODO\b/,
];

/** README.md and every page of docs/, as `[name, text]`. */
async function docs(): Promise<[string, string][]> {
  const names = (await readdir(new URL("docs/", ROOT))).filter((name) => name.endsWith(".md"));
  return await Promise.all(
    ["README.md", ...names.sort().map((name) => `docs/${name}`)].map(async (
      name,
    ) => [name, await readFile(new URL(name, ROOT), "utf8")] as [string, string]),
  );
}

/** Each match of `pattern` (with a capture group) in the docs, with where it is. */
async function claims(pattern: RegExp): Promise<{ where: string; value: string }[]> {
  const found: { where: string; value: string }[] = [];
  for (const [name, text] of await docs()) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split("\n").length;
      found.push({ where: `${name}:${line}: ${match[0]}`, value: match[1] });
    }
  }
  return found;
}

Deno.test("README.md and docs/ never call a shipped part planned, not built or not implemented", async () => {
  const problems: string[] = [];
  for (const [name, text] of await docs()) {
    text.split("\n").forEach((line, index) => {
      for (const phrase of NOT_SHIPPED) {
        if (phrase.test(line)) problems.push(`${name}:${index + 1}: ${phrase}: ${line.trim()}`);
      }
    });
  }
  // A phrase may run over a line break: each paragraph is read as one line too.
  for (const [name, text] of await docs()) {
    for (const paragraph of text.split(/\n\s*\n/)) {
      const joined = paragraph.replace(/\s*\n\s*/g, " ");
      for (const phrase of NOT_SHIPPED.filter((p) => !p.source.startsWith("^"))) {
        if (phrase.test(joined) && !paragraph.split("\n").some((line) => phrase.test(line))) {
          problems.push(`${name}: ${phrase}: ${joined.slice(0, 160)}`);
        }
      }
    }
  }
  assert.deepEqual(problems, [], `the docs say a shipped part is missing:\n${problems.join("\n")}`);
});

Deno.test("README.md and docs/api.md name every route open without the token", async () => {
  const { OPEN_ROUTES } = await import("../routes/security.ts");
  for (const name of ["README.md", "docs/api.md"]) {
    const text = (await Deno.readTextFile(new URL(`../${name}`, import.meta.url)))
      .replace(/\s*\n\s*/g, " ");
    const sentences = text.match(/[^.]*needs (?:the token|it) except[^.]*\./g) ?? [];
    assert.ok(sentences.length > 0, `${name} says which routes need no token`);
    for (const sentence of sentences) {
      for (const route of OPEN_ROUTES) {
        assert.ok(
          sentence.includes(`\`${route}\``),
          `${name}: "${sentence.trim()}" leaves out ${route}`,
        );
      }
    }
  }
});

Deno.test("the docs name the demo model profile and count the demo server's tools as they run", async () => {
  const t = await startService();
  try {
    // The demo model profile of the default config, wherever the docs show it.
    const demo = (defaultConfig(() => undefined).llms ?? []).find((llm) => llm.id === "demo");
    const profiles = await claims(
      /\{[^{}]*"id":\s*"demo"[^{}]*"name":\s*"([^"]*)"[^{}]*"baseURL":\s*"service:demo"[^{}]*\}/g,
    );
    assert.ok(profiles.length > 0, "the docs show the demo model profile");
    for (const profile of profiles) assert.equal(profile.value, demo?.name, profile.where);

    // The demo tool server's tools, from the running server.
    const state = (await post(t, "/api/mcp/demo/connect")).body;
    assert.equal(state.status, "connected", state.error);
    const tools: string[] = state.tools.map((tool: Json) => tool.name);
    const counts = await claims(/demo tool server with (\d+) tools/gi);
    assert.ok(counts.length > 0, "the README says how many tools the demo server has");
    for (const count of counts) assert.equal(Number(count.value), tools.length, count.where);
    const [, section = ""] = (await readFile(new URL("docs/tool-servers.md", ROOT), "utf8"))
      .split("## The built-in demo server");
    const unnamed = tools.filter((name) => !section.includes(`\`${name}\``));
    assert.deepEqual(unnamed, [], "docs/tool-servers.md names every tool of the demo server");

    // The `start` chunk of the default Playground, as docs/chat.md shows it.
    const { chunks } = await chat(t, { messages: [user("please add 2 and 3")] });
    const starts = await claims(/\{"type":"start",[^\n]*"tools":(\d+)\}/g);
    assert.ok(starts.length > 0, "docs/chat.md shows a start chunk");
    for (const start of starts) assert.equal(Number(start.value), chunks[0].tools, start.where);
  } finally {
    await t.close();
  }
});
