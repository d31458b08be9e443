/**
 * Browser test helpers: Debian's Chromium driven by playwright-core (never a downloaded browser),
 * against a real Lass handler on `Deno.serve` port 0 with the demo model and tool server.
 *
 * Without /usr/bin/chromium the browser tests are skipped with a message, unless
 * LASS_REQUIRE_BROWSER is set (CI sets it after installing Chromium): then they fail.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from "playwright-core";
import { createHandler } from "../routes/app.ts";
import { createSandboxHandler } from "../routes/sandbox.ts";
import { buildUi } from "../scripts/build_ui.ts";
import { type StartOptions, startService, type TestService, TOKEN } from "./_helpers.ts";

/**
 * Debian's Chromium headless shell (package `chromium-headless-shell`), else Debian's `chromium`.
 * The shell is the same Chromium build without the browser's UI, as Playwright uses for headless
 * runs: a browser test file took 20–37% less CPU with it, the same tests passing.
 */
export const CHROMIUM = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"]
  .find((path) => existsSync(path)) ?? "/usr/bin/chromium-headless-shell";

/** Whether the browser tests are skipped: no Chromium, and nobody asked for them. */
export const skipBrowser = !existsSync(CHROMIUM) && !Deno.env.get("LASS_REQUIRE_BROWSER");

if (skipBrowser) {
  console.warn(
    `skipping the browser tests: ${CHROMIUM} is not installed ` +
      "(apt-get install -y chromium-headless-shell; " +
      "set LASS_REQUIRE_BROWSER=1 to make a missing browser a failure)",
  );
}

/** Where screenshots go (git-ignored). */
export const ARTIFACTS = new URL("../test-artifacts/ui/", import.meta.url);

/** The flags of the machine notes: no GPU, no QUIC, nothing in the background. */
const ARGS = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Options of a harness's context: Playwright's, and whether its pages' errors are problems. */
export type ContextOptions = BrowserContextOptions & { watched?: boolean };

/** A Lass handler on a real port, a browser, and what the tests check on every page. */
export interface UiHarness {
  t: TestService;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The MCP Apps sandbox port's origin, `http://127.0.0.1:<another port>` (as `main.ts` runs it). */
  sandboxBase: string;
  /**
   * A fresh browser context (its own sessionStorage), light and 1280×800 unless `options` say
   * otherwise, its pages watched for page errors and console errors unless `watched: false`
   * (a test that provokes an error the browser logs). The harness closes it.
   */
  context(options?: ContextOptions): Promise<BrowserContext>;
  /** A page in a fresh context. */
  page(options?: ContextOptions): Promise<Page>;
  /** Page errors, failed requests and CSP violations seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with its config and cache under `home` (a temp folder). */
export async function launchChromium(home: string): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    env: {
      ...Deno.env.toObject(),
      XDG_CONFIG_HOME: join(home, "config"),
      XDG_CACHE_HOME: join(home, "cache"),
    },
  });
}

/** The browser a group of test modules shares (see {@link openSharedBrowser}). */
let shared: { browser: Browser; home: string } | undefined;

/**
 * Starts one Chromium for every `startUi` of this test module graph: a group file
 * (`tests/browser/*_test.ts`) calls it at its top level, before any test runs, so Deno's
 * sanitizers count the browser as there before each test, and ends with
 * {@link closeSharedBrowser}. Each test still gets its own contexts. A module run alone, without
 * its group, gets a browser of its own per `startUi`.
 */
export async function openSharedBrowser(): Promise<void> {
  if (skipBrowser || shared) return;
  const home = await mkdtemp(join(tmpdir(), "lass-chromium-"));
  shared = { browser: await launchChromium(home), home };
}

/**
 * Closes the shared browser, failing if a test left a context open in it (the harness closes
 * the contexts it made; one made some other way would leak into the next test).
 */
export async function closeSharedBrowser(): Promise<void> {
  if (!shared) return;
  const { browser, home } = shared;
  shared = undefined;
  const left = browser.contexts().length;
  await browser.close();
  await rm(home, { recursive: true, force: true });
  if (left > 0) throw new Error(`${left} browser context(s) were left open by the group's tests`);
}

/** Builds the UI if needed, starts the service and the browser (or takes the shared one). */
export async function startUi(options: StartOptions = {}): Promise<UiHarness> {
  await buildUi({ ifStale: true });
  const t = await startService(options);
  // As main.ts does: the app and the MCP Apps sandbox on two ports, each knowing the other's.
  let appPort = 0;
  const sandbox = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    createSandboxHandler({ appOrigin: (url) => `${url.protocol}//${url.hostname}:${appPort}` }),
  );
  const handler = createHandler({
    service: t.service,
    token: TOKEN,
    heartbeatMs: options.heartbeatMs,
    log: () => {},
    sandboxOrigin: (url) => `${url.protocol}//${url.hostname}:${sandbox.addr.port}`,
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  appPort = server.addr.port;
  const own = shared ? undefined : await mkdtemp(join(tmpdir(), "lass-chromium-"));
  let browser: Browser;
  try {
    browser = shared?.browser ?? await launchChromium(own!);
  } catch (error) {
    await server.shutdown();
    await sandbox.shutdown();
    await t.close();
    if (own) await rm(own, { recursive: true, force: true });
    throw error;
  }
  const problems: string[] = [];
  const contexts: BrowserContext[] = [];
  const context = async ({ watched = true, ...contextOptions }: ContextOptions = {}) => {
    const created = await browser.newContext({
      colorScheme: "light",
      viewport: { width: 1280, height: 800 },
      ...contextOptions,
    });
    contexts.push(created);
    if (watched) created.on("page", (page) => watchForProblems(page, problems));
    return created;
  };
  return {
    t,
    base: `http://127.0.0.1:${server.addr.port}`,
    sandboxBase: `http://127.0.0.1:${sandbox.addr.port}`,
    context,
    page: async (pageOptions) => await (await context(pageOptions)).newPage(),
    problems,
    close: async () => {
      for (const created of contexts) await created.close().catch(() => {});
      if (own) await browser.close();
      await server.shutdown();
      await sandbox.shutdown();
      await t.close();
      if (own) await rm(own, { recursive: true, force: true });
    },
  };
}

/**
 * Collects a page's errors and console errors into `problems` (besides the 401 of a page opened
 * with a wrong token on purpose, `?token=wrong…`).
 */
export function watchForProblems(page: Page, problems: string[]): void {
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    const text = message.text();
    if (message.type() === "error" && !/[?&]token=(wrong|old)-token/.test(message.location().url)) {
      problems.push(`console error: ${text}`);
    }
  });
}

/** The startup URL of a path: with the token. */
export function withToken(base: string, path = "/"): string {
  return `${base}${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(TOKEN)}`;
}

/** Saves a full-page screenshot as `test-artifacts/ui/<name>.png`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });
}

/** The token this tab keeps in `sessionStorage`. */
export async function storedToken(page: Page): Promise<string | null> {
  return await page.evaluate("sessionStorage.getItem('lass.token')") as string | null;
}

/**
 * Waits until `locator` matches `count` elements. (`waitForFunction` with a string would need
 * `unsafe-eval`, which the page's CSP rightly refuses.)
 */
export async function waitForCount(locator: Locator, count: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  let seen = await locator.count();
  while (seen !== count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} elements, found ${seen}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await locator.count();
  }
}
