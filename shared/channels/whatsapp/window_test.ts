import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { ORG } from "@testing/seed.ts";
import { isWindowOpen, recordInbound, WINDOW_MS } from "./window.ts";

const WA = "250788123456";

Deno.test("isWindowOpen() is true for less than 24 hours after the last inbound message", () => {
  const last = new Date("2026-11-20T10:00:00Z");
  assert.equal(isWindowOpen(last, new Date(last.getTime() + WINDOW_MS - 1)), true);
  assert.equal(isWindowOpen(last, new Date(last.getTime() + WINDOW_MS)), false);
  assert.equal(isWindowOpen(last.toISOString(), new Date(last.getTime() + 1000)), true);
  assert.equal(isWindowOpen(undefined, last), false);
  assert.equal(isWindowOpen("not a date", last), false);
});

dbTest("recordInbound() creates the contact and only moves last_inbound_at forward", async (db) => {
  const t1 = new Date("2026-11-22T08:00:00Z");
  const t0 = new Date("2026-11-22T07:00:00Z");
  const t2 = new Date("2026-11-22T09:30:00Z");
  const read = () =>
    db.query<{ org_id: string; profile_name: string | null; last_inbound_at: Date }>(
      "select org_id, profile_name, last_inbound_at from public.wa_contacts where wa_id = $1",
      [WA],
    );

  assert.deepEqual(
    await db.transaction((tx) =>
      recordInbound(tx, { waId: WA, orgId: ORG.easymo, profileName: "Aline", at: t1 })
    ),
    t1,
  );
  // A late re-delivery of an older message neither shortens the window nor renames.
  const after = await recordInbound(db, {
    waId: WA,
    orgId: ORG.easymo,
    profileName: "Old name",
    at: t0,
  });
  assert.deepEqual(after, t1);
  let [row] = await read();
  assert.deepEqual(row, { org_id: ORG.easymo, profile_name: "Aline", last_inbound_at: t1 });

  // A newer message moves the window and updates the name; no name keeps the old one.
  await recordInbound(db, { waId: WA, orgId: ORG.easymo, profileName: "Aline M.", at: t2 });
  await recordInbound(db, { waId: WA, orgId: ORG.easymo, at: new Date(t2.getTime() + 1000) });
  [row] = await read();
  assert.equal(row.profile_name, "Aline M.");
  assert.deepEqual(row.last_inbound_at, new Date(t2.getTime() + 1000));

  // The contact keeps the org it was first seen with.
  await recordInbound(db, { waId: WA, orgId: ORG.beaver, at: t2 });
  [row] = await read();
  assert.equal(row.org_id, ORG.easymo);
});

dbTest("recordInbound() works as service_role and rejects malformed input", async (db) => {
  const at = new Date("2026-11-22T08:00:00Z");
  await db.asService((tx) => recordInbound(tx, { waId: WA, orgId: ORG.beaver, at }));
  const [row] = await db.query("select org_id from public.wa_contacts where wa_id = $1", [WA]);
  assert.equal(row.org_id, ORG.beaver);
  await assert.rejects(
    () => recordInbound(db, { waId: "+250788123456", orgId: ORG.easymo, at }),
    { name: "TypeError", message: /waId must be 6 to 15 digits/ },
  );
  await assert.rejects(() => recordInbound(db, { waId: WA, orgId: "easymo", at }), TypeError);
  await assert.rejects(
    () => recordInbound(db, { waId: WA, orgId: ORG.easymo, at: new Date("nope") }),
    TypeError,
  );
});
