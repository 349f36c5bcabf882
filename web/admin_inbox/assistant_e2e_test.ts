/**
 * End to end: real headless Chromium drives the Admin Inbox's assistant
 * panel, served with the real API by the in-process dev server (embedded
 * database, seed): a staff member picks a staff agent, taps its options and
 * types to it, and gets answers read as them.
 *
 * Skipped (with the reason printed) where no Chromium is installed, except
 * under `REQUIRE_BROWSER=1` (CI).
 *
 * @module
 */
import { openTestDatabase } from "@testing/db.ts";
import assert from "node:assert/strict";
import { startDevServer } from "../../scripts/dev_server.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { launchChromium, missingBrowserReason } from "./testing_browser.ts";
import axeCore from "axe-core";
import type { Page } from "playwright-core";

const missingBrowser = missingBrowserReason();
if (missingBrowser) console.warn(`Assistant panel browser test skipped: ${missingBrowser}`);

/** WCAG 2.1 A/AA violations axe-core finds on the page as it is now (contrast included). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: (axeCore as unknown as { source: string }).source });
  const result = await page.evaluate(
    "axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] })",
  ) as { violations: Array<{ id: string; help: string; nodes: Array<{ target: unknown }> }> };
  return result.violations.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes[0]?.target)}`);
}

Deno.test({
  name:
    "Admin Inbox assistant panel in headless Chromium: staff pick Locops and ask it, by tap and by words",
  ignore: missingBrowser !== null,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const root = await Deno.makeTempDir({ prefix: "easymo-assistant-e2e-" });
    const server = await startDevServer({
      port: 0,
      root,
      database: await openTestDatabase(),
      log: memoryLogger(),
    });
    const launched = await launchChromium();
    assert.ok(launched, "Chromium vanished after the check");
    try {
      const context = await launched.browser.newContext({
        viewport: { width: 1280, height: 900 },
        // axe-core is injected as an inline script, which the page's CSP refuses.
        bypassCSP: true,
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(String(error)));
      await page.goto(`${server.url}/admin/`);
      await page.getByLabel("Email or phone").fill("jean.staff@easymo.rw");
      await page.getByLabel("Password").fill("easymo-dev");
      await page.getByRole("button", { name: "Sign in" }).click();

      const panel = page.getByRole("region", { name: "Staff assistants" });
      await panel.getByText("Staff desk. Which assistant do you need?").waitFor();
      // The staff agents EasyMO runs, nothing a customer sees.
      await panel.getByRole("button", { name: "Operations (Locops)" }).click();
      await panel.getByText("Locops here. What do you want to check?").waitFor();

      // A tap: the seeded drivers online, by name, read as Jean.
      await panel.getByRole("button", { name: "Drivers online" }).last().click();
      const drivers = panel.getByText(/Drivers online \(\d+\):/);
      await drivers.waitFor();
      assert.match(await drivers.textContent() ?? "", /Emmanuel Habyarimana \(moto\)/);

      // Words: tickets waiting (none on the seed), then back to the menu.
      await panel.getByLabel("Message to the assistant").fill("any tickets waiting?");
      await panel.getByRole("button", { name: "Send" }).click();
      await panel.getByText("No ticket is waiting.").waitFor();
      await panel.getByLabel("Message to the assistant").fill("menu");
      await panel.getByRole("button", { name: "Send" }).click();
      // The menu again, as the last line of the conversation.
      await panel.locator("#assistant-log li").last().getByText("Staff desk. Which assistant")
        .waitFor();
      assert.deepEqual(errors, []);
      // The panel with its conversation and options meets WCAG 2.1 AA.
      assert.deepEqual(await axeViolations(page), []);

      // What the panel did is Jean's: his web conversation, with Locops.
      const [conversation] = await server.runtime.platform.db.query<{ agent_id: string }>(
        `select agent_id from public.conversations
         where user_id = '00000000-0000-4000-8000-000000000002' and channel = 'web'`,
      );
      assert.equal(conversation.agent_id, "locops");
      await context.close();
    } finally {
      await launched.close();
      await server.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});
