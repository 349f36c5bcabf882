/**
 * Buy & sell without dead ends, through the real webhook on a real HTTP
 * server with the agent the platform runs (no model, the live router): the
 * vendor's short question in the vendor's language, picking a vendor who
 * said YES (contacts both ways), ordering and paying, and numbers typed at
 * every menu of the flow.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { serveFunction } from "@testing/serve_function.ts";

const SECRET = "contacts-test-app-secret";
const BUYER = "250788000001"; // Aline Uwase, profile in Kinyarwanda
const KACYIRU = "250788000009"; // Pharmacie Kacyiru, Sandrine (rw)
const KIMIHURURA = "250788000004"; // Pharmacie Conseil Kimihurura, Eric (rw)
const KIMIHURURA_LOCATION = { latitude: -1.9536, longitude: 30.0925 };

interface Row {
  kind: string;
  body: Record<string, unknown>;
  fallback_template: Record<string, unknown> | null;
}

async function webhook(db: TestDatabase) {
  const rt = await createTestRuntime(db);
  const pending: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, { model: null, router: platformRouter() }),
    background: (task) => void pending.push(task()),
  });
  const server = serveFunction("wa-webhook", (request) => channel.app.fetch(request));
  const url = server.url;
  let n = 0;
  const prefix = crypto.randomUUID().slice(0, 8);
  async function settle() {
    while (pending.length) await pending.shift();
    await channel.dispatcher.drain();
  }
  return {
    rt,
    /** Sends a message from `from` and waits for it to be handled and the replies sent. */
    async say(from: string, content: SimulatedContent) {
      const body = new TextEncoder().encode(
        JSON.stringify(messageDelivery({ from, wamid: `wamid.${prefix}.${n++}` }, content)),
      );
      const response = await fetch(url, {
        method: "POST",
        headers: { "x-hub-signature-256": await signBody(SECRET, body) },
        body,
      });
      assert.equal(response.status, 200, await response.text());
      await settle();
    },
    /** Opens the main menu and taps Buy & sell (pharmacy words would reach the Pharmacy agent). */
    async enterBuySell(from: string) {
      await this.say(from, { text: "english please" });
      await this.say(from, { text: "0" });
      await this.say(from, { listReply: { id: "agent:buy_and_sell", title: "Buy & sell" } });
    },
    async close() {
      await settle();
      await server.close();
    },
  };
}

async function outboxTo(db: TestDatabase, waId: string): Promise<Row[]> {
  return await db.query<Row>(
    `select kind, body, fallback_template from public.wa_outbox where to_wa_id = $1
     order by created_at, id`,
    [waId],
  );
}

async function last(db: TestDatabase, waId: string): Promise<Row> {
  const rows = await outboxTo(db, waId);
  assert.ok(rows.length, `nothing was sent to ${waId}`);
  return rows.at(-1)!;
}

function textOf(body: Record<string, unknown>): string {
  const text = body.text as { body: string } | undefined;
  const interactive = body.interactive as { body: { text: string } } | undefined;
  return text?.body ?? interactive?.body.text ?? "";
}

/** The titles a phone shows for a message's buttons or rows. */
function titlesOf(body: Record<string, unknown>): string[] {
  const action = (body.interactive as { action?: Record<string, unknown> } | undefined)?.action;
  const buttons = (action?.buttons as Array<{ reply: { title: string } }> | undefined) ?? [];
  const sections = (action?.sections as Array<{ rows: Array<{ title: string }> }> | undefined) ??
    [];
  return [
    ...buttons.map((b) => b.reply.title),
    ...sections.flatMap((s) => s.rows.map((r) => r.title)),
  ];
}

function idsOf(body: Record<string, unknown>): string[] {
  const action = (body.interactive as { action?: Record<string, unknown> } | undefined)?.action;
  const buttons = (action?.buttons as Array<{ reply: { id: string } }> | undefined) ?? [];
  const sections = (action?.sections as Array<{ rows: Array<{ id: string }> }> | undefined) ?? [];
  return [...buttons.map((b) => b.reply.id), ...sections.flatMap((s) => s.rows.map((r) => r.id))];
}

async function count(db: TestDatabase, sql: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from (${sql}) q`);
  return row.n;
}

dbTest(
  "a vendor is asked one short line in their language: item and quantity, buttons titled, no buyer words or number",
  async (db) => {
    const hook = await webhook(db);
    try {
      await hook.say(BUYER, { text: "Hello, I need 2 laptop chargers please" });
      await hook.say(BUYER, { text: "1" }); // "Ask them", by its number
      // Kigali Tech Hub (Olive: English), Remera Phone Market (Patrick: French).
      const cases: Array<[string, string, string[], string]> = [
        [
          "250788000007",
          "EasyMO: Do you have: 2 × laptop chargers? Reply YES + price or NO.",
          ["Yes", "No"],
          "en",
        ],
        [
          "250788000008",
          "EasyMO : Avez-vous : 2 × laptop chargers ? Répondez OUI + prix ou NON.",
          ["Oui", "Non"],
          "fr",
        ],
      ];
      for (const [vendor, line, titles, code] of cases) {
        const [question] = await outboxTo(db, vendor);
        assert.ok(question, `${vendor} was not asked`);
        assert.equal(textOf(question.body).split("\n")[0], line);
        assert.deepEqual(titlesOf(question.body), titles);
        assert.doesNotMatch(JSON.stringify(question), /please|Hello|250788000001/);
        // Outside the vendor's window the approved template goes: the item line, payloads to tap.
        const template = question.fallback_template as {
          template: { language: { code: string }; components: Array<{ parameters: unknown[] }> };
        };
        assert.equal(template.template.language.code, code);
        assert.deepEqual(template.template.components[0].parameters, [{
          type: "text",
          text: "2 × laptop chargers",
        }]);
      }
      const [recorded] = await db.query<{ languages: string[] }>(
        `select array_agg(vendor_language order by vendor_wa_id) as languages
         from public.market_vendor_inquiry_messages`,
      );
      assert.deepEqual(recorded.languages, ["en", "fr"]);
    } finally {
      await hook.close();
    }
  },
);

dbTest(
  "a French vendor is asked in French whatever the buyer writes; a shop with no profile in Kinyarwanda",
  async (db) => {
    const hook = await webhook(db);
    try {
      // Café Nyamirambo (Diane, French) and Remera Mini-Market (no owner profile) sell Fanta.
      await hook.say("250788990001", { text: "I am looking for 2 x Fanta 50cl" });
      const offer = await last(db, "250788990001");
      assert.match(textOf(offer.body), /Café Nyamirambo/);
      await hook.say("250788990001", { buttonReply: { id: "concierge_ask", title: "Ask them" } });
      const cafe = await last(db, "250788000005");
      assert.match(textOf(cafe.body), /^EasyMO : Avez-vous : 2 × Fanta 50cl \? Répondez OUI/);
      assert.deepEqual(titlesOf(cafe.body), ["Oui", "Non"]);
      const market = await last(db, "250788000115");
      assert.match(textOf(market.body), /^EasyMO: Mufite: 2 × Fanta 50cl\?/);
    } finally {
      await hook.close();
    }
  },
);

dbTest(
  "the buyer picks a vendor who said YES by typing 1: contacts both ways, then order and pay",
  async (db) => {
    const hook = await webhook(db);
    try {
      await hook.enterBuySell(BUYER);
      await hook.say(BUYER, { location: KIMIHURURA_LOCATION });
      // Two words stay in buy & sell (a longer pharmacy request would reach the Pharmacy agent).
      await hook.say(BUYER, { text: "2 paracetamol" });
      await hook.say(BUYER, { buttonReply: { id: "concierge_ask", title: "Ask them" } });
      await hook.say(KIMIHURURA, { text: "oya" });
      await hook.say(KACYIRU, { text: "YES 600 2" });

      // The buyer hears at once, with a way to choose (titles, not ids).
      const yes = await last(db, BUYER);
      assert.match(textOf(yes.body), /^✅ Pharmacie Kacyiru \(2\.2 km\) has it: 600 RWF × 2\./);
      assert.deepEqual(titlesOf(yes.body), ["Choose this one", "All answers"]);
      assert.doesNotMatch(textOf(yes.body), /250788000009/); // no contact before the pick

      // "1" picks the first button of that latest message: Pharmacie Kacyiru.
      await hook.say(BUYER, { text: "1" });
      const contact = textOf((await last(db, BUYER)).body);
      assert.match(contact, /You chose Pharmacie Kacyiru\. Because you picked them/);
      assert.match(contact, /📞 \+250788000009\n💬 https:\/\/wa\.me\/250788000009/);
      assert.match(
        contact,
        /Agreed: 2 × Paracetamol 500mg \(10 tablets\) — 600 RWF × 2 = 1,200 RWF/,
      );
      const told = textOf((await last(db, KACYIRU)).body);
      assert.match(told, /^EasyMO: Aline Uwase yabahisemo kuri 2 × Paracetamol 500mg/);
      assert.match(told, /\+250788000001 · https:\/\/wa\.me\/250788000001/);
      assert.equal(
        await count(
          db,
          "select 1 from public.market_vendor_inquiry_messages where chosen_at is not null",
        ),
        1,
      );
      // Tapping again shares nothing twice.
      await hook.say(BUYER, {
        buttonReply: { id: "concierge_pick:c0000000-0000-4000-8000-000000000006", title: "x" },
      });
      const toKacyiru = await outboxTo(db, KACYIRU);
      assert.equal(toKacyiru.filter((row) => /yabahisemo/.test(textOf(row.body))).length, 1);

      // Order & pay: the order is read back first; "1" confirms it.
      await hook.say(BUYER, { buttonReply: { id: "concierge_order", title: "Order & pay" } });
      const readBack = await last(db, BUYER);
      assert.match(textOf(readBack.body), /^Please confirm: order 2 × Paracetamol 500mg/);
      assert.deepEqual(titlesOf(readBack.body), ["Confirm", "Cancel"]);
      await hook.say(BUYER, { text: "1" });
      const [order] = await db.query<{ total: number; business: string }>(
        `select o.total::int as total, b.name as business from public.orders o
         join public.businesses b on b.id = o.business_id`,
      );
      assert.deepEqual(order, { total: 1200, business: "Pharmacie Kacyiru" });
      const sent = (await outboxTo(db, BUYER)).slice(-2).map((row) => textOf(row.body));
      assert.match(sent[0], /placed with Pharmacie Kacyiru: 1,200 RWF\./);
      if (hook.rt.platform.get("momo_charge")) {
        // The charge is read back too, with the amount of the order and the payer's number.
        assert.equal(
          sent[1],
          "Please confirm: pay 1,200 RWF to Pharmacie Kacyiru for 2 × Paracetamol 500mg (10 tablets) " +
            "— 600 RWF × 2 = 1,200 RWF with MoMo from +250788000001.",
        );
        await hook.say(BUYER, { text: "1" });
        const pay = textOf((await last(db, BUYER)).body);
        assert.match(
          pay,
          /^To pay 1,200 RWF to Pharmacie Kacyiru with MoMo, dial \*182\*[0-9*]+# \(or tap tel:\*182\*[0-9*]+%23\)/,
        );
        assert.match(pay, /Reference PAY-[A-Z0-9]+/);
        const [payment] = await db.query<{ amount: number; order_id: string | null }>(
          "select amount::int as amount, order_id from public.payments",
        );
        assert.equal(payment.amount, 1200);
        assert.ok(payment.order_id);
      } else {
        // No payment tool yet: said plainly, with how to pay instead.
        assert.equal(
          sent[1],
          "Payment isn't available here yet: pay Pharmacie Kacyiru directly (+250788000009) when you collect it.",
        );
      }
    } finally {
      await hook.close();
    }
  },
);

dbTest(
  "numbers at every menu of the flow pick options, out of range ask again, and are never searched",
  async (db) => {
    const hook = await webhook(db);
    const from = "250788990002";
    try {
      await hook.say(from, { text: "I need a phone charger" });
      const offer = await last(db, from);
      assert.deepEqual(idsOf(offer.body), ["concierge_ask", "concierge_cancel"]);
      await hook.say(from, { text: "7" });
      assert.equal(
        textOf((await last(db, from)).body),
        "Please choose a number from 1 to 2, or tap an option. Type 0 for the main menu.",
      );
      await hook.say(from, { text: "2." }); // Cancel
      assert.equal(
        textOf((await last(db, from)).body),
        "OK, cancelled. Tell me what else you need.",
      );
      // Nothing on screen to choose: a number is still no product.
      await hook.say(from, { text: "3" });
      assert.match(textOf((await last(db, from)).body), /^There is nothing to choose right now/);
      assert.equal(await count(db, "select 1 from public.market_vendor_inquiries"), 0);

      // The answers list: a number picks the row.
      await hook.say(from, { text: "I need a phone charger" });
      await hook.say(from, { text: "1" });
      assert.equal(await count(db, "select 1 from public.market_vendor_inquiries"), 1);
      const [asked] = await db.query<{ vendor_wa_id: string }>(
        "select vendor_wa_id from public.market_vendor_inquiry_messages order by vendor_wa_id limit 1",
      );
      await hook.say(asked.vendor_wa_id, { text: "YES 15000" });
      await hook.say(from, { text: "updates" });
      const list = await last(db, from);
      assert.equal(list.kind, "list");
      assert.equal(idsOf(list.body).length, 1);
      await hook.say(from, { text: "1" });
      assert.match(textOf((await last(db, from)).body), /^You chose /);

      // The front desk's menu: "0", then a number enters that service.
      await hook.say(from, { text: "0" });
      await hook.say(from, { text: "3" });
      assert.match(textOf((await last(db, from)).body), /Tell me what you are looking for/);
      assert.equal(await count(db, "select 1 from public.market_vendor_inquiries"), 1);
    } finally {
      await hook.close();
    }
  },
);

dbTest(
  "choosing a vendor who said no is CONFLICT; another buyer's inquiry is NOT_FOUND",
  async (db) => {
    const hook = await webhook(db);
    try {
      await hook.say(BUYER, { location: KIMIHURURA_LOCATION });
      await hook.say(BUYER, { text: "paracetamol" });
      await hook.say(BUYER, { buttonReply: { id: "concierge_ask", title: "Ask them" } });
      await hook.say(KIMIHURURA, { text: "oya" });
      const [inquiry] = await db.query<{ id: string }>(
        "select id from public.market_vendor_inquiries",
      );
      const args = { inquiry_id: inquiry.id, business_id: "c0000000-0000-4000-8000-000000000001" };
      const refused = await hook.rt.callAs(
        "00000000-0000-4000-8000-000000000001",
        "choose_vendor_for_inquiry",
        args,
        { idempotencyKey: "choose-no" },
      );
      assert.equal(refused.ok ? "ok" : refused.error.code, "CONFLICT");
      const stranger = await hook.rt.callAs(
        "00000000-0000-4000-8000-000000000007",
        "choose_vendor_for_inquiry",
        { ...args, business_id: "c0000000-0000-4000-8000-000000000006" },
        { idempotencyKey: "choose-stranger" },
      );
      assert.equal(stranger.ok ? "ok" : stranger.error.code, "NOT_FOUND");
      const invalid = await hook.rt.callAs(
        "00000000-0000-4000-8000-000000000001",
        "choose_vendor_for_inquiry",
        { inquiry_id: "nope" },
        { idempotencyKey: "choose-invalid" },
      );
      assert.ok(!invalid.ok && invalid.error.code === "VALIDATION_ERROR");
      assert.deepEqual(invalid.error.fields?.map((field: { path: string }) => field.path).sort(), [
        "business_id",
        "inquiry_id",
      ]);
      // Nothing was shared.
      assert.equal(
        await count(db, "select 1 from public.wa_outbox where idempotency_key like 'chosen:%'"),
        0,
      );
    } finally {
      await hook.close();
    }
  },
);
