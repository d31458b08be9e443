/// <reference lib="dom" />
/**
 * Markdown in answers, in Chromium: lists, tables, code blocks and links become those elements as
 * the answer streams, finished blocks keep their elements, links open in a new tab, and HTML in
 * the text is shown as text, never run; the inspector shows tool descriptions as markdown too.
 */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig, fakeLlm } from "../../_chat.ts";
import { startFakeVendor } from "../../fixtures/fake_vendors.ts";

const ANSWER = [
  "Here is **the plan**:",
  "",
  "- first item",
  "- second item with `code`",
  "",
  "1. one",
  "2. two",
  "",
  "| Name | Value |",
  "| --- | ---: |",
  "| alpha | 1 |",
  "| beta | 2 |",
  "",
  "```ts",
  "const x = 1 < 2;",
  "```",
  "",
  "See [the docs](https://example.com/docs) or <https://example.org/>.",
  "",
  "<script>window.__pwned = 1</script>",
  '<img src="x" onerror="window.__pwned = 2">',
  "",
  "A [bad link](javascript:window.__pwned=3) and AT&amp;T.",
].join("\n");

/** The answer in small pieces, so it arrives over many frames. */
function pieces(text: string, size = 6): string[] {
  return Array.from(
    { length: Math.ceil(text.length / size) },
    (_, i) => text.slice(i * size, (i + 1) * size),
  );
}

/** Records, inside answers, which elements were removed and how many updates there were. */
const WATCH = `(() => {
  const seen = { removed: [], updates: 0 };
  window.__lassMarkdown = seen;
  new MutationObserver((records) => {
    seen.updates++;
    for (const record of records) {
      const target = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      if (!target?.closest(".rich")) continue;
      for (const node of record.removedNodes) if (node.nodeType === 1) seen.removed.push(node.tagName);
    }
  }).observe(document.querySelector(".messages"), {
    childList: true, subtree: true, characterData: true,
  });
})()`;

Deno.test({
  name: "web UI markdown: lists, tables, code and links render while streaming; HTML never runs",
  ignore: skipBrowser,
  fn: async (test) => {
    const fake = await startFakeVendor();
    fake.script([{ text: pieces(ANSWER), chunkDelayMs: 15 }]);
    const ui = await startUi({
      config: chatConfig({
        servers: [],
        llms: [fakeLlm(fake.url)],
        workspace: { llmId: "fake", generativeUi: false },
      }),
    });
    const page = await ui.page();
    try {
      await test.step("the streamed answer renders as markdown, finished blocks kept", async () => {
        await page.goto(withToken(ui.base));
        await page.locator("#composer").waitFor();
        await page.evaluate(WATCH);
        await page.getByLabel("Message", { exact: true }).fill("show me some markdown");
        await page.keyboard.press("Enter");
        await page.locator(".turn-done").waitFor();
        const rich = page.locator(".msg-assistant .rich");
        assert.deepEqual(await rich.locator("ul > li").allInnerTexts(), [
          "first item",
          "second item with code",
        ]);
        assert.equal(await rich.locator("ul code").innerText(), "code");
        assert.deepEqual(await rich.locator("ol > li").allInnerTexts(), ["one", "two"]);
        assert.equal(await rich.locator("p strong").innerText(), "the plan");
        assert.deepEqual(await rich.locator("table th").allInnerTexts(), ["Name", "Value"]);
        assert.deepEqual(await rich.locator("table tbody tr").allInnerTexts(), [
          "alpha\t1",
          "beta\t2",
        ]);
        assert.equal(await rich.locator("table td.align-right").count(), 2);
        assert.equal(await rich.locator("pre.code code").innerText(), "const x = 1 < 2;");
        assert.equal(await rich.locator("pre.code").getAttribute("data-lang"), "ts");
        const links = await rich.locator("a").evaluateAll((anchors) =>
          anchors.map((a) =>
            ["textContent", "href", "target", "rel"].map((name) =>
              name === "textContent" ? a.textContent : a.getAttribute(name)
            )
          )
        );
        assert.deepEqual(links, [
          ["the docs", "https://example.com/docs", "_blank", "noopener noreferrer"],
          ["https://example.org/", "https://example.org/", "_blank", "noopener noreferrer"],
        ]);
        assert.match(await rich.innerText(), /A bad link and AT&T\./);
        const seen = await page.evaluate("window.__lassMarkdown") as {
          removed: string[];
          updates: number;
        };
        assert.ok(seen.updates > 5, `the answer streamed in ${seen.updates} updates`);
        const lost = seen.removed.filter((tag) => ["UL", "OL", "LI", "TABLE", "PRE"].includes(tag));
        assert.deepEqual(lost, [], "finished blocks keep their elements while the answer grows");
        await screenshot(page, "chat-markdown");
      });

      await test.step("HTML in the text is shown as text: no script, no handler, nothing ran", async () => {
        const rich = page.locator(".msg-assistant .rich");
        assert.equal(await page.evaluate("window.__pwned"), undefined);
        assert.equal(await rich.locator("script, img, iframe, [onerror]").count(), 0);
        assert.equal(await page.locator("[onerror]").count(), 0);
        const text = await rich.innerText();
        assert.match(text, /<script>window\.__pwned = 1<\/script>/);
        assert.match(text, /<img src="x" onerror="window\.__pwned = 2">/);
      });

      await test.step("a reopened chat draws the same markdown", async () => {
        await page.waitForURL(/\/chat\/[\w-]+$/);
        await page.reload();
        const rich = page.locator(".msg-assistant .rich");
        await rich.locator("table").waitFor();
        assert.equal(await rich.locator("ul > li").count(), 2);
        assert.equal(await rich.locator("a[target=_blank]").count(), 2);
        assert.equal(await page.evaluate("window.__pwned"), undefined);
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
      await fake.close();
    }
  },
});

Deno.test({
  name: "web UI inspector: a tool's description is markdown (code spans as code, no backticks)",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig() });
    const page = await ui.page();
    page.setDefaultTimeout(20_000);
    try {
      await ui.t.service.mcp.connect("demo");
      await page.goto(withToken(ui.base, "/inspector/demo"));
      await page.getByRole("navigation", { name: "Tools" })
        .getByRole("button", { name: /^slow_count/ }).click();
      const description = page.getByRole("article", { name: "Tool slow_count" })
        .locator(".item-description");
      await description.locator("code", { hasText: "steps" }).first().waitFor();
      assert.deepEqual(await description.locator("code").allInnerTexts(), ["steps", "delayMs"]);
      assert.ok(!(await description.innerText()).includes("`"), "no raw markdown is shown");
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
