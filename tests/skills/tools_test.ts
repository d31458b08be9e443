/** The skills of a chat turn: the catalog, `load_skill` and `read_skill_file`, called directly. */
import assert from "node:assert/strict";
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ToolSet } from "ai";
import { MAX_SKILL_FILE_BYTES, skillTools } from "../../core/chat/skill_tools.ts";
import type { ToolRun } from "../../core/chat/tools.ts";
import { type Json, startService, type TestService } from "../_helpers.ts";
import { copyFixture, put, SKILL_FIXTURES, skillMd, withTempDir } from "../_skills.ts";

/** Calls a tool's execute as the AI SDK would. */
function call(tools: ToolSet, name: string, input: unknown): Promise<ToolRun> {
  const execute = tools[name].execute as (input: unknown, options: unknown) => Promise<ToolRun>;
  return execute(input, { toolCallId: "call-1", messages: [] });
}

/** The text a tool result shows the model, and whether it is an error. */
function shown(run: ToolRun): [string, boolean] {
  assert.ok(run.model.type === "text" || run.model.type === "error-text");
  assert.equal(run.isError, run.model.type === "error-text");
  return [run.model.value as string, run.isError];
}

/** A service whose workspace `w` enables `skillIds` of `skills`, in a temp dir with a copied skill. */
async function withSkills(
  skills: (dir: string) => Record<string, unknown>[],
  skillIds: string[],
  test: (t: TestService, dir: string) => Promise<void>,
) {
  await withTempDir(async (dir) => {
    const t = await startService({
      config: { skills: skills(dir), workspaces: [{ id: "w", name: "W", skillIds }] },
    });
    try {
      await test(t, dir);
    } finally {
      await t.close();
    }
  });
}

const workspaceOf = (t: TestService) => t.service.config.config.workspaces[0];

Deno.test("no enabled skills: no tools and no instructions", async () => {
  await withSkills(() => [{ id: "a", content: skillMd("a", "A.") }], [], async (t) => {
    const result = await skillTools(t.service, workspaceOf(t));
    assert.deepEqual(Object.keys(result.tools), []);
    assert.equal(result.origins.size, 0);
    assert.equal(result.instructions, undefined);
  });
});

Deno.test("the catalog lists the usable enabled skills; skills with errors are left out", async () => {
  await withSkills(
    () => [
      { id: "pdf", path: join(SKILL_FIXTURES, "pdf-processing") },
      { id: "inline", content: skillMd("notes", "Keep <notes> & lists.") },
      { id: "broken", path: join(SKILL_FIXTURES, "empty-description") },
      { id: "off", content: skillMd("off", "Not enabled.") },
      { id: "twin", content: skillMd("notes", "Same name, later.") },
    ],
    ["pdf", "inline", "broken", "twin"],
    async (t) => {
      const { tools, origins, instructions } = await skillTools(t.service, workspaceOf(t));
      assert.deepEqual(Object.keys(tools), ["load_skill", "read_skill_file"]);
      assert.deepEqual([...origins], [
        ["load_skill", { source: "skills", tool: "load_skill" }],
        ["read_skill_file", { source: "skills", tool: "read_skill_file" }],
      ]);
      assert.ok(instructions);
      assert.match(instructions, /call the load_skill tool with the skill's name/);
      assert.match(instructions, /<name>pdf-processing<\/name>\n<description>Extract PDF text/);
      assert.match(instructions, /<description>Keep &#60;notes&#62; &#38; lists.<\/description>/);
      assert.doesNotMatch(instructions, /empty-description|Not enabled|Same name, later/);
      const schema = (tools.load_skill.inputSchema as Json).jsonSchema;
      assert.deepEqual(schema.properties.name.enum, ["pdf-processing", "notes"]);
      const readSchema = (tools.read_skill_file.inputSchema as Json).jsonSchema;
      assert.deepEqual(readSchema.properties.name.enum, ["pdf-processing"], "inline has no files");
      assert.deepEqual(readSchema.required, ["name", "path"]);
    },
  );
});

Deno.test("only inline skills: load_skill but no read_skill_file", async () => {
  await withSkills(() => [{ id: "a", content: skillMd("a", "A.") }], ["a"], async (t) => {
    const { tools, instructions } = await skillTools(t.service, workspaceOf(t));
    assert.deepEqual(Object.keys(tools), ["load_skill"]);
    assert.doesNotMatch(instructions!, /read_skill_file/);
  });
});

Deno.test("load_skill returns the body, the folder and the file list; an unknown name is an error result", async () => {
  await withSkills(
    () => [{ id: "pdf", path: join(SKILL_FIXTURES, "pdf-processing") }],
    ["pdf"],
    async (t) => {
      const { tools } = await skillTools(t.service, workspaceOf(t));
      const [text, isError] = shown(await call(tools, "load_skill", { name: "pdf-processing" }));
      assert.equal(isError, false);
      assert.match(text, /^<skill_content name="pdf-processing">\n# PDF processing\n/);
      assert.ok(text.includes(`Skill folder: ${join(SKILL_FIXTURES, "pdf-processing")}`));
      assert.match(
        text,
        /<skill_resources>\n<file>assets\/letter.txt<\/file>\n<file>references\/REFERENCE.md<\/file>\n<file>scripts\/extract.py<\/file>\n<\/skill_resources>\n<\/skill_content>$/,
      );
      assert.doesNotMatch(text, /^name:/m, "the frontmatter is not repeated");
      const [error, failed] = shown(await call(tools, "load_skill", { name: "nope" }));
      assert.deepEqual([error, failed], [
        "there is no skill named nope; use one of pdf-processing",
        true,
      ]);
    },
  );
});

Deno.test("a turn sees an edited SKILL.md, and a skill broken by an edit drops out", async () => {
  await withSkills(
    (dir) => [{ id: "s", path: join(dir, "s") }],
    ["s"],
    async (t, dir) => {
      await put(join(dir, "s", "SKILL.md"), skillMd("s", "First.", "Old body."));
      const first = await skillTools(t.service, workspaceOf(t));
      assert.match(first.instructions!, /First\./);
      await writeFile(join(dir, "s", "SKILL.md"), skillMd("s", "Second.", "New body."));
      const second = await skillTools(t.service, workspaceOf(t));
      assert.match(second.instructions!, /Second\./);
      assert.match(shown(await call(second.tools, "load_skill", { name: "s" }))[0], /New body\./);
      await writeFile(join(dir, "s", "SKILL.md"), skillMd("s", '""'));
      const third = await skillTools(t.service, workspaceOf(t));
      assert.deepEqual([Object.keys(third.tools), third.instructions], [[], undefined]);
      assert.equal(t.service.skills.get("s")!.errors.length, 1, "the registry keeps the reload");
    },
  );
});

Deno.test("read_skill_file reads a bundled file and refuses paths out of the skill folder", async () => {
  await withSkills(
    (dir) => [{ id: "pdf", path: join(dir, "pdf-processing") }],
    ["pdf"],
    async (t, dir) => {
      const root = await copyFixture("pdf-processing", dir);
      await put(join(dir, "secret.txt"), "top secret");
      await symlink(join(dir, "secret.txt"), join(root, "references", "leak.md"));
      const { tools } = await skillTools(t.service, workspaceOf(t));
      const read = async (path: unknown, name: unknown = "pdf-processing") =>
        shown(await call(tools, "read_skill_file", { name, path }));
      assert.deepEqual(await read("references/REFERENCE.md"), [
        "# Reference\n\nForm fields are named `field_1` to `field_9`.\n",
        false,
      ]);
      for (
        const [path, pattern] of [
          ["../secret.txt", /leads out of the skill folder/],
          ["references/../../secret.txt", /leads out of the skill folder/],
          [join(dir, "secret.txt"), /is absolute/],
          ["/etc/passwd", /is absolute/],
          ["references/leak.md", /is a link that leads out of the skill folder/],
          ["nothing.md", /the skill has no file nothing.md/],
        ] as const
      ) {
        const [text, isError] = await read(path);
        assert.equal(isError, true, path);
        assert.match(text, pattern, path);
        assert.doesNotMatch(text, /top secret/);
      }
      assert.deepEqual(await read(undefined), ["the path is missing", true]);
      assert.deepEqual(await read("x", "other"), ["there is no skill named other", true]);
    },
  );
});

Deno.test("read_skill_file cuts a large file at 256 KiB and says so", async () => {
  await withSkills(
    (dir) => [{ id: "pdf", path: join(dir, "pdf-processing") }],
    ["pdf"],
    async (t, dir) => {
      const root = await copyFixture("pdf-processing", dir);
      const size = MAX_SKILL_FILE_BYTES + 10_000;
      await put(join(root, "references", "big.txt"), "a".repeat(size));
      await put(join(root, "assets", "logo.png"), new Uint8Array([137, 80, 78, 71, 0, 0]));
      const { tools } = await skillTools(t.service, workspaceOf(t));
      const [text, isError] = shown(
        await call(tools, "read_skill_file", {
          name: "pdf-processing",
          path: "references/big.txt",
        }),
      );
      assert.equal(isError, false);
      assert.ok(text.startsWith("a".repeat(MAX_SKILL_FILE_BYTES) + "\n\n[cut: "));
      assert.ok(
        text.endsWith(`first ${MAX_SKILL_FILE_BYTES} of ${size} bytes of references/big.txt]`),
      );
      const [binary] = shown(
        await call(tools, "read_skill_file", { name: "pdf-processing", path: "assets/logo.png" }),
      );
      assert.equal(binary, "assets/logo.png is a binary file of 6 bytes; it is not shown");
    },
  );
});
