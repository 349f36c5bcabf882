/**
 * `order_status_update` through the pipeline on both databases: the state
 * machine, the payment gate, who may move an order, one message per move in
 * the customer's language, and text inside the 24-hour window versus the
 * template outside it (through the real dispatcher and a fake Graph API).
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestData, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { Queryable } from "@shared/db/types.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { createDispatcher } from "@shared/channels/whatsapp/dispatcher.ts";
import { recordInbound } from "@shared/channels/whatsapp/window.ts";
import { startFakeGraph } from "@testing/graph_server.ts";

const CAFE = "c0000000-0000-4000-8000-000000000002"; // Café Nyamirambo, owner Diane (fr)
const DIANE = "00000000-0000-4000-8000-000000000005";
const ALINE_WA = "250788000001"; // profile locale rw
const DIANE_WA = "250788000005";

/** Aline orders 2 goat brochettes and a Fanta at the café, through order_create. */
export async function placeOrder(rt: TestRuntime, key = "order-1") {
  const args = {
    venue_id: CAFE,
    items: [{ sku: "BRO-GOAT", qty: 2 }, { sku: "FANTA-50", qty: 1 }],
  };
  const asked = await rt.callAs(USER.aline, "order_create", args, { idempotencyKey: key });
  const placed = await rt.callAs(USER.aline, "order_create", args, {
    idempotencyKey: key,
    confirmation: asked.error.confirmation.token,
  });
  assert.ok(placed.ok, JSON.stringify(placed));
  return placed.data as { order_id: string; order_no: string; total: number };
}

/** Marks an order paid, as the settlement would (the payments pack's part). */
export async function settle(db: Queryable, orderId: string) {
  await db.query("update public.orders set payment_status = 'settled' where id = $1", [orderId]);
}

async function customerTexts(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ body: string }>(
    `select body->'text'->>'body' as body from public.wa_outbox
     where to_wa_id = $1 order by created_at, id`,
    [ALINE_WA],
  );
  return rows.map((row) => row.body);
}

function move(rt: TestRuntime, who: string, orderId: string, status: string, key: string) {
  return rt.callAs(who, "order_status_update", { order_id: orderId, status }, {
    idempotencyKey: key,
  });
}

function asService(
  rt: TestRuntime,
  args: unknown,
  key: string,
  org: string = ORG.easymo,
): Promise<TestData> {
  return rt.platform.call({
    tool: "order_status_update",
    args,
    caller: { claims: { role: "service_role" }, org_id: org },
    context: { trace_id: `t-${key}` },
    idempotencyKey: key,
  });
}

dbTest(
  "staff move an order to delivered; the customer hears each step in their language",
  async (db) => {
    const rt = await createTestRuntime(db);
    const order = await placeOrder(rt);
    assert.match(order.order_no, /^A-\d+$/);

    const confirmed = await move(rt, USER.jean, order.order_no, "confirmed", "m1");
    assert.ok(confirmed.ok, JSON.stringify(confirmed));
    assert.deepEqual(
      { ...confirmed.data, updated_at: typeof confirmed.data.updated_at },
      {
        order_id: order.order_id,
        order_no: order.order_no,
        status: "confirmed",
        updated_at: "string",
        venue_name: "Café Nyamirambo",
        changed: true,
      },
    );
    await settle(db, order.order_id);
    // The venue's owner may move it too; by id or by number.
    for (const [i, status] of ["preparing", "ready", "delivered"].entries()) {
      const moved = await move(rt, i % 2 ? DIANE : USER.jean, order.order_id, status, `m${i + 2}`);
      assert.ok(moved.ok, JSON.stringify(moved));
      assert.equal(moved.data.status, status);
    }
    const texts = await customerTexts(db);
    // Aline's profile is Kinyarwanda; each message names the order and the venue.
    assert.deepEqual(texts.map((text) => text.split("\n")[0]), [
      `✅ Café Nyamirambo yemeje itumiza ryanyu ${order.order_no}.`,
      `👩‍🍳 Café Nyamirambo iri gutegura itumiza ryanyu ${order.order_no}.`,
      `🍽️ Café Nyamirambo: itumiza ryanyu ${order.order_no} ryiteguye.`,
      `📦 Café Nyamirambo: itumiza ryanyu ${order.order_no} ryagejejwe. Murakoze!`,
    ]);
    assert.ok(texts.every((text) => text.includes('"menu"')), "a way back to the menu");
    const [row] = await db.query<{ fallback: { template: { name: string } } }>(
      "select fallback_template as fallback from public.wa_outbox where to_wa_id = $1 limit 1",
      [ALINE_WA],
    );
    assert.equal(row.fallback.template.name, "order_status_update");
  },
);

dbTest("order_status_update names invalid fields", async (db) => {
  const rt = await createTestRuntime(db);
  const bad = await rt.callAs(USER.jean, "order_status_update", {
    order_id: "order 42",
    status: "eaten",
  }, { idempotencyKey: "v1" });
  assert.equal(bad.error.code, "VALIDATION_ERROR");
  assert.deepEqual(bad.error.fields.map((f: { path: string }) => f.path).sort(), [
    "order_id",
    "status",
  ]);
});

dbTest("repeating a move is idempotent and sends nothing twice", async (db) => {
  const rt = await createTestRuntime(db);
  const order = await placeOrder(rt);
  const first = await move(rt, USER.jean, order.order_no, "confirmed", "same-key");
  const replay = await move(rt, USER.jean, order.order_no, "confirmed", "same-key");
  assert.deepEqual(replay, first);
  const again = await move(rt, DIANE, order.order_no, "confirmed", "other-key");
  assert.ok(again.ok);
  assert.equal(again.data.changed, false);
  assert.equal(again.data.status, "confirmed");
  assert.equal((await customerTexts(db)).length, 1);
});

dbTest("invalid moves and unpaid fulfilment are CONFLICT with a human reason", async (db) => {
  const rt = await createTestRuntime(db);
  const order = await placeOrder(rt);
  const no = order.order_no;
  const skip = await move(rt, USER.jean, no, "ready", "c1");
  assert.equal(skip.error.code, "CONFLICT");
  assert.equal(
    skip.error.msg,
    `${no} is waiting for the venue: it can only become confirmed or cancelled`,
  );
  assert.ok((await move(rt, USER.jean, no, "confirmed", "c2")).ok);
  const unpaid = await move(rt, USER.jean, no, "preparing", "c3");
  assert.equal(unpaid.error.code, "CONFLICT");
  assert.match(unpaid.error.msg, /not paid yet/);
  assert.equal(unpaid.error.details.payment_status, "unpaid");
  await settle(db, order.order_id);
  for (const [i, status] of ["preparing", "ready", "delivered"].entries()) {
    assert.ok((await move(rt, USER.jean, no, status, `c${4 + i}`)).ok);
  }
  const late = await move(rt, USER.jean, no, "cancelled", "c7");
  assert.equal(late.error.code, "CONFLICT");
  assert.equal(late.error.msg, `${no} is already delivered`);
  // Refused moves sent nothing and changed nothing.
  assert.equal((await customerTexts(db)).length, 4);
  const [{ status }] = await db.query<{ status: string }>(
    "select status from public.orders where id = $1",
    [order.order_id],
  );
  assert.equal(status, "delivered");
});

dbTest("only the venue's staff or owner move an order; others learn nothing", async (db) => {
  const rt = await createTestRuntime(db);
  const order = await placeOrder(rt);
  // The customer: their own order, but not theirs to move.
  const own = await move(rt, USER.aline, order.order_no, "confirmed", "x1");
  assert.equal(own.error.code, "AUTH_ERROR");
  // Another member of the org (Eric owns a pharmacy, not this café): as if it did not exist.
  const vendor = await move(rt, USER.eric, order.order_no, "confirmed", "x2");
  assert.equal(vendor.error.code, "NOT_FOUND");
  // Another org's staff, in their org, by the order's id: not found there.
  const foreign = await rt.callAs(USER.paul, "order_status_update", {
    order_id: order.order_id,
    status: "confirmed",
  }, { idempotencyKey: "x3", org: ORG.beaver });
  assert.equal(foreign.error.code, "NOT_FOUND");
  // ... nor naming ours.
  const intruder = await move(rt, USER.paul, order.order_id, "confirmed", "x4");
  assert.equal(intruder.error.code, "NOT_FOUND");
  // A person cannot pretend to be the venue's WhatsApp number.
  const pretend = await rt.callAs(USER.aline, "order_status_update", {
    order_id: order.order_no,
    status: "confirmed",
    venue_phone: DIANE_WA,
  }, { idempotencyKey: "x5" });
  assert.equal(pretend.error.code, "AUTH_ERROR");
  // The service: only with the venue's own number.
  const anonymous = await asService(rt, { order_id: order.order_no, status: "confirmed" }, "x6");
  assert.equal(anonymous.error.code, "AUTH_ERROR");
  const wrongVenue = await asService(rt, {
    order_id: order.order_no,
    status: "confirmed",
    venue_phone: "+250788000004",
  }, "x7");
  assert.equal(wrongVenue.error.code, "NOT_FOUND");
  const venue = await asService(rt, {
    order_id: order.order_no,
    status: "confirmed",
    venue_phone: DIANE_WA,
  }, "x8");
  assert.ok(venue.ok, JSON.stringify(venue));
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.orders where status = 'confirmed'",
  );
  assert.equal(n, 1);
});

dbTest(
  "inside the 24-hour window the customer gets a text, outside it the template",
  async (db) => {
    const rt = await createTestRuntime(db);
    await using graph = await startFakeGraph();
    const dispatcher = createDispatcher({
      db,
      transport: graph.adapter(),
      log: memoryLogger(),
      // One customer gets two messages here; Meta's pacing per recipient is not this test's subject.
      pairIntervalMs: 0,
    });
    try {
      const order = await placeOrder(rt);
      await dispatcher.drain(); // the venue's notification
      await recordInbound(db, { waId: ALINE_WA, orgId: ORG.easymo, at: new Date() });
      assert.ok((await move(rt, USER.jean, order.order_no, "confirmed", "w1")).ok);
      await dispatcher.drain();
      // A day and more later: the window has closed.
      await db.query(
        "update public.wa_contacts set last_inbound_at = now() - interval '25 hours' where wa_id = $1",
        [ALINE_WA],
      );
      await settle(db, order.order_id);
      assert.ok((await move(rt, USER.jean, order.order_no, "preparing", "w2")).ok);
      await dispatcher.drain();
      const toAline = graph.accepted.filter((message) => message.to === ALINE_WA);
      assert.deepEqual(toAline.map((message) => message.body.type), ["text", "template"]);
      const template = toAline[1].body.template as {
        name: string;
        language: { code: string };
        components: Array<{ parameters: Array<{ text: string }> }>;
      };
      assert.equal(template.name, "order_status_update");
      assert.equal(template.language.code, "rw_RW");
      assert.deepEqual(template.components[0].parameters.map((p) => p.text), [
        "Café Nyamirambo",
        order.order_no,
        "riri gutegurwa",
      ]);
    } finally {
      await dispatcher.stop();
    }
  },
);
