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
import assert from "node:assert/strict";
import { adminInboxTest, axeViolations, signIn } from "@testing/admin_inbox_browser.ts";

adminInboxTest(
  "Admin Inbox assistant panel in headless Chromium: staff pick Locops and ask it, by tap and by words",
  { label: "Assistant panel browser test" },
  async ({ server, open }) => {
    // axe-core is injected as an inline script, which the page's CSP refuses.
    const { page, errors } = await open({ bypassCSP: true });
    await signIn(page);

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
  },
);
