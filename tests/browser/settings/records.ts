/** Settings for skills, agents, catalogs and workspaces, and the export dialog, in Chromium. */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { EXPORT_TARGETS } from "../../../wire/export.ts";
import { screenshot, skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";
import { bannerCatalog } from "../../_genui.ts";
import type { Json } from "../../_helpers.ts";
import { startA2aAgent } from "../../fixtures/a2a_agents.ts";
import { configWhere, editor, fileConfig } from "../../_settings.ts";

const SKILLS = fileURLToPath(new URL("../../fixtures/skills/", import.meta.url));

/** The config: the demo model and server, a skill from the fixtures, workspace `w` without tools. */
function config(): Record<string, unknown> {
  return {
    ...chatConfig({ workspace: { llmId: "demo", mcpServerIds: [] } }),
    skills: [{ id: "pdf", path: `${SKILLS}pdf-processing` }],
  };
}

Deno.test({
  name: "web UI settings: skills, agents, catalogs, workspaces and the export dialog",
  ignore: skipBrowser,
  fn: async (test) => {
    const agent = startA2aAgent();
    const ui = await startUi({ config: config() });
    const page = await ui.page();
    const chunks: string[] = [];
    page.on("request", (request) => chunks.push(new URL(request.url()).pathname));
    const { t } = ui;
    try {
      await test.step("skills: the list shows summaries; an inline skill is previewed and saved", async () => {
        await page.goto(withToken(ui.base, "/settings/skills"));
        const pdf = page.locator('li.record[data-record-id="pdf"]');
        await pdf.getByText("pdf-processing · Extract PDF text", { exact: false }).waitFor();
        assert.match(await pdf.innerText(), /fixtures\/skills\/pdf-processing/);

        await page.getByRole("button", { name: "Add skill" }).click();
        const form = editor(page);
        await form.getByLabel("Id", { exact: true }).fill("notes");
        await form.getByRole("radio", { name: "Inline SKILL.md" }).check();
        const content = form.getByLabel("SKILL.md", { exact: true });
        assert.match(
          await content.inputValue(),
          /^---\nname: my-skill/,
          "a template to start from",
        );
        // Without a description the preview says what is wrong.
        await content.fill("---\nname: notes\n---\nTake notes in `notes.md`.");
        await form.getByRole("button", { name: "Preview" }).click();
        const preview = form.getByRole("region", { name: "Skill preview" });
        await preview.getByText("not usable").waitFor();
        assert.match(
          await preview.getByRole("list", { name: "Errors" }).innerText(),
          /description/,
        );
        await content.fill(
          "---\nname: notes\ndescription: Take notes while working.\n---\n# Notes\n\nWrite them down.",
        );
        await form.getByRole("button", { name: "Preview" }).click();
        await preview.getByText("usable", { exact: true }).waitFor();
        assert.match(await preview.locator("pre").innerText(), /^# Notes\n\nWrite them down\.$/);
        assert.match(await preview.innerText(), /Bundled files\s+None\./);

        await form.getByRole("button", { name: "Save" }).click();
        await page.waitForURL(`${ui.base}/settings/skills/notes`);
        const saved = await configWhere(t, (c) => c.skills.length === 2);
        assert.deepEqual(saved.skills[1], {
          id: "notes",
          content:
            "---\nname: notes\ndescription: Take notes while working.\n---\n# Notes\n\nWrite them down.",
        });
        const notes = page.locator('li.record[data-record-id="notes"]');
        await notes.getByText("Take notes while working.", { exact: false }).waitFor();
        // A saved skill's editor previews it as it opens.
        await editor(page).getByRole("region", { name: "Skill preview" }).getByText("usable", {
          exact: true,
        }).waitFor();
      });

      await test.step("skills: a folder is discovered and one of its skills added", async () => {
        await page.getByText("Discover skills in a folder").click();
        await page.getByLabel("Folder", { exact: true }).fill(`${SKILLS}project`);
        await page.getByRole("button", { name: "Discover" }).click();
        const found = page.getByRole("list", { name: "Skills found" });
        await found.waitFor();
        const names = await found.locator("li strong").allInnerTexts();
        assert.deepEqual(names.toSorted(), ["commit", "review", "review", "review", "triage"]);
        await waitForCount(found.locator("li.shadowed"), 2);
        await page.getByRole("checkbox", { name: "commit" }).check();
        await page.getByRole("button", { name: "Add 1 skill" }).click();
        await page.getByRole("status").getByText("Added 1 skill: commit.").waitFor();
        const saved = await configWhere(t, (c) => c.skills.length === 3);
        assert.deepEqual(saved.skills[2], {
          id: "commit",
          path: `${SKILLS}project/.claude/skills/commit`,
        });
        await page.locator('li.record[data-record-id="commit"]').getByText(
          "Write commit messages.",
          {
            exact: false,
          },
        ).waitFor();
        // Now configured: its box is checked and cannot be added twice.
        assert.equal(await page.getByRole("checkbox", { name: "commit" }).isDisabled(), true);

        // A skill from a folder: its frontmatter, bundled files and warnings.
        await page.getByRole("button", { name: "Edit pdf" }).click();
        const preview = editor(page).getByRole("region", { name: "Skill preview" });
        await preview.getByRole("list", { name: "Bundled files" }).waitFor();
        const shown = await preview.innerText();
        for (
          const part of [
            "Apache-2.0",
            "Bash(python:*) Read",
            "scripts/extract.py",
            "references/REFERENCE.md",
          ]
        ) {
          assert.ok(shown.includes(part), `the preview shows ${part}`);
        }
        await preview.scrollIntoViewIfNeeded();
        await screenshot(page, "settings-skills");
      });

      await test.step("agents: Test says why an agent cannot be reached, and shows a card", async () => {
        await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", {
          name: "Agents",
        }).click();
        await page.getByRole("button", { name: "Add remote agent" }).click();
        const form = editor(page);
        await form.getByLabel("Id", { exact: true }).fill("echo");
        await form.getByLabel("Name", { exact: true }).fill("Echo");
        const url = form.getByLabel("URL", { exact: true });
        await url.fill("http://127.0.0.1:9/");
        await form.getByRole("button", { name: "Test" }).click();
        const failed = form.getByRole("alert").filter({ hasText: "cannot reach" });
        await failed.waitFor();
        assert.match(
          await failed.innerText(),
          /Failed after .*: cannot reach http:\/\/127\.0\.0\.1:9\/\.well-known\/agent-card\.json/,
        );
        // A URL that is not one is refused by the route: the reason is shown at the field.
        await url.fill("not a url");
        await form.getByRole("button", { name: "Test" }).click();
        await form.locator('[data-field="url"] .field-error').getByText(
          "must be an http or https URL",
          {
            exact: false,
          },
        ).waitFor();

        await url.fill(agent.url);
        await form.getByRole("button", { name: "Test" }).click();
        const result = form.getByRole("region", { name: "Test result" });
        await result.getByText("Reached Fixture agent", { exact: false }).waitFor();
        assert.match(await result.innerText(), /Skills\s+Echo/);
        assert.equal(await form.locator(".field-error").count(), 0);
        await form.getByRole("button", { name: "Save" }).click();
        const saved = await configWhere(t, (c) => (c.agents ?? []).length === 1);
        assert.deepEqual(saved.agents, [{
          id: "echo",
          name: "Echo",
          protocol: "a2a",
          url: agent.url,
        }]);

        // The list tests the saved record.
        const row = page.locator('li.record[data-record-id="echo"]');
        await row.getByRole("button", { name: "Test Echo" }).click();
        await row.getByRole("status").getByText("Reached Fixture agent", { exact: false })
          .waitFor();
      });

      await test.step("catalogs: an inline catalog lists its components; the standard one is shown", async () => {
        await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", {
          name: "Catalogs",
        }).click();
        await page.getByRole("button", { name: "Add catalog" }).click();
        const form = editor(page);
        await form.getByLabel("Id", { exact: true }).fill("banners");
        await form.getByRole("radio", { name: "Inline JSON" }).check();
        const json = form.getByLabel("Catalog JSON", { exact: true });
        await json.fill("{ not json");
        await form.getByText("not valid JSON", { exact: false }).waitFor();
        await json.fill(JSON.stringify(bannerCatalog(), null, 2));
        await form.getByRole("button", { name: "Preview" }).click();
        const preview = form.getByRole("region", { name: "Catalog preview" });
        await preview.getByText("2 components").waitFor();
        assert.deepEqual(
          await preview.locator("tbody th").evaluateAll((cells) =>
            cells.map((cell) => cell.firstChild?.textContent)
          ),
          ["Banner", "Badge"],
        );
        assert.match(await preview.locator("tbody tr").first().innerText(), /message\*/);
        await form.getByRole("button", { name: "Save" }).click();
        await page.waitForURL(`${ui.base}/settings/catalogs/banners`);
        const saved = await configWhere(t, (c) => (c.catalogs ?? []).length === 1);
        assert.deepEqual(saved.catalogs[0].catalog, bannerCatalog());
        await page.locator('li.record[data-record-id="banners"]').getByText("Banners · inline")
          .waitFor();

        // The standard catalog, read-only; the rendered previews load their own chunk on demand.
        await page.locator(".standard-catalog summary").click();
        const standard = page.getByRole("region", { name: "Standard catalog" });
        await standard.getByText("18 components").waitFor();
        assert.equal(chunks.some((path) => /catalog_preview-/.test(path)), false);
        await page.locator(".standard-catalog").getByRole("button", {
          name: "Show rendered components",
        }).click();
        await page.locator(".standard-catalog .rendered-previews > :not(button):not(.loading)")
          .first().waitFor();
        assert.equal(chunks.some((path) => /catalog_preview-/.test(path)), true);
      });

      await test.step("workspaces: every field is saved and read back; errors show at their field", async () => {
        await page.goto(withToken(ui.base, "/settings/workspaces/w"));
        const form = editor(page);
        await form.getByLabel("Model", { exact: true }).selectOption("demo");
        await form.getByRole("checkbox", { name: "Demo tools" }).check();
        await form.getByRole("checkbox", { name: "pdf-processing" }).check();
        await form.getByLabel("System prompt", { exact: true }).fill("Be brief.");
        await form.getByLabel("Starter prompts", { exact: true }).fill(
          "What tools do you have?\nAdd 2 and 3",
        );
        await form.getByLabel("Ask before every tool call").check();
        await form.getByRole("radio", { name: "Custom" }).check();
        await form.getByLabel("Tool name", { exact: true }).fill("show_ui");
        await form.getByLabel("Every configured catalog (also ones added later)").uncheck();
        await form.getByRole("checkbox", { name: "Banners" }).check();
        await form.getByLabel("Never these components", { exact: true }).fill("Video\nAudioPlayer");
        await form.getByLabel("Repair small mistakes in the model's UI").uncheck();
        await form.getByLabel("Primary color", { exact: true }).fill("#ff5500");
        assert.equal(await form.getByLabel("Primary color (hex)").inputValue(), "#ff5500");
        await form.getByLabel("Agent display name", { exact: true }).fill("Helper");

        // Out of range and malformed values come back from PUT /api/config at their fields.
        await form.getByLabel("Max steps", { exact: true }).fill("0");
        await form.getByLabel("Primary color (hex)").fill("orange");
        await form.getByRole("button", { name: "Save" }).click();
        const steps = form.locator('[data-field="maxSteps"] .field-error');
        await steps.waitFor();
        assert.match(await steps.innerText(), />=\s?1/);
        const color = form.locator('[data-field="primaryColor"] .field-error');
        assert.match(await color.innerText(), /must be a color like #1a73e8/);
        assert.equal(
          await form.getByLabel("Max steps", { exact: true }).getAttribute("aria-invalid"),
          "true",
        );
        assert.equal(
          (await fileConfig(t)).workspaces[0].maxSteps,
          undefined,
          "nothing was written",
        );

        await form.getByLabel("Max steps", { exact: true }).fill("8");
        await form.getByLabel("Primary color", { exact: true }).fill("#ff5500");
        await form.getByRole("button", { name: "Save" }).click();
        const saved = await configWhere(t, (c) => c.workspaces[0].maxSteps === 8);
        assert.deepEqual(saved.workspaces[0], {
          id: "w",
          name: "W",
          mcpServerIds: ["demo"],
          toolServerWaitMs: 60_000,
          llmId: "demo",
          skillIds: ["pdf"],
          systemPrompt: "Be brief.",
          starterPrompts: ["What tools do you have?", "Add 2 and 3"],
          requireApproval: true,
          generativeUi: {
            toolName: "show_ui",
            catalogIds: ["banners"],
            deny: ["Video", "AudioPlayer"],
            repair: false,
            theme: { primaryColor: "#ff5500", agentDisplayName: "Helper" },
          },
          maxSteps: 8,
        });
        await waitForCount(form.locator(".field-error"), 0);
        await screenshot(page, "settings-workspaces");
      });

      await test.step("workspaces: a new one is added and set as active", async () => {
        await page.getByRole("button", { name: "Add workspace" }).click();
        const form = editor(page);
        await form.getByLabel("Id", { exact: true }).fill("second");
        await form.getByLabel("Name", { exact: true }).fill("Second");
        await form.getByRole("radio", { name: "Off" }).check();
        await form.getByRole("button", { name: "Save" }).click();
        await page.waitForURL(`${ui.base}/settings/workspaces/second`);
        const row = page.locator('li.record[data-record-id="second"]');
        assert.equal(await row.locator(".badge-active").count(), 0);
        await row.getByRole("button", { name: "Set Second as active" }).click();
        await row.locator(".badge-active").waitFor();
        const saved = await configWhere(t, (c) => c.activeWorkspaceId === "second");
        assert.equal(saved.workspaces[1].generativeUi, false);
        await waitForCount(page.locator('li.record[data-record-id="w"] .badge-active'), 0);
      });

      await test.step("export: targets, code, copy, download; Escape closes, focus returns", async () => {
        await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
          origin: ui.base,
        });
        const opener = page.getByRole("button", { name: "Export W" });
        await opener.click();
        const dialog = page.getByRole("dialog", { name: "Export W" });
        await dialog.waitFor();
        const target = dialog.getByLabel("Target", { exact: true });
        assert.deepEqual(
          await target.locator("option").evaluateAll((options) =>
            options.map((option) => (option as Json).value)
          ),
          [...EXPORT_TARGETS],
          "the dialog offers exactly the server's targets",
        );
        const code = dialog.getByLabel("Contents of agent.ts");
        await code.waitFor();
        assert.match(await code.innerText(), /streamText/);

        await target.selectOption("service");
        const file = dialog.getByLabel("Contents of service.json");
        await file.waitFor();
        const expected = await (await t.call("/api/export", {
          method: "POST",
          json: { target: "service", workspaceId: "w" },
        })).json();
        assert.equal(await file.textContent(), expected.code);
        assert.deepEqual(JSON.parse(expected.code).workspaces.map((w: Json) => w.id), ["w"]);

        await dialog.getByRole("button", { name: "Copy" }).click();
        await dialog.getByRole("status").getByText("Copied service.json.").waitFor();
        assert.equal(await page.evaluate("navigator.clipboard.readText()"), expected.code);

        const [download] = await Promise.all([
          page.waitForEvent("download"),
          dialog.getByRole("link", { name: "Download" }).click(),
        ]);
        assert.equal(download.suggestedFilename(), "service.json");
        assert.equal(await readFile(await download.path(), "utf8"), expected.code);
        await screenshot(page, "export-dialog");

        await page.keyboard.press("Escape");
        await waitForCount(page.getByRole("dialog"), 0);
        assert.equal(
          await page.evaluate("document.activeElement?.getAttribute('aria-label')"),
          "Export W",
        );
      });

      await test.step("export: the chat page opens the dialog for its workspace", async () => {
        await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Chat" })
          .click();
        await page.getByRole("button", { name: "Export this workspace" }).click();
        const dialog = page.getByRole("dialog", { name: "Export Second" });
        await dialog.waitFor();
        await dialog.getByLabel("Target", { exact: true }).selectOption("mcp-json");
        await dialog.getByLabel("Contents of .mcp.json").waitFor();
        assert.deepEqual(
          JSON.parse(await dialog.getByLabel("Contents of .mcp.json").innerText()),
          { mcpServers: {} },
        );
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          dialog.getByRole("link", { name: "Download" }).click(),
        ]);
        // Chromium drops the leading dot of a download's name; the dialog says to put it back.
        assert.match(download.suggestedFilename(), /^\.?mcp\.json$/);
        const mcpJson = await dialog.getByLabel("Contents of .mcp.json").textContent();
        assert.equal(await readFile(await download.path(), "utf8"), mcpJson);
        await dialog.getByText("rename the download to .mcp.json", { exact: false }).waitFor();
        await dialog.getByRole("button", { name: "Close" }).click();
        await waitForCount(page.getByRole("dialog"), 0);
      });

      // The 400s of the invalid workspace were expected; the browser logs each as a failed load.
      assert.deepEqual(ui.problems.filter((problem) => !/status of 400/.test(problem)), []);
    } finally {
      await ui.close();
      await agent.close();
    }
  },
});
