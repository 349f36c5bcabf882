/**
 * The Admin Inbox's browser tests' one setup: the in-process dev server over
 * a fresh seeded PGlite in its own data root, headless Chromium
 * (`testing/browser.ts`), a page on `/admin/` collecting its errors, staff
 * sign-in, axe-core's WCAG check, and everything closed afterwards. Each
 * test file brings only what it checks.
 *
 * Tests are skipped (with the reason printed once) where no Chromium is
 * installed, except under `REQUIRE_BROWSER=1` (CI), where that fails.
 *
 * @module
 */
import assert from "node:assert/strict";
import axeCore from "axe-core";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { memoryLogger } from "@shared/runtime/log.ts";
import { openTestDatabase } from "@testing/db.ts";
import { type DevServer, startDevServer } from "../scripts/dev_server.ts";
import { launchChromium, missingBrowserReason } from "./browser.ts";

/** The seeded staff member's login and the seed's dev password. */
export const STAFF_LOGIN = { login: "jean.staff@easymo.rw", password: "easymo-dev" } as const;

/** A desktop window, the size most checks use. */
export const DESKTOP = { width: 1280, height: 900 } as const;

/** A 1×1 PNG, as a photo a phone sent. */
export const PNG_1X1: Uint8Array = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

/** The smallest PDF a viewer opens. */
export const PDF_MINIMAL: Uint8Array = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");

/** A page on the Admin Inbox. */
export interface InboxPage {
  /** Its browser context (its own cookies and storage). */
  context: BrowserContext;
  /** The page, at `/admin/`. */
  page: Page;
  /** Uncaught errors the page threw. */
  errors: string[];
}

/** Options for {@link AdminInbox.open}. */
export interface OpenOptions {
  /** The window. @default DESKTOP */
  viewport?: { width: number; height: number };
  /**
   * Bypass the page's CSP, so axe-core can be injected as an inline script
   * (only for that: otherwise the page runs under its own policy). @default false
   */
  bypassCSP?: boolean;
}

/** What a browser test gets: the server, the browser, and pages on the inbox. */
export interface AdminInbox {
  /** The dev server (its runtime, database and URL). */
  server: DevServer;
  /** The browser. */
  browser: Browser;
  /** Opens `/admin/` in a new context. */
  open(options?: OpenOptions): Promise<InboxPage>;
}

/** Signs in on the inbox's form (the seeded staff member unless told). */
export async function signIn(
  page: Page,
  login: string = STAFF_LOGIN.login,
  password: string = STAFF_LOGIN.password,
): Promise<void> {
  await page.getByLabel("Email or phone").fill(login);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The rules axe-core checks: WCAG 2.1 A and AA (contrast included). */
export const WCAG_21_AA: readonly string[] = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * The accessibility violations axe-core finds on the page as it is now, as
 * `<rule>: <help> <first target>`; within one element when `selector` is given.
 */
export async function axeViolations(
  page: Page,
  options: { selector?: string; rules?: readonly string[] } = {},
): Promise<string[]> {
  await page.addScriptTag({ content: (axeCore as unknown as { source: string }).source });
  const within = options.selector
    ? `document.querySelector(${JSON.stringify(options.selector)})`
    : "document";
  const result = await page.evaluate(
    `axe.run(${within}, { runOnly: ${JSON.stringify(options.rules ?? WCAG_21_AA)} })`,
  ) as { violations: Array<{ id: string; help: string; nodes: Array<{ target: unknown }> }> };
  return result.violations.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes[0]?.target)}`);
}

/** Options for {@link adminInboxTest}. */
export interface AdminInboxTestOptions {
  /** What the skip notice calls these tests. */
  label: string;
}

/**
 * Registers a browser test of the Admin Inbox: `fn` gets a running dev
 * server and browser; both, every context, and the data root are closed
 * after it, whatever it did.
 */
export function adminInboxTest(
  name: string,
  options: AdminInboxTestOptions,
  fn: (inbox: AdminInbox, t: Deno.TestContext) => Promise<void>,
): void {
  // Throws under REQUIRE_BROWSER=1 when Chromium is missing: CI cannot skip silently.
  const missing = missingBrowserReason();
  if (missing) console.warn(`${options.label} skipped: ${missing}`);
  Deno.test({
    name,
    ignore: missing !== null,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn(t) {
      const root = await Deno.makeTempDir({ prefix: "easymo-admin-e2e-" });
      const server = await startDevServer({
        port: 0,
        root,
        database: await openTestDatabase(),
        log: memoryLogger(),
      });
      const launched = await launchChromium();
      try {
        assert.ok(launched, "Chromium vanished after the check");
        const { browser } = launched;
        await fn({
          server,
          browser,
          async open(openOptions = {}) {
            const context = await browser.newContext({
              viewport: openOptions.viewport ?? DESKTOP,
              bypassCSP: openOptions.bypassCSP ?? false,
            });
            const page = await context.newPage();
            const errors: string[] = [];
            page.on("pageerror", (error) => errors.push(String(error)));
            await page.goto(`${server.url}/admin/`);
            return { context, page, errors };
          },
        }, t);
      } finally {
        await launched?.close();
        await server.close();
        await Deno.remove(root, { recursive: true }).catch(() => {});
      }
    },
  });
}
