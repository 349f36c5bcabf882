/**
 * The dev seed's broadcast, as `deno task chat` shows it, on both
 * databases: EasyMO's staff schedule the approved `weekend_offer` at 22:00;
 * the platform's sweep sends it at 08:00 to the two people with opt-in proof
 * (Aline, Diane) and nobody else.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { callConfirmed, createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";

const WEEKEND_OFFER_EN = "e0000000-0000-4000-8000-000000000001";

dbTest(
  "the seeded weekend offer asked for 22:00 goes out at 08:00 to the opted-in only",
  async (db) => {
    let now = new Date("2026-12-04T15:00:00Z");
    const rt = await createTestRuntime(db, { now: () => now });
    const scheduled = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
      template_id: WEEKEND_OFFER_EN,
      audience: {},
      when: "2026-12-04T22:00:00+02:00",
      variables: { offer: "free delivery on every order" },
    }, { key: "demo" });
    assert.ok(scheduled.ok, JSON.stringify(scheduled));
    assert.equal(scheduled.data.estimated_reach, 2);
    assert.equal(scheduled.data.scheduled_at, "2026-12-05T06:00:00.000Z");

    const queued = () =>
      db.query<{ to_wa_id: string; name: string }>(
        `select to_wa_id, body->'template'->>'name' as name from public.wa_outbox
       where idempotency_key like 'broadcast:%' order by to_wa_id`,
      );
    now = new Date("2026-12-04T20:00:00Z"); // 22:00 in Kigali: quiet hours
    await rt.platform.sweep();
    assert.deepEqual(await queued(), []);
    now = new Date("2026-12-05T06:00:00Z"); // 08:00
    await rt.platform.sweep();
    assert.deepEqual(await queued(), [
      { to_wa_id: "250788000001", name: "weekend_offer" },
      { to_wa_id: "250788000005", name: "weekend_offer" },
    ]);
  },
);
