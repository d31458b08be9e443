/** Loading Agent Skills: frontmatter, the validation table, overrides, bundled files and safe reads. */
import assert from "node:assert/strict";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { nodeFileSystem as fs } from "../../core/files_node.ts";
import { listSkillFiles, readSkillFile } from "../../core/skills/bundled_files.ts";
import { parseFrontmatter, splitSkillFile } from "../../core/skills/frontmatter.ts";
import { loadSkill } from "../../core/skills/load.ts";
import { resolveUserPath } from "../../core/skills/paths.ts";
import { checkBody, nameProblem } from "../../core/skills/validate.ts";
import { copyFixture, loadOptions, put, SKILL_FIXTURES, skillMd, withTempDir } from "../_skills.ts";

const chat = loadOptions(SKILL_FIXTURES, false);
const strict = loadOptions(SKILL_FIXTURES, true);

Deno.test("a valid skill folder loads with its fields, body and bundled files (not read)", async () => {
  const skill = await loadSkill({ id: "pdf", path: "pdf-processing" }, strict);
  assert.deepEqual(skill.errors, []);
  assert.deepEqual(skill.warnings, []);
  assert.equal(skill.id, "pdf");
  assert.equal(skill.name, "pdf-processing");
  assert.equal(
    skill.description,
    "Extract PDF text, fill forms, merge files. Use when handling PDFs.",
  );
  assert.equal(skill.license, "Apache-2.0");
  assert.equal(skill.compatibility, "Needs Python 3 with pypdf");
  assert.equal(skill.allowedTools, "Bash(python:*) Read");
  assert.deepEqual(skill.metadata, { author: "example-org", version: "1.0" }, "1.0 stays a string");
  assert.equal(skill.frontmatter.name, "pdf-processing");
  assert.match(skill.body, /^# PDF processing\n/);
  assert.deepEqual(skill.files.map((f) => f.path), [
    "assets/letter.txt",
    "references/REFERENCE.md",
    "scripts/extract.py",
  ]);
  assert.ok(skill.files.every((f) => f.size > 0));
  assert.equal(skill.root, join(SKILL_FIXTURES, "pdf-processing"));
});

Deno.test("a skill path may name SKILL.md itself, be absolute, or start with ~", async () => {
  const viaFile = await loadSkill({ id: "a", path: "pdf-processing/SKILL.md" }, chat);
  const absolute = await loadSkill(
    { id: "b", path: join(SKILL_FIXTURES, "pdf-processing") },
    loadOptions("/nowhere", false),
  );
  const home = await loadSkill(
    { id: "c", path: "~/pdf-processing" },
    loadOptions("/nowhere", false, SKILL_FIXTURES),
  );
  for (const skill of [viaFile, absolute, home]) {
    assert.deepEqual([skill.name, skill.errors, skill.files.length], ["pdf-processing", [], 3]);
  }
  assert.equal(resolveUserPath("~", { baseDir: "/b", home: "/h" }), "/h");
  assert.equal(resolveUserPath("x/../y", { baseDir: "/b", home: "/h" }), "/b/y");
});

Deno.test("an unquoted ': ' in the description is read on a retry, with a warning", async () => {
  const skill = await loadSkill({ id: "c", path: "colon-description" }, strict);
  assert.deepEqual(skill.errors, []);
  assert.equal(skill.description, "Use this skill when: the user asks about colons");
  assert.equal(skill.warnings.length, 1);
  assert.match(skill.warnings[0], /`description` contains ": " .*quotes/);
});

Deno.test("a malformed name is an error in previews and a warning for chat", async () => {
  const preview = await loadSkill({ id: "bad", path: "Bad-Name" }, strict);
  assert.deepEqual(preview.errors, ['`name` "Bad-Name" must be lowercase']);
  const forChat = await loadSkill({ id: "bad", path: "Bad-Name" }, chat);
  assert.deepEqual(forChat.errors, []);
  assert.deepEqual(forChat.warnings, ['`name` "Bad-Name" must be lowercase']);
  assert.equal(nameProblem("a--b"), "must not contain '--'");
  assert.equal(nameProblem("-ab"), "must not start or end with '-'");
  assert.equal(nameProblem("a_b"), "may hold only letters, digits and '-'");
  assert.equal(nameProblem("x".repeat(65)), "is longer than 64 characters");
  assert.equal(nameProblem("données-2"), undefined, "Unicode letters pass, as in skills-ref");
});

Deno.test("a name that differs from its folder is a warning only", async () => {
  const skill = await loadSkill({ id: "m", path: "mismatch" }, strict);
  assert.deepEqual(skill.errors, []);
  assert.deepEqual(skill.warnings, ['`name` "other-name" differs from its folder name "mismatch"']);
});

Deno.test("an empty description makes a skill unusable; the record's description rescues it", async () => {
  const skill = await loadSkill({ id: "e", path: "empty-description" }, chat);
  assert.equal(skill.errors.length, 1);
  assert.match(skill.errors[0], /`description` is missing or empty/);
  const rescued = await loadSkill(
    { id: "e", path: "empty-description", description: "Now it has one." },
    chat,
  );
  assert.deepEqual([rescued.errors, rescued.description], [[], "Now it has one."]);
});

Deno.test("the record's name overrides the frontmatter and skips the folder check", async () => {
  const skill = await loadSkill({ id: "m", path: "mismatch", name: "renamed" }, strict);
  assert.deepEqual([skill.name, skill.errors, skill.warnings], ["renamed", [], []]);
  assert.equal(skill.frontmatter.name, "other-name", "the frontmatter is shown as written");
});

Deno.test("a missing folder, a folder without SKILL.md or another file give errors, not throws", async () => {
  const missing = await loadSkill({ id: "gone", path: "no-such-skill" }, chat);
  assert.match(missing.errors[0], /there is no skill folder or file at .*no-such-skill/);
  assert.deepEqual([missing.name, missing.files, missing.body], ["no-such-skill", [], ""]);
  const empty = await loadSkill({ id: "p", path: "project" }, chat);
  assert.match(empty.errors[0], /has no SKILL.md/);
  const other = await loadSkill({ id: "r", path: "pdf-processing/references/REFERENCE.md" }, chat);
  assert.match(other.errors[0], /is not a SKILL.md file or a skill folder/);
});

Deno.test("frontmatter that cannot be read is an error with the reason", () => {
  assert.deepEqual(splitSkillFile("# no frontmatter"), {
    ok: false,
    error: "SKILL.md must start with a `---` line that opens the frontmatter",
  });
  assert.deepEqual(splitSkillFile("---\nname: x\n"), {
    ok: false,
    error: "the frontmatter has no closing `---` line",
  });
  assert.deepEqual(splitSkillFile("\uFEFF---\r\nname: x\r\n---\r\n\r\nBody\r\n"), {
    ok: true,
    yaml: "name: x",
    body: "Body",
  });
  const bad = parseFrontmatter("name: x\ndescription: [unclosed");
  assert.equal(bad.ok, false);
  assert.match((bad as { error: string }).error, /not valid YAML.*line 3 of SKILL.md/);
  assert.deepEqual(parseFrontmatter("- a\n- b"), {
    ok: false,
    error: "the frontmatter must be a YAML mapping of fields",
  });
  assert.deepEqual(parseFrontmatter(""), { ok: true, data: {}, warnings: [] });
});

Deno.test("inline content: overrides, unknown fields and odd values are warnings", async () => {
  const content = [
    "---",
    "name: helper",
    "description: Helps.",
    "argument-hint: <file>",
    "colour: blue",
    "allowed-tools: [Read, Write]",
    "compatibility: " + "x".repeat(501),
    "metadata:",
    "  nested: {a: 1}",
    "---",
    "See [the guide](references/guide.md) and `scripts/run.sh`.",
  ].join("\n");
  const skill = await loadSkill({ id: "h", content, description: "Overridden." }, strict);
  assert.deepEqual(skill.errors, []);
  assert.equal(skill.description, "Overridden.");
  assert.equal(skill.allowedTools, "Read Write");
  assert.deepEqual(skill.metadata, { nested: '{"a":"1"}' });
  assert.equal(skill.root, undefined);
  assert.deepEqual(skill.files, []);
  assert.deepEqual(skill.warnings, [
    "`compatibility` is 501 characters long (at most 500)",
    "`allowed-tools` should be one space-separated string, not a list",
    "`metadata.nested` is not a string; it is kept as JSON text",
    "`argument-hint` is a client-specific field, not in the Agent Skills standard; Lass ignores it",
    "`colour` is not an Agent Skills frontmatter field; Lass ignores it",
    "the body refers to references/guide.md, which is not a file of the skill",
    "the body refers to scripts/run.sh, which is not a file of the skill",
  ]);
});

Deno.test("a long description or body is a warning; a missing name is an error", async () => {
  const long = await loadSkill({
    id: "l",
    content: skillMd("long", "d".repeat(1025), "line\n".repeat(501)),
  }, chat);
  assert.deepEqual(long.errors, []);
  assert.deepEqual(long.warnings, [
    "`description` is 1025 characters long (at most 1024)",
    "the body has 501 lines; keep it under 500 (move detail into references/)",
  ]);
  const nameless = await loadSkill({ id: "n", content: "---\ndescription: x\n---\n" }, chat);
  assert.deepEqual([nameless.name, nameless.errors], ["n", ["`name` is missing or empty"]]);
  assert.deepEqual(checkBody("x".repeat(20_004), undefined), [
    "the body is about 5001 tokens; keep it under 5000",
  ]);
});

Deno.test("bundled files: capped, sorted, without .git, node_modules or links leading out", async () => {
  await withTempDir(async (dir) => {
    const root = await copyFixture("pdf-processing", dir);
    await put(join(root, ".git", "HEAD"), "ref");
    await put(join(root, "node_modules", "x", "index.js"), "x");
    await put(join(root, "a", "b", "c", "d", "deep.txt"), "deep");
    await put(join(root, "a", "b", "c", "d", "e", "deeper.txt"), "deeper");
    await put(join(dir, "secret.txt"), "secret");
    await symlink(join(dir, "secret.txt"), join(root, "outside-link"));
    await symlink(join(root, "assets", "letter.txt"), join(root, "inside-link"));
    const all = await listSkillFiles(fs, root);
    assert.deepEqual(all.files.map((f) => f.path), [
      "a/b/c/d/deep.txt",
      "assets/letter.txt",
      "inside-link",
      "references/REFERENCE.md",
      "scripts/extract.py",
    ]);
    assert.equal(all.truncated, true, "a folder past depth 4 was left out");
    const capped = await listSkillFiles(fs, root, { maxFiles: 2 });
    assert.deepEqual([capped.files.length, capped.truncated], [2, true]);
    const skill = await loadSkill({ id: "p", path: root }, chat);
    assert.match(skill.warnings.join("\n"), /the list of bundled files is cut/);
  });
});

Deno.test("reading a bundled file refuses .., absolute paths and links out of the folder", async () => {
  await withTempDir(async (dir) => {
    const root = await copyFixture("pdf-processing", dir);
    await put(join(dir, "secret.txt"), "secret");
    await symlink(join(dir, "secret.txt"), join(root, "link"));
    await mkdir(join(dir, "elsewhere"));
    await symlink(join(dir, "elsewhere"), join(root, "dirlink"));
    const read = (path: string) => readSkillFile(fs, root, path);
    const ok = await read("references/REFERENCE.md");
    assert.equal(ok.ok && ok.text.startsWith("# Reference"), true);
    assert.equal(ok.ok && ok.path, "references/REFERENCE.md");
    const refused = async (path: string, pattern: RegExp) => {
      const result = await read(path);
      assert.equal(result.ok, false, path);
      assert.match((result as { error: string }).error, pattern, path);
    };
    await refused("../secret.txt", /leads out of the skill folder/);
    await refused("scripts/../../secret.txt", /leads out of the skill folder/);
    await refused("..\\secret.txt", /leads out of the skill folder/);
    await refused(join(dir, "secret.txt"), /is absolute/);
    await refused("link", /is a link that leads out of the skill folder/);
    await refused("dirlink/x.txt", /no file|leads out/);
    await refused("scripts", /is a folder/);
    await refused("missing.txt", /the skill has no file missing.txt/);
    await refused("", /empty/);
  });
});

Deno.test("a large file is cut at the limit and a binary one is not decoded", async () => {
  await withTempDir(async (dir) => {
    const root = await copyFixture("pdf-processing", dir);
    await put(join(root, "references", "big.txt"), "é".repeat(200_000));
    await put(join(root, "assets", "image.bin"), new Uint8Array([137, 80, 78, 71, 0, 1, 2]));
    const big = await readSkillFile(fs, root, "references/big.txt", { maxBytes: 1001 });
    assert.equal(big.ok, true);
    if (!big.ok) return;
    assert.deepEqual([big.size, big.truncated, big.text.length], [400_000, true, 500]);
    assert.ok(!big.text.includes("\uFFFD"), "a character cut in half is dropped");
    const image = await readSkillFile(fs, root, "assets/image.bin");
    assert.deepEqual(image.ok && [image.binary, image.text, image.size], [true, "", 7]);
  });
});
