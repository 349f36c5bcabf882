/**
 * Venue staff move orders from WhatsApp, through the real webhook (signed
 * deliveries to a real HTTP server, the inbound processor, the counterparts,
 * the pipeline and the outbox), on both databases.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import {
  messageDelivery,
  type SenderOptions,
  type SimulatedContent,
} from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import type { ConversationHandler } from "@shared/channels/whatsapp/conversation.ts";
import { USER } from "@testing/seed.ts";
import { parseVenueCommand } from "./venue_commands.ts";
import { serveFunction } from "@testing/serve_function.ts";

const APP_SECRET = "meta-app-secret-for-tests";
const CAFE = "c0000000-0000-4000-8000-000000000002"; // Café Nyamirambo, owner Diane (fr)
const DIANE_WA = "250788000005";
const ALINE_WA = "250788000001";

/** The customer's side is not this test's subject: every customer turn is recorded, unanswered. */
const quietConversation: ConversationHandler = (turn) =>
  Promise.resolve({ replies: [], state: { seen: turn.message.wamid } });

async function webhook(db: TestDatabase) {
  const rt = await createTestRuntime(db);
  const pending: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: APP_SECRET,
    verifyToken: "verify-me",
    background: (task) => void pending.push(task()),
    conversation: quietConversation,
  });
  const server = serveFunction("wa-webhook", (request) => channel.app.fetch(request));
  const url = server.url;
  async function settle() {
    while (pending.length) await pending.shift();
    await channel.dispatcher.drain();
  }
  return {
    rt,
    async say(sender: SenderOptions, content: SimulatedContent) {
      const body = new TextEncoder().encode(JSON.stringify(messageDelivery(sender, content)));
      const response = await fetch(url, {
        method: "POST",
        headers: { "x-hub-signature-256": await signBody(APP_SECRET, body) },
        body,
      });
      await response.body?.cancel();
      assert.equal(response.status, 200);
      await settle();
    },
    async close() {
      await settle();
      await server.close();
    },
  };
}

async function lastTo(db: TestDatabase, waId: string) {
  const [row] = await db.query<{ text: string; buttons: string[] | null }>(
    `select coalesce(body->'text'->>'body', body->'interactive'->'body'->>'text') as text,
            (select array_agg(b->'reply'->>'id')
             from jsonb_array_elements(body->'interactive'->'action'->'buttons') b) as buttons
     from public.wa_outbox where to_wa_id = $1 order by seq desc limit 1`,
    [waId],
  );
  return row;
}

async function placeOrder(db: TestDatabase, rt: Awaited<ReturnType<typeof webhook>>["rt"]) {
  const args = { venue_id: CAFE, items: [{ sku: "CAF-LAT", qty: 2 }] };
  const asked = await rt.callAs(USER.aline, "order_create", args, { idempotencyKey: "o" });
  const placed = await rt.callAs(USER.aline, "order_create", args, {
    idempotencyKey: "o",
    confirmation: asked.error.confirmation.token,
  });
  assert.ok(placed.ok, JSON.stringify(placed));
  // The venue's notification is queued for Diane with the order's buttons.
  const note = await lastTo(db, DIANE_WA);
  assert.deepEqual(note.buttons, [
    `order:${placed.data.order_no}:confirmed`,
    `order:${placed.data.order_no}:cancelled`,
  ]);
  return placed.data as { order_id: string; order_no: string };
}

Deno.test("venue commands are read from buttons and typed words in three languages", () => {
  assert.deepEqual(parseVenueCommand({ text: "ready A-1042" }), {
    orderNo: "A-1042",
    status: "ready",
    language: "en",
  });
  assert.deepEqual(parseVenueCommand({ text: "A-1042 prête" }), {
    orderNo: "A-1042",
    status: "ready",
    language: "fr",
  });
  assert.deepEqual(parseVenueCommand({ text: "Byagejejwe a-7" }), {
    orderNo: "A-7",
    status: "delivered",
    language: "rw",
  });
  assert.deepEqual(parseVenueCommand({ text: "x", choice: "order:A-1042:cancelled" }), {
    orderNo: "A-1042",
    status: "cancelled",
  });
  for (const text of ["ready", "A-1042", "I want 2 coffees", "is A-1042 ready?", "eaten A-1042"]) {
    assert.equal(parseVenueCommand({ text }), null, text);
  }
  assert.equal(parseVenueCommand({ text: "READY A-1042", choice: "vendor_yes" }), null);
});

dbTest(
  "venue staff tap and type an order to delivered; the customer sees every step",
  async (db) => {
    const hook = await webhook(db);
    try {
      const order = await placeOrder(db, hook.rt);
      const no = order.order_no;
      await hook.say({ from: DIANE_WA }, {
        buttonReply: { id: `order:${no}:confirmed`, title: "Confirmer" },
      });
      // Diane's profile is French: her answer is French, with the next moves as buttons.
      const confirmed = await lastTo(db, DIANE_WA);
      assert.match(confirmed.text, new RegExp(`✅ ${no} est maintenant confirmée`));
      assert.deepEqual(confirmed.buttons, [`order:${no}:preparing`, `order:${no}:cancelled`]);
      assert.match((await lastTo(db, ALINE_WA)).text, new RegExp(`Café Nyamirambo yemeje .*${no}`));

      // Not paid yet: a clear sentence, nothing moves, the customer hears nothing new.
      await hook.say({ from: DIANE_WA }, { text: `PREPARING ${no}` });
      assert.match((await lastTo(db, DIANE_WA)).text, new RegExp(`${no} is not paid yet`));

      await db.query("update public.orders set payment_status = 'settled' where id = $1", [
        order.order_id,
      ]);
      await hook.say({ from: DIANE_WA }, {
        buttonReply: { id: `order:${no}:preparing`, title: "x" },
      });
      await hook.say({ from: DIANE_WA }, { text: `READY ${no}` });
      await hook.say({ from: DIANE_WA }, { text: `${no} livrée` });
      const delivered = await lastTo(db, DIANE_WA);
      assert.match(delivered.text, new RegExp(`${no} est maintenant livrée`));
      assert.equal(delivered.buttons, null, "a delivered order has no next move");

      // A repeated tap is answered, not taken for a customer's message, and sends nothing new.
      await hook.say({ from: DIANE_WA }, { text: `DELIVERED ${no}` });
      assert.match((await lastTo(db, DIANE_WA)).text, new RegExp(`${no} is already delivered`));
      const toAline = await db.query<{ text: string }>(
        `select body->'text'->>'body' as text from public.wa_outbox
       where to_wa_id = $1 order by created_at, id`,
        [ALINE_WA],
      );
      assert.deepEqual(
        toAline.map((m) => m.text.split("\n")[0]),
        [
          `✅ Café Nyamirambo yemeje itumiza ryanyu ${no}.`,
          `👩‍🍳 Café Nyamirambo iri gutegura itumiza ryanyu ${no}.`,
          `🍽️ Café Nyamirambo: itumiza ryanyu ${no} ryiteguye.`,
          `📦 Café Nyamirambo: itumiza ryanyu ${no} ryagejejwe. Murakoze!`,
        ],
      );
      // The venue's commands are no customer turns.
      const [{ n }] = await db.query<{ n: number }>(
        "select count(*)::int as n from public.messages where direction = 'inbound'",
      );
      assert.equal(n, 0);
    } finally {
      await hook.close();
    }
  },
);

dbTest("another number's command about the order is not the venue's: no move", async (db) => {
  const hook = await webhook(db);
  try {
    const order = await placeOrder(db, hook.rt);
    // Aline (the customer) types the venue's command: it is her conversation, not a move.
    await hook.say({ from: ALINE_WA }, { text: `CANCEL ${order.order_no}` });
    const [{ status }] = await db.query<{ status: string }>(
      "select status from public.orders where id = $1",
      [order.order_id],
    );
    assert.equal(status, "pending");
    const [{ n }] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.messages where direction = 'inbound'",
    );
    assert.equal(n, 1);
  } finally {
    await hook.close();
  }
});
