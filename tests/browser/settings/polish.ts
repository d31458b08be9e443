/// <reference lib="dom" />
/**
 * Settings in Chromium, the details a first user meets: a pasted command line, the environment a
 * stdio server gets, one "Ask each time", a List models error that goes with its URL, reference
 * errors beside schema errors, the export picker's names, one "Sign up" title, no literal
 * backticks, and an import that names its format and keeps secrets out of the config.
 */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";
import { type Json, post } from "../../_helpers.ts";
import { configWhere, editor } from "../../_settings.ts";

Deno.test({
  name: "web UI settings polish: command lines, env, selects, stale errors, names, import secrets",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: chatConfig({ workspace: { llmId: "demo" } }) });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    const { t } = ui;
    const optionLabels = (select: ReturnType<typeof page.locator>) =>
      select.locator("option").allInnerTexts();
    try {
      await test.step("a pasted command line is split into command and arguments, with a note", async () => {
        await page.goto(withToken(ui.base, "/settings/servers"));
        await page.getByRole("button", { name: "Add tool server" }).click();
        const form = editor(page);
        await form.getByLabel("Id", { exact: true }).fill("scoped");
        await form.getByLabel("Name", { exact: true }).fill("Scoped");
        const command = form.getByLabel("Command", { exact: true });
        await command.focus();
        await page.evaluate(() => {
          const data = new DataTransfer();
          data.setData("text/plain", "npx -y @scope/server --flag 'two words'");
          document.activeElement!.dispatchEvent(
            new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
          );
        });
        assert.equal(await command.inputValue(), "npx");
        const args = form.getByLabel("Arguments", { exact: true });
        assert.equal(await args.inputValue(), "-y\n@scope/server\n--flag\ntwo words");
        const note = form.locator(".split-note");
        assert.match(
          await note.innerText(),
          /Split the pasted command line into the command npx and 4 arguments/,
        );
        // Undo puts the line back as it was pasted, then typing it and leaving the field splits it.
        await note.getByRole("button", { name: "Undo" }).click();
        assert.equal(await command.inputValue(), "");
        assert.equal(await args.inputValue(), "");
        await command.fill("uvx mcp-server-git --repository .");
        await command.press("Tab");
        assert.equal(await command.inputValue(), "uvx");
        assert.equal(await args.inputValue(), "mcp-server-git\n--repository\n.");
        await screenshot(page, "settings-command-split");
        await form.getByRole("button", { name: "Save" }).click();
        const saved = await configWhere(t, (c) => c.mcpServers.length === 2);
        assert.deepEqual(saved.mcpServers[1], {
          id: "scoped",
          name: "Scoped",
          transport: "stdio",
          command: "uvx",
          args: ["mcp-server-git", "--repository", "."],
        });
      });

      await test.step("the stdio editor says which variables the process gets and passes named ones; selects list each choice once", async () => {
        const form = editor(page);
        assert.match(
          await form.locator(".env-explained").innerText(),
          /does not get Lass's whole environment: only HOME, LOGNAME, PATH, SHELL, TERM and\s+USER/,
        );
        // Named variables pass through (inheritEnv); saving keeps them with the record.
        await form.getByLabel("Pass through from Lass's environment", { exact: true })
          .fill("GITHUB_TOKEN\nHTTPS_PROXY");
        await form.getByRole("button", { name: "Save" }).click();
        const saved = await configWhere(t, (c) => c.mcpServers[1].inheritEnv !== undefined);
        assert.deepEqual(saved.mcpServers[1].inheritEnv, ["GITHUB_TOKEN", "HTTPS_PROXY"]);
        const sampling = await optionLabels(form.getByLabel("Sampling requests", { exact: true }));
        assert.deepEqual(sampling, [
          "Ask each time (default)",
          "Answer with the model without asking",
          "Refuse",
        ]);
        const calls = await optionLabels(form.getByLabel("Tool calls", { exact: true }));
        assert.deepEqual(calls, ["Run without asking (default)", "Ask before each call"]);
      });

      await test.step("List models: one model is 1 model; its error goes when the URL changes; an env reference as the key is shown", async () => {
        await page.goto(withToken(ui.base, "/settings/models/new"));
        const form = editor(page);
        await form.getByLabel("Provider", { exact: true }).selectOption("compatible-api");
        await form.getByLabel("Id", { exact: true }).fill("local");
        await form.getByLabel("Model", { exact: true }).fill("demo");
        await form.getByLabel("Base URL").fill("service:demo");
        // An env reference is no secret: the API key field shows it; a literal key stays masked.
        const key = form.getByLabel("API key");
        await key.fill("env:OPENAI_API_KEY");
        assert.equal(await key.getAttribute("type"), "text");
        await key.fill("sk-literal-key");
        assert.equal(await key.getAttribute("type"), "password");
        await key.fill("");
        await form.getByRole("button", { name: "List models" }).click();
        await form.getByText("1 model. Pick one to put it in the Model field.").waitFor();
        await form.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
        await form.getByRole("button", { name: "List models" }).click();
        const error = form.locator(".model-list .error");
        await error.getByText("cannot reach http://127.0.0.1:9/v1").waitFor();
        await form.getByLabel("Base URL").fill("http://127.0.0.1:10/v1");
        await error.waitFor({ state: "detached" });
        assert.equal(await form.locator(".model-list").count(), 0);
      });

      await test.step("the raw config lists reference errors with the schema errors", async () => {
        await page.goto(withToken(ui.base, "/settings/config"));
        const area = page.getByLabel("Config (JSON)");
        const config = JSON.parse(await area.inputValue());
        config.llms[0].temperature = "hot";
        config.workspaces[0].llmId = "nope";
        config.workspaces[0].mcpServerIds = ["demo", "ghost"];
        await area.fill(JSON.stringify(config, null, 2));
        await page.getByRole("button", { name: "Save" }).click();
        const problems = page.getByRole("list", { name: "Problems" });
        await problems.waitFor();
        const items = await problems.locator("li code").allInnerTexts();
        assert.deepEqual(items, [
          "llms.0.temperature",
          "workspaces.0.llmId",
          "workspaces.0.mcpServerIds.1",
        ]);
        assert.match(await problems.innerText(), /no llms record has id "nope"/);
        await page.getByText("Not saved: the config has 3 problems.").waitFor();
      });

      await test.step("the export picker names its targets for people", async () => {
        await page.goto(withToken(ui.base, "/settings/workspaces"));
        await page.getByRole("button", { name: "Export W" }).click();
        const dialog = page.getByRole("dialog", { name: "Export W" });
        const target = dialog.getByLabel("Target", { exact: true });
        // The targets arrive from the server after the dialog opens.
        await target.locator("option", { hasText: "Lass config" }).waitFor({ state: "attached" });
        assert.deepEqual(await optionLabels(target), [
          "AI SDK script",
          "LangGraph agent",
          "Claude Code mcp.json",
          "Lass config",
        ]);
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });
      });

      await test.step("the sign-up example shows its title once", async () => {
        await page.goto(withToken(ui.base, "/playground"));
        const rendering = page.locator(".playground-rendering");
        await rendering.getByText("Create account").waitFor();
        assert.equal(await rendering.getByText("Sign up", { exact: true }).count(), 1);
      });

      await test.step("code in the server's sentences is drawn as code, without backticks", async () => {
        // The demo model's answer has `demo__add` in it: the event list shows it without marks.
        const turn = await t.call("/api/chat", {
          method: "POST",
          json: { messages: [{ role: "user", content: "please add 2 and 3" }], workspaceId: "w" },
        });
        await turn.text();
        await page.goto(withToken(ui.base, "/events"));
        const finish = page.locator('li.event-row[data-type="chat.finish"] .event-summary');
        await finish.getByText("demo__add", { exact: false }).waitFor();
        assert.doesNotMatch(await finish.innerText(), /`/);
        // A skill's warnings name its fields as code.
        await page.goto(withToken(ui.base, "/settings/skills"));
        await page.getByRole("button", { name: "Add skill" }).click();
        const form = editor(page);
        await form.getByLabel("Id", { exact: true }).fill("notes");
        await form.getByRole("radio", { name: "Inline SKILL.md" }).check();
        await form.getByLabel("SKILL.md", { exact: true }).fill(
          "---\nname: notes\ndescription: Take notes.\ncolour: blue\n---\nWrite them down.",
        );
        await form.getByRole("button", { name: "Preview" }).click();
        const warnings = form.getByRole("list", { name: "Warnings" });
        await warnings.locator("code").getByText("colour", { exact: true }).waitFor();
        assert.doesNotMatch(await warnings.innerText(), /`/);
      });

      await test.step("import names Claude Desktop and keeps its secrets as env references", async () => {
        await page.goto(withToken(ui.base, "/settings/servers"));
        await page.getByRole("button", { name: "Import…" }).click();
        const dialog = page.getByRole("dialog", { name: "Import tool servers" });
        await dialog.getByLabel("Client config").fill(JSON.stringify({
          globalShortcut: "",
          mcpServers: {
            search: {
              command: "npx",
              args: ["-y", "search-server"],
              env: { SEARCH_API_KEY: "sk-live-123", DEBUG: "1" },
            },
            notes: {
              url: "https://notes.example.com/mcp",
              headers: { Authorization: "Bearer abc123" },
            },
          },
        }));
        await dialog.getByRole("button", { name: "Preview" }).click();
        const preview = dialog.getByRole("region", { name: "Import preview" });
        await preview.getByText("Read as Claude Desktop: 2 servers.").waitFor();
        assert.match(
          await preview.getByRole("status").innerText(),
          /Cursor.* files of this shape read the same\.$/,
        );
        const secrets = preview.locator(".import-secrets");
        assert.match(await secrets.innerText(), /search: env SEARCH_API_KEY → env:SEARCH_API_KEY/);
        assert.match(
          await secrets.innerText(),
          /notes: header Authorization → Bearer \$\{NOTES_TOKEN\}/,
        );
        assert.match(
          await secrets.innerText(),
          /Then set SEARCH_API_KEY and NOTES_TOKEN in Lass's environment/,
        );
        // The same warnings are not listed twice.
        assert.equal(await preview.locator(".import-warnings").count(), 2);
        assert.doesNotMatch(
          await preview.locator(".import-warnings").first().innerText(),
          /literal secret/,
        );
        const keep = secrets.getByLabel("Keep them out of the config: add the references instead");
        assert.equal(await keep.isChecked(), true);
        await screenshot(page, "settings-import-secrets");
        await dialog.getByRole("button", { name: "Add 2 servers" }).click();
        await dialog.waitFor({ state: "hidden" });
        const stored = await configWhere(t, (c) => c.mcpServers.length === 4);
        const byId = Object.fromEntries(stored.mcpServers.map((s: Json) => [s.id, s]));
        assert.deepEqual(byId.search.env, { SEARCH_API_KEY: "env:SEARCH_API_KEY", DEBUG: "1" });
        assert.deepEqual(byId.notes.headers, { Authorization: "Bearer ${NOTES_TOKEN}" });
        assert.doesNotMatch(JSON.stringify(stored), /sk-live-123|abc123/);
        // The import route itself still reports what the file said.
        const answer = await post(t, "/api/mcp/import", {
          json: JSON.stringify({ mcpServers: { s: { command: "x", env: { TOKEN: "t0k" } } } }),
        });
        assert.equal(answer.body.servers[0].env.TOKEN, "t0k");
      });

      assert.deepEqual(ui.problems.filter((problem) => !/status of 400/.test(problem)), []);
    } finally {
      await ui.close();
    }
  },
});
