import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";

const CAFE = "c0000000-0000-4000-8000-000000000002";
const KACYIRU = "c0000000-0000-4000-8000-000000000006";

dbTest("inventory_check returns what it found and lists what it did not", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "inventory_check", {
    items: [{ sku: "AMOX-500" }, { name: "paracetamol" }, { sku: "NOPE" }],
    venue_id: KACYIRU,
  });
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(
    result.data.items.map((i: { sku: string; available: boolean; price: number }) => [
      i.sku,
      i.available,
      i.price,
    ]),
    [["AMOX-500", false, 2500], ["PARA-500", true, 600]],
  );
  assert.deepEqual(result.data.not_found, [{ sku: "NOPE" }]);
});

dbTest(
  "order_create totals from stored prices, after confirmation, and tells the venue",
  async (db) => {
    const rt = await createTestRuntime(db);
    const args = {
      venue_id: CAFE,
      items: [{ sku: "BRO-BEEF", qty: 2, price: 1 }, { sku: "CAF-LAT", qty: 1, price: 1 }],
      table_no: "4",
    };
    const asked = await rt.callAs(USER.aline, "order_create", args, { idempotencyKey: "o1" });
    assert.equal(asked.error.code, "CONFIRMATION_REQUIRED");
    // Read back with the stored names, in the profile's language (Aline's is Kinyarwanda).
    assert.equal(
      asked.error.confirmation.summary,
      "Gutumiza kuri Café Nyamirambo: 2 × Beef brochette, 1 × Café latte, ameza 4",
    );
    const inFrench = await rt.callAs(USER.aline, "order_create", { ...args, language: "fr" }, {
      idempotencyKey: "o1-fr",
    });
    assert.equal(
      inFrench.error.confirmation.summary,
      "Commander chez Café Nyamirambo : 2 × Beef brochette, 1 × Café latte, table 4",
    );
    const placed = await rt.callAs(USER.aline, "order_create", args, {
      idempotencyKey: "o1",
      confirmation: asked.error.confirmation.token,
    });
    assert.ok(placed.ok, JSON.stringify(placed));
    // 2 × 1500 + 1 × 2000, whatever the caller said the prices were.
    assert.equal(placed.data.total, 5000);
    assert.equal(placed.data.currency, "RWF");
    // The read-back: the order's number, names (never SKUs) and the stored prices.
    assert.match(placed.data.order_no, /^A-\d+$/);
    assert.equal(placed.data.venue_name, "Café Nyamirambo");
    assert.equal(placed.data.venue_told, true);
    assert.deepEqual(placed.data.items, [
      { name: "Beef brochette", qty: 2, unit_price: 1500, line_total: 3000 },
      { name: "Café latte", qty: 1, unit_price: 2000, line_total: 2000 },
    ]);
    // The venue (Diane reads French) gets the number, the lines by name, the total and buttons.
    const [venue] = await db.query<{ to_wa_id: string; kind: string; body: string; ids: string }>(
      `select to_wa_id, kind, body->'interactive'->'body'->>'text' as body,
              body->'interactive'->'action'->'buttons'->0->'reply'->>'id' as ids
       from public.wa_outbox`,
    );
    assert.equal(venue.to_wa_id, "250788000005");
    assert.equal(venue.kind, "buttons");
    assert.match(venue.body, new RegExp(`nouvelle commande ${placed.data.order_no}`));
    assert.match(venue.body, /table 4/);
    assert.match(venue.body, /2 × Beef brochette — 3,000 RWF/);
    assert.match(venue.body, /Total : 5,000 RWF/);
    assert.doesNotMatch(venue.body, /BRO-BEEF|CAF-LAT/);
    assert.equal(venue.ids, `order:${placed.data.order_no}:confirmed`);
    const lines = await db.query("select 1 from public.order_items where order_id = $1", [
      placed.data.order_id,
    ]);
    assert.equal(lines.length, 2);
  },
);

dbTest("order_create says the venue was not told when it has no number to tell", async (db) => {
  await db.query("update public.businesses set owner_whatsapp = null, phone = null where id = $1", [
    CAFE,
  ]);
  const rt = await createTestRuntime(db);
  const args = { venue_id: CAFE, items: [{ sku: "CAF-LAT", qty: 1 }] };
  const asked = await rt.callAs(USER.aline, "order_create", args, { idempotencyKey: "o2" });
  const placed = await rt.callAs(USER.aline, "order_create", args, {
    idempotencyKey: "o2",
    confirmation: asked.error.confirmation.token,
  });
  assert.ok(placed.ok, JSON.stringify(placed));
  assert.equal(placed.data.venue_told, false);
  assert.deepEqual(await db.query("select 1 from public.wa_outbox"), []);
});

dbTest("order_create refuses unknown SKUs and more than the stock", async (db) => {
  const rt = await createTestRuntime(db);
  const order = async (items: unknown, key: string) => {
    const args = { venue_id: KACYIRU, items };
    const asked = await rt.callAs(USER.aline, "order_create", args, { idempotencyKey: key });
    return await rt.callAs(USER.aline, "order_create", args, {
      idempotencyKey: key,
      confirmation: asked.error.confirmation.token,
    });
  };
  const unknown = await order([{ sku: "BRO-BEEF", qty: 1 }], "o2");
  assert.equal(unknown.error.code, "NOT_FOUND");
  assert.match(unknown.error.msg, /BRO-BEEF/);
  const outOfStock = await order([{ sku: "AMOX-500", qty: 1 }], "o3");
  assert.equal(outOfStock.error.code, "CONFLICT");
  const [{ n }] = await db.query<{ n: number }>("select count(*)::int as n from public.orders");
  assert.equal(n, 0);
});
