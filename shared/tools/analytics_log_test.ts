import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { minimiseProps } from "./pii.ts";

const hash = (value: string) => Promise.resolve(`#${value}`);

Deno.test("minimiseProps() hashes identifiers, drops free text and keeps labels", async () => {
  const out = await minimiseProps([
    { key: "phone", value: "0788 123 456" },
    { key: "customer_ref", value: "+250788123456" },
    { key: "contact", value: "aline@example.rw" },
    { key: "message", value: "hi" },
    { key: "reason", value: "the delivery was late and cold" },
    { key: "venue_category", value: "restaurant" },
    { key: "items", value: 3 },
    { key: "paid", value: true },
  ], hash);
  assert.deepEqual(out.props, {
    phone: "h:#+250788123456",
    customer_ref: "h:#+250788123456",
    contact: "h:#aline@example.rw",
    venue_category: "restaurant",
    items: 3,
    paid: true,
  });
  assert.deepEqual(out.hashed, ["phone", "customer_ref", "contact"]);
  assert.deepEqual(out.dropped, ["message", "reason"]);
});

dbTest("analytics_log stores the event with PII minimised and a keyed hash", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "analytics_log", {
    event: "order_started",
    props: [
      { key: "phone", value: "+250788000001" },
      { key: "note", value: "please call me at 0788000001" },
      { key: "venue_category", value: "pharmacy" },
    ],
  }, { idempotencyKey: "a1" });
  assert.equal(result.ok, true);
  assert.ok(result.ok && /^\d{4}-\d\d-\d\dT/.test(result.data.logged_at));
  const [row] = await db.query<{ props: Record<string, string> }>(
    "select props from public.analytics_events where event = 'order_started'",
  );
  assert.equal(row.props.venue_category, "pharmacy");
  assert.equal(row.props.note, undefined);
  assert.match(row.props.phone, /^h:[0-9a-f]{32}$/);
  assert.doesNotMatch(JSON.stringify(row.props), /788000001/);
});

dbTest("analytics_log refuses a malformed event name", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "analytics_log", { event: "Order Started!" }, {
    idempotencyKey: "a2",
  });
  assert.equal(!result.ok && result.error.code, "VALIDATION_ERROR");
});
