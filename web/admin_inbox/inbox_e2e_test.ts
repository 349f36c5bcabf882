/**
 * End to end: real headless Chromium drives the real Admin Inbox page, served
 * with the real API by the in-process dev server (embedded database, seed).
 *
 * Skipped (with the reason printed) where no Chromium is installed, except
 * under `REQUIRE_BROWSER=1` (CI), where a missing browser fails the run.
 * Install it with `scripts/ci/install_chromium.sh`.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  adminInboxTest,
  axeViolations,
  PDF_MINIMAL as PDF,
  PNG_1X1 as PNG,
  signIn,
} from "@testing/admin_inbox_browser.ts";
import type { DevServer } from "../../scripts/dev_server.ts";
import { LOCAL_PHONE_NUMBER_ID, localWhatsAppSecrets } from "../../scripts/_local_secrets.ts";
import { LOCAL_GRAPH_PREFIX, uploadMedia } from "@shared/channels/whatsapp/local_media.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";

const EASYMO = "a0000000-0000-4000-8000-000000000001";
const ALINE = { id: "00000000-0000-4000-8000-000000000001", waId: "250788000001" };
const PHONE = { width: 390, height: 844 };
const SESSION_KEY = "easymo.admin_inbox.session";

/** Waits for `probe` to answer something (the dev server works in the background). */
async function eventually<T>(what: string, probe: () => Promise<T | null | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function escapeRegExp(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
}

/** Aline writes on WhatsApp: a signed delivery to the real webhook. Answers her conversation id. */
async function alineWrites(server: DevServer, text: string): Promise<string> {
  const body = new TextEncoder().encode(
    JSON.stringify(messageDelivery({ from: ALINE.waId, name: "Aline Uwase" }, { text })),
  );
  const { appSecret } = localWhatsAppSecrets(server.runtime.platform.secret);
  const response = await fetch(`${server.url}/functions/v1/wa-webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-hub-signature-256": await signBody(appSecret, body),
    },
    body,
  });
  await response.body?.cancel();
  assert.equal(response.status, 200);
  return await eventually("Aline's message in her conversation", async () => {
    const [row] = await server.runtime.platform.db.query<{ id: string }>(
      `select c.id from public.conversations c
       join public.messages m on m.conversation_id = c.id
       where c.user_id = $1 and m.body = $2 limit 1`,
      [ALINE.id, text],
    );
    return row?.id;
  });
}

/** Aline sends a location or a file: a signed delivery to the real webhook. */
async function alineSends(server: DevServer, content: SimulatedContent): Promise<void> {
  const body = new TextEncoder().encode(
    JSON.stringify(messageDelivery({ from: ALINE.waId, name: "Aline Uwase" }, content)),
  );
  const { appSecret } = localWhatsAppSecrets(server.runtime.platform.secret);
  const response = await fetch(`${server.url}/functions/v1/wa-webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-hub-signature-256": await signBody(appSecret, body),
    },
    body,
  });
  await response.body?.cancel();
  assert.equal(response.status, 200);
}

/** Uploads a file to the dev server's local Graph media endpoints, as Aline's phone does. */
function alineUploads(
  server: DevServer,
  file: { bytes: Uint8Array; mimeType: string; filename: string },
): Promise<string> {
  return uploadMedia({
    baseUrl: `${server.url}${LOCAL_GRAPH_PREFIX}`,
    phoneNumberId: LOCAL_PHONE_NUMBER_ID,
    token: localWhatsAppSecrets(server.runtime.platform.secret).mediaToken,
    ...file,
  });
}

/** Raises a ticket through the real `notify_staff` tool, as the assistant does for Aline. */
async function raiseTicket(
  server: DevServer,
  payload: {
    reason: string;
    summary: string;
    priority: string;
    convo_id?: string;
    agent_id?: string;
  },
  channel: "inbox" | "slack" | "sms" = "inbox",
): Promise<string> {
  const result = await server.runtime.platform.call({
    tool: "notify_staff",
    args: { channel, payload },
    caller: { claims: { sub: ALINE.id, role: "authenticated" }, org_id: EASYMO },
    idempotencyKey: crypto.randomUUID(),
  });
  assert.ok(result.ok, JSON.stringify(result));
  return (result.data as { ticket_id: string }).ticket_id;
}

/** Whether the page is wider than the viewport (horizontal scrolling). */
async function scrollWidth(page: Page): Promise<number> {
  return Number(await page.evaluate("document.scrollingElement.scrollWidth"));
}

adminInboxTest(
  "Admin Inbox in headless Chromium: live queue, claim, note, WhatsApp reply; tenants apart",
  { label: "Admin Inbox browser tests" },
  async ({ server, open }, t) => {
    // Screenshots stay for people to look at: $INBOX_SCREENSHOT_DIR (CI artifact) or a temp dir.
    const shots = Deno.env.get("INBOX_SCREENSHOT_DIR") ||
      await Deno.makeTempDir({ prefix: "easymo-inbox-shots-" });
    await Deno.mkdir(shots, { recursive: true });
    let easymoTicket = "";
    await t.step("EasyMO staff work a ticket live, and the reply reaches WhatsApp", async () => {
      const said = "Muraho, I need help with my order";
      const convoId = await alineWrites(server, said);
      const { context, page, errors } = await open({ viewport: { width: 1280, height: 800 } });
      try {
        await signIn(page, "jean.staff@easymo.rw");
        await page.getByRole("heading", { name: "Queue" }).waitFor();
        await page.getByText(/\d+ open · \d+ claimed · \d+ resolved today/).waitFor();

        // Raised after the page loaded: it must arrive through live polling.
        const reason = `Aline asked for a person ${crypto.randomUUID().slice(0, 8)}`;
        easymoTicket = await raiseTicket(server, {
          reason,
          summary: "Her pharmacy order has not arrived; she wants to talk to someone.",
          priority: "high",
          convo_id: convoId,
          // The agent she was with (the assistant passes its own): the card names it.
          agent_id: "pharmacy",
        });
        const item = page.getByRole("navigation", { name: "Queue" })
          .getByRole("link", { name: escapeRegExp(reason) });
        await item.waitFor();
        const text = await item.textContent() ?? "";
        // Triage from the card: what she needs, her last words, the agent she was with, her
        // language, the channels.
        for (
          const shown of [
            "High",
            "Her pharmacy order has not arrived",
            said,
            "Pharmacy · English · Inbox",
            "Aline Uwase",
            "24 h window open",
            "Unassigned",
          ]
        ) {
          assert.ok(text.includes(shown), `ticket item shows ${shown}: ${text}`);
        }
        await page.locator('[aria-live="polite"]', { hasText: reason }).waitFor({
          state: "attached",
        });

        // An urgent ticket also goes by SMS and Slack, and is still in the Inbox: the
        // Inbox filter shows it.
        await page.getByLabel("Channel").selectOption("inbox");
        const urgent = `Aline reports a theft ${crypto.randomUUID().slice(0, 8)}`;
        const urgentId = await raiseTicket(server, {
          reason: urgent,
          summary: "Reported: someone stole my phone",
          priority: "urgent",
          convo_id: convoId,
        }, "sms");
        const urgentItem = page.getByRole("navigation", { name: "Queue" })
          .getByRole("link", { name: escapeRegExp(urgent) });
        await urgentItem.waitFor();
        const urgentText = await urgentItem.textContent() ?? "";
        for (
          const shown of ["Urgent", "Reported: someone stole my phone", said, "Inbox, Slack, SMS"]
        ) {
          assert.ok(
            urgentText.includes(shown),
            `urgent ticket item shows ${shown}: ${urgentText}`,
          );
        }
        await item.waitFor();
        await page.getByLabel("Channel").selectOption("");
        // Out of the way of the steps below, which count the queue.
        await server.runtime.platform.db.query(
          "update public.staff_tickets set status = 'resolved', resolved_at = now() where id = $1",
          [urgentId],
        );
        await urgentItem.waitFor({ state: "detached" });

        // Keyboard: Enter on the focused item opens it.
        await item.focus();
        await page.keyboard.press("Enter");
        const detail = page.getByRole("article", { name: reason });
        await detail.getByRole("heading", { level: 2, name: reason }).waitFor();
        await page.getByRole("list", { name: "Conversation" }).getByText(said, { exact: true })
          .waitFor();
        const reply = page.getByLabel("Reply", { exact: true });
        assert.equal(await reply.isDisabled(), true, "reply is disabled until claimed");
        await detail.getByText("Claim this ticket to reply.").waitFor();
        assert.equal(await page.getByText("Outside 24 h window").count(), 0);

        await detail.getByRole("button", { name: "Claim" }).click();
        await detail.getByText("Claimed by you").waitFor();
        await detail.getByRole("button", { name: "Release" }).waitFor();
        await page.getByText("0 open · 1 claimed").waitFor();

        const note = "Called the pharmacy: the rider is on the way.";
        await page.getByLabel("New note (staff only)").fill(note);
        await page.getByRole("button", { name: "Add note" }).click();
        await page.getByRole("list", { name: "Internal notes" }).getByText(note).waitFor();
        await page.getByRole("list", { name: "Internal notes" }).getByText("Jean Habimana")
          .waitFor();

        const answer = "Muraho Aline, we are on it";
        await reply.fill(answer); // waits until claiming enabled it
        await page.getByRole("button", { name: "Send reply" }).click();
        await page.getByRole("list", { name: "Conversation" }).getByText(answer, { exact: true })
          .waitFor();
        const sent = await server.runtime.platform.db.query<{ to_wa_id: string }>(
          `select to_wa_id from public.wa_outbox
           where to_wa_id = $1 and position($2 in body::text) > 0`,
          [ALINE.waId, answer],
        );
        assert.equal(sent.length, 1, "exactly one WhatsApp message carries the reply");
        await page.evaluate("scrollTo(0, 0)");
        await page.screenshot({ path: `${shots}/inbox-1280-detail.png`, fullPage: true });

        // Escape goes back to the list, focus on the ticket it came from.
        await page.getByRole("button", { name: "Send reply" }).focus();
        await page.keyboard.press("Escape");
        await page.getByText("Select a ticket in the queue").waitFor();
        assert.equal(
          await page.evaluate("document.activeElement.getAttribute('href')"),
          `#/tickets/${easymoTicket}`,
        );

        // Phone: one column, no sideways scrolling, a back button from the ticket.
        await page.setViewportSize(PHONE);
        await item.waitFor();
        assert.ok(await scrollWidth(page) <= PHONE.width, "no horizontal scroll (list)");
        await page.screenshot({ path: `${shots}/inbox-390-list.png` });
        await item.click();
        await page.getByRole("button", { name: "Back to queue" }).waitFor();
        await page.getByRole("list", { name: "Conversation" }).getByText(answer, { exact: true })
          .waitFor();
        assert.equal(await item.isVisible(), false, "the list hides behind the ticket");
        assert.ok(await scrollWidth(page) <= PHONE.width, "no horizontal scroll (ticket)");
        await page.screenshot({ path: `${shots}/inbox-390-detail.png`, fullPage: true });
        await page.getByRole("button", { name: "Back to queue" }).click();
        await item.waitFor();
        console.log(`Admin Inbox screenshots: ${shots}`);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });

    await t.step("Beaver staff see none of EasyMO's tickets", async () => {
      const hidden = easymoTicket || await raiseTicket(server, {
        reason: "EasyMO only",
        summary: "Must not be seen by another org.",
        priority: "urgent",
      });
      const { context, page, errors } = await open({ viewport: PHONE });
      try {
        await signIn(page, "+250788000010", "wrong password");
        await page.getByRole("alert").getByText("Wrong email, phone or password.").waitFor();
        await page.screenshot({ path: `${shots}/inbox-390-signin-error.png` });

        await signIn(page, "+250788000010");
        await page.getByText("No tickets in this view.").waitFor();
        await page.getByText("0 open · 0 claimed · 0 resolved today").waitFor();
        assert.equal(await page.getByRole("navigation").getByRole("link").count(), 0);
        await page.screenshot({ path: `${shots}/inbox-390-empty.png` });

        const token = await page.evaluate(
          `JSON.parse(sessionStorage.getItem(${JSON.stringify(SESSION_KEY)})).accessToken`,
        );
        assert.equal(typeof token, "string");
        const response = await fetch(
          `${server.url}/functions/v1/admin-messages/tickets/${hidden}`,
          { headers: { authorization: `Bearer ${token}` } },
        );
        assert.equal(response.status, 404);
        assert.equal((await response.json()).error.code, "NOT_FOUND");

        // The page says so too when opened at that ticket's address.
        await page.goto(`${server.url}/admin/#/tickets/${hidden}`);
        await page.getByRole("heading", { name: "Ticket not found" }).waitFor();

        await page.getByRole("button", { name: "Sign out" }).click();
        await page.getByRole("heading", { name: "Sign in" }).waitFor();
        assert.equal(await page.evaluate(`sessionStorage.getItem("${SESSION_KEY}")`), null);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });

    await t.step("a colleague sees who holds the ticket, and a closed window", async () => {
      assert.ok(easymoTicket, "the first step raised the ticket");
      // Aline last wrote two days ago: her 24-hour window is closed.
      await server.runtime.platform.db.query(
        `update public.wa_contacts set last_inbound_at = now() - interval '2 days'
         where wa_id = $1`,
        [ALINE.waId],
      );
      const { context, page, errors } = await open({ viewport: PHONE });
      try {
        await signIn(page, "grace.admin@easymo.rw");
        await page.getByRole("link", { name: /Claimed by Jean Habimana/ }).click();
        const detail = page.getByRole("article");
        await detail.getByText("Claimed by Jean Habimana: only they can reply.").waitFor();
        await detail.getByText("Outside 24 h window: a template will be sent.").waitFor();
        assert.equal(await page.getByLabel("Reply", { exact: true }).isDisabled(), true);
        assert.equal(await detail.getByRole("button", { name: "Claim" }).isVisible(), false);
        await page.keyboard.press("Escape");
        await page.getByRole("link", { name: /24 h window closed/ }).waitFor();
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });

    await t.step("a location, a photo and a document show in the transcript", async () => {
      await alineSends(server, {
        location: { latitude: -1.953049, longitude: 30.090561, name: "Kimihurura" },
      });
      const photo = await alineUploads(server, {
        bytes: PNG,
        mimeType: "image/png",
        filename: "carte.png",
      });
      await alineSends(server, {
        media: { type: "image", id: photo, mimeType: "image/png", caption: "Carte jaune" },
      });
      const quote = await alineUploads(server, {
        bytes: PDF,
        mimeType: "application/pdf",
        filename: "quote.pdf",
      });
      await alineSends(server, {
        media: {
          type: "document",
          id: quote,
          mimeType: "application/pdf",
          filename: "quote.pdf",
        },
      });
      // Both files saved by the worker through the two-step download.
      const convoId = await eventually("Aline's files in Storage", async () => {
        const rows = await server.runtime.platform.db.query<{ conversation_id: string }>(
          `select conversation_id from public.messages
           where user_id = $1 and payload->'content'->'stored' is not null`,
          [ALINE.id],
        );
        return rows.length >= 2 ? rows[0].conversation_id : null;
      });
      const reason = `Aline sent her documents ${crypto.randomUUID().slice(0, 8)}`;
      await raiseTicket(server, {
        reason,
        summary: "A photo of her carte jaune and a quote.",
        priority: "medium",
        convo_id: convoId,
      });
      const { context, page, errors } = await open({ viewport: { width: 1280, height: 800 } });
      try {
        await signIn(page, "jean.staff@easymo.rw");
        await page.getByRole("navigation", { name: "Queue" })
          .getByRole("link", { name: escapeRegExp(reason) }).click();
        const conversation = page.getByRole("list", { name: "Conversation" });

        const map = conversation.getByRole("link", { name: "Kimihurura (-1.953, 30.091)" });
        await map.waitFor();
        assert.equal(
          await map.getAttribute("href"),
          "https://www.openstreetmap.org/?mlat=-1.953&mlon=30.091#map=16/-1.953/30.091",
        );

        const image = conversation.getByRole("img", {
          name: "Photo from the customer: Carte jaune",
        });
        await image.waitFor();
        await eventually(
          "the thumbnail to load",
          async () =>
            Number(
              await page.evaluate(
                "(() => { const img = document.querySelector('img.attachment-thumb');" +
                  " return img && img.complete ? img.naturalWidth : 0; })()",
              ),
            ) || null,
        );

        const download = conversation.getByRole("link", { name: "Download quote.pdf" });
        await download.waitFor();
        const href = await download.getAttribute("href");
        assert.ok(href, "the download link has a signed URL");
        const fetched = await fetch(new URL(href, server.url));
        assert.equal(fetched.status, 200);
        assert.deepEqual(new Uint8Array(await fetched.arrayBuffer()), PDF);
        await page.screenshot({ path: `${shots}/inbox-1280-media.png`, fullPage: true });
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });

    await t.step("axe-core finds no WCAG 2.1 AA violations in any view", async () => {
      // axe is injected as an inline script, which the page's CSP refuses: bypass it here only.
      const { context, page, errors } = await open({
        viewport: { width: 1280, height: 800 },
        bypassCSP: true,
      });
      try {
        assert.deepEqual(await axeViolations(page), [], "sign-in");
        await signIn(page, "jean.staff@easymo.rw");
        await page.getByRole("navigation").getByRole("link").first().click();
        await page.getByRole("article").getByRole("button").first().waitFor();
        assert.deepEqual(await axeViolations(page), [], "queue and ticket");
        await page.setViewportSize(PHONE);
        assert.deepEqual(await axeViolations(page), [], "ticket on a phone");
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  },
);
