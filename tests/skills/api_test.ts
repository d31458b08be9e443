/** Skills over HTTP: preview, discover, and the skills bootstrap lists. */
import assert from "node:assert/strict";
import { stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { nodeFileSystem } from "../../core/files_node.ts";
import { discoverSkills } from "../../core/skills/discover.ts";
import { type Json, post, readJsonResponse, startService, type TestService } from "../_helpers.ts";
import { copyFixture, put, SKILL_FIXTURES, skillMd, withTempDir } from "../_skills.ts";

async function withService(config: unknown, test: (t: TestService) => Promise<void>) {
  const t = await startService({ config });
  try {
    await test(t);
  } finally {
    await t.close();
  }
}

const EMPTY = { workspaces: [{ id: "w", name: "W" }] };

Deno.test("POST /api/skills/preview of inline content returns the whole loaded skill", async () => {
  await withService(EMPTY, async (t) => {
    const content = skillMd("notes", "Take notes. Use when asked to remember.", "# Notes\nWrite.");
    const { status, body } = await post(t, "/api/skills/preview", { skill: { id: "n", content } });
    assert.equal(status, 200);
    assert.deepEqual(body, {
      id: "n",
      name: "notes",
      description: "Take notes. Use when asked to remember.",
      frontmatter: { name: "notes", description: "Take notes. Use when asked to remember." },
      body: "# Notes\nWrite.",
      files: [],
      errors: [],
      warnings: [],
    });
  });
});

Deno.test("POST /api/skills/preview reads a folder relative to the config file, id optional", async () => {
  await withService(EMPTY, async (t) => {
    await copyFixture("pdf-processing", t.dir);
    const { status, body } = await post(t, "/api/skills/preview", {
      skill: { path: "pdf-processing" },
    });
    assert.equal(status, 200);
    assert.deepEqual(
      [body.id, body.name, body.license, body.compatibility, body.allowedTools, body.metadata],
      [
        "draft",
        "pdf-processing",
        "Apache-2.0",
        "Needs Python 3 with pypdf",
        "Bash(python:*) Read",
        { author: "example-org", version: "1.0" },
      ],
    );
    const sizes = await Promise.all(
      ["assets/letter.txt", "references/REFERENCE.md", "scripts/extract.py"].map(async (path) => ({
        path,
        size: (await stat(join(t.dir, "pdf-processing", path))).size,
      })),
    );
    assert.deepEqual(body.files, sizes);
    assert.equal("root" in body, false, "the folder is not part of the preview");
    const byString = await post(t, "/api/skills/preview", { skill: "pdf-processing/SKILL.md" });
    assert.deepEqual([byString.body.id, byString.body.errors], ["pdf-processing", []]);
  });
});

Deno.test("POST /api/skills/preview checks names strictly and answers a missing folder with errors", async () => {
  await withService(EMPTY, async (t) => {
    const bad = await post(t, "/api/skills/preview", {
      skill: { id: "b", path: join(SKILL_FIXTURES, "Bad-Name") },
    });
    assert.deepEqual([bad.status, bad.body.errors], [200, ['`name` "Bad-Name" must be lowercase']]);
    const missing = await post(t, "/api/skills/preview", { skill: { id: "x", path: "nope" } });
    assert.equal(missing.status, 200);
    assert.deepEqual(missing.body.errors, [
      `there is no skill folder or file at ${join(t.dir, "nope")}`,
    ]);
  });
});

Deno.test("POST /api/skills/preview rejects a bad record with 400 and its paths", async () => {
  await withService(EMPTY, async (t) => {
    const cases: [unknown, string[]][] = [
      [{ skill: { id: "x", path: "a", content: "b" } }, ["skill.path"]],
      [{ skill: { id: "x", path: "a", colour: "red" } }, ["skill.colour"]],
      [{ skill: { id: "bad id!", content: "x" } }, ["skill.id"]],
      [{ skill: 7 }, ["skill"]],
      [{}, ["skill"]],
    ];
    for (const [json, paths] of cases) {
      const { status, body } = await post(t, "/api/skills/preview", json);
      assert.deepEqual([status, body.error.code], [400, "invalid-request"], JSON.stringify(json));
      assert.deepEqual(body.error.details.map((d: Json) => d.path), paths, JSON.stringify(json));
    }
  });
});

/** The project fixture plus the folders git would not keep: dependencies, build output, .git. */
async function projectCopy(dir: string): Promise<string> {
  const root = await copyFixture("project", dir);
  await put(
    join(root, "node_modules", "pkg", "skills", "hidden", "SKILL.md"),
    skillMd("hidden", "x"),
  );
  await put(join(root, "dist", "skills", "built", "SKILL.md"), skillMd("built", "x"));
  await put(join(root, ".git", "skills", "vcs", "SKILL.md"), skillMd("vcs", "x"));
  await put(join(root, "docs", "guide.md"), "# not a skill");
  return root;
}

Deno.test("POST /api/skills/discover finds skills in dot folders, skips dependencies and marks shadowing", async () => {
  await withTempDir(async (dir) => {
    const root = await projectCopy(dir);
    await withService(EMPTY, async (t) => {
      const { status, body } = await post(t, "/api/skills/discover", { path: root });
      assert.equal(status, 200);
      assert.deepEqual(
        body.skills.map((s: Json) => [s.name, s.path.slice(root.length + 1), s.shadowed ?? false]),
        [
          ["review", ".agents/skills/review", false],
          ["commit", ".claude/skills/commit", false],
          ["review", ".claude/skills/review", true],
          ["triage", ".github/skills/triage", false],
          ["bundled", "build/bundled", false],
          ["review", "tools/review", true],
        ].filter(([name]) => name !== "bundled"),
      );
      const shadowed = body.skills[2];
      assert.deepEqual(shadowed.errors, []);
      assert.match(
        shadowed.warnings.at(-1),
        /"review" at .*\.agents\/skills\/review takes precedence/,
      );
      assert.equal(body.skills[0].description, "Review code (the project's own review skill).");
      assert.equal(body.truncated, undefined);
    });
  });
});

Deno.test("POST /api/skills/discover takes paths relative to the config folder, ~ and a SKILL.md", async () => {
  await withTempDir(async (home) => {
    await copyFixture("pdf-processing", home);
    const t = await startService({ config: EMPTY, env: { HOME: home } });
    try {
      await copyFixture("colon-description", t.dir);
      const relative = await post(t, "/api/skills/discover", { path: "." });
      assert.deepEqual(relative.body.skills.map((s: Json) => s.name), ["colon-description"]);
      assert.match(relative.body.skills[0].warnings[0], /contains ": "/);
      const tilde = await post(t, "/api/skills/discover", { path: "~" });
      assert.deepEqual(tilde.body.skills.map((s: Json) => [s.name, s.path]), [
        ["pdf-processing", join(home, "pdf-processing")],
      ]);
      const file = await post(t, "/api/skills/discover", { path: "~/pdf-processing/SKILL.md" });
      assert.deepEqual(file.body.skills.map((s: Json) => s.name), ["pdf-processing"]);
      await put(join(home, "pdf-processing", "skills", "inner", "SKILL.md"), skillMd("inner", "x"));
      const folder = await post(t, "/api/skills/discover", { path: join(home, "pdf-processing") });
      assert.deepEqual(
        folder.body.skills.map((s: Json) => s.name),
        ["pdf-processing"],
        "a skill folder is one skill, not searched further",
      );
    } finally {
      await t.close();
    }
  });
});

Deno.test("POST /api/skills/discover answers a missing path with 404 and a plain file with 400", async () => {
  await withService(EMPTY, async (t) => {
    const missing = await post(t, "/api/skills/discover", { path: "no/such/folder" });
    assert.deepEqual([missing.status, missing.body.error.code], [404, "not-found"]);
    assert.equal(
      missing.body.error.message,
      `there is no folder at ${join(t.dir, "no/such/folder")}`,
    );
    const file = await post(t, "/api/skills/discover", { path: "service.json" });
    assert.deepEqual([file.status, file.body.error.code], [400, "invalid-request"]);
    const empty = await post(t, "/api/skills/discover", { path: "" });
    assert.deepEqual([empty.status, empty.body.error.details[0].path], [400, "path"]);
  });
});

Deno.test("discovery stops at its depth and folder bounds and says so", async () => {
  await withTempDir(async (dir) => {
    const root = await projectCopy(dir);
    await put(join(root, "a", "b", "c", "d", "deep", "SKILL.md"), skillMd("deep", "x"));
    const shallow = await discoverSkills(nodeFileSystem, root, { maxDepth: 3 });
    assert.equal(shallow.truncated, true);
    assert.ok(!shallow.skills.some((s) => s.name === "deep"));
    const deep = await discoverSkills(nodeFileSystem, root);
    assert.deepEqual([deep.truncated, deep.skills.some((s) => s.name === "deep")], [false, true]);
    // Six folders: the three conventional ones, the start, then the first two skill folders.
    const few = await discoverSkills(nodeFileSystem, root, { maxDirs: 6 });
    assert.deepEqual([few.truncated, few.skills.map((s) => s.name)], [true, ["review", "commit"]]);
  });
});

Deno.test("GET /api/bootstrap lists the configured skills with their errors and follows changes", async () => {
  await withTempDir(async (dir) => {
    const pdf = await copyFixture("pdf-processing", dir);
    const config = {
      skills: [
        { id: "pdf", path: pdf },
        { id: "empty", path: join(SKILL_FIXTURES, "empty-description") },
        { id: "gone", path: "./missing-skill" },
        { id: "bad", path: join(SKILL_FIXTURES, "Bad-Name") },
        { id: "inline", content: skillMd("inline", "Inline.") },
      ],
      workspaces: [{ id: "w", name: "W", skillIds: ["pdf", "inline"] }],
    };
    await withService(config, async (t) => {
      const bootstrap = async () => (await readJsonResponse(await t.call("/api/bootstrap"))).body;
      const first = await bootstrap();
      assert.deepEqual(first.skills.map((s: Json) => [s.id, s.name, s.errors.length]), [
        ["pdf", "pdf-processing", 0],
        ["empty", "empty-description", 1],
        ["gone", "missing-skill", 1],
        ["bad", "Bad-Name", 0],
        ["inline", "inline", 0],
      ]);
      assert.equal(
        first.skills[0].description,
        "Extract PDF text, fill forms, merge files. Use when handling PDFs.",
      );
      assert.deepEqual(Object.keys(first.skills[0]), ["id", "name", "description", "errors"]);
      assert.match(
        first.skills[2].errors[0],
        /there is no skill folder or file at .*missing-skill/,
      );

      // A config change reloads the skills, and the next bootstrap already shows them.
      const put = await t.call("/api/config", {
        method: "PUT",
        json: {
          ...config,
          skills: [...config.skills, { id: "more", content: skillMd("more", "") }],
        },
      });
      assert.equal(put.status, 200);
      await put.body?.cancel();
      const second = await bootstrap();
      assert.deepEqual(second.skills.at(-1), {
        id: "more",
        name: "more",
        description: "",
        errors: ["`description` is missing or empty; it tells the model when to use the skill"],
      });

      // An edit on disk shows once the skill is read again (as a chat turn does).
      await writeFile(join(pdf, "SKILL.md"), skillMd("pdf-processing", "Edited description."));
      assert.deepEqual((await bootstrap()).skills[0].description, first.skills[0].description);
      await t.service.skills.reload("pdf");
      assert.equal((await bootstrap()).skills[0].description, "Edited description.");
    });
  });
});
