/**
 * `broadcast_schedule` and `broadcast_cancel` through the pipeline on both
 * databases: approved templates only, exact variables, the reach counts
 * exactly the opted-in, quiet hours move the send, staff only, idempotent.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { callConfirmed, createTestRuntime } from "@testing/runtime.ts";
import { enableTools } from "@testing/tenant_policy.ts";
import { ORG, USER } from "@testing/seed.ts";
import { addCustomers, addTemplate, withoutSeededBroadcasts } from "@testing/broadcasts.ts";

const NOW = new Date("2026-12-01T10:00:00Z");
const at = (iso: string) => ({ when: iso });

dbTest(
  "broadcast_schedule moves a 22:00 campaign to 08:00 and counts only the opted-in",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => NOW });
    await withoutSeededBroadcasts(db);
    const template = await addTemplate(db, ORG.easymo, {
      name: "december_offer",
      variables: ["first_name"],
    });
    await addCustomers(db, ORG.easymo, { count: 3 });
    await addCustomers(db, ORG.easymo, { count: 2, first: 10, optedIn: false });
    const [out] = await addCustomers(db, ORG.easymo, { count: 1, first: 20 });
    await db.query(
      `insert into public.marketing_opt_outs (org_id, user_id, opted_out_at, channel, said)
       values ($1, $2, '2026-11-20T10:00:00Z', 'whatsapp', 'STOP')`,
      [ORG.easymo, out.user],
    );
    // Another tenant's opted-in people are not this one's audience.
    await addCustomers(db, ORG.beaver, { count: 2, first: 30 });
    const result = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
      template_id: template,
      audience: { segment: "opted_in" },
      ...at("2026-12-01T22:00:00+02:00"),
      variables: { first_name: "friend" },
    }, { key: "schedule-1" });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.data.estimated_reach, 3);
    assert.equal(result.data.scheduled_at, "2026-12-02T06:00:00.000Z");
    assert.equal(result.data.requested_at, "2026-12-01T20:00:00.000Z");
    assert.equal(result.data.moved_by_quiet_hours, true);
    const [row] = await db.query<{ status: string; send_at: Date; estimated_reach: number }>(
      "select status, send_at, estimated_reach from public.broadcast_campaigns where id = $1",
      [result.data.campaign_id],
    );
    assert.equal(row.status, "scheduled");
    assert.equal(new Date(row.send_at).toISOString(), "2026-12-02T06:00:00.000Z");

    // Idempotent: the same key replays the same campaign, no second one.
    const again = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
      template_id: template,
      audience: { segment: "opted_in" },
      ...at("2026-12-01T22:00:00+02:00"),
      variables: { first_name: "friend" },
    }, { key: "schedule-1" });
    assert.equal(again.data.campaign_id, result.data.campaign_id);
    const [count] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.broadcast_campaigns",
    );
    assert.equal(count.n, 1);
  },
);

dbTest(
  "broadcast_schedule's read-back names the template, the reach and the moved time",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => NOW });
    await withoutSeededBroadcasts(db);
    const template = await addTemplate(db, ORG.easymo, { name: "new_menu" });
    await addCustomers(db, ORG.easymo, { count: 2 });
    const asked = await rt.callAs(USER.jean, "broadcast_schedule", {
      template_id: template,
      audience: {},
      when: "2027-01-05T23:30:00+02:00",
    }, { idempotencyKey: "ask" });
    assert.equal(asked.error.code, "CONFIRMATION_REQUIRED");
    assert.match(asked.error.confirmation.summary, /"new_menu" \(en\) to 2 opted-in people/);
    assert.match(asked.error.confirmation.summary, /08:00/);
    assert.match(asked.error.confirmation.summary, /quiet hours; asked for .*23:30/);
  },
);

dbTest(
  "broadcast_schedule refuses unapproved templates and wrong variables, naming them",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => NOW });
    await withoutSeededBroadcasts(db);
    const paused = await addTemplate(db, ORG.easymo, { name: "old_promo", status: "paused" });
    const two = await addTemplate(db, ORG.easymo, {
      name: "promo",
      variables: ["first_name", "offer"],
    });
    const base = { audience: {}, when: "2026-12-01T14:00:00+02:00" };
    const notApproved = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
      ...base,
      template_id: paused,
    }, { key: "paused" });
    assert.equal(notApproved.error.code, "VALIDATION_ERROR");
    assert.deepEqual(notApproved.error.fields.map((f: { path: string }) => f.path), [
      "template_id",
    ]);
    assert.match(notApproved.error.fields[0].message, /paused, not approved/);

    const wrong = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
      ...base,
      template_id: two,
      variables: { first_name: "Aline", discount: "10%" },
    }, { key: "vars" });
    assert.equal(wrong.error.code, "VALIDATION_ERROR");
    assert.deepEqual(
      wrong.error.fields.map((f: { path: string }) => f.path),
      ["variables.offer", "variables.discount"],
    );
    assert.match(wrong.error.fields[0].message, /missing/);
    assert.match(wrong.error.fields[1].message, /not a variable/);

    const unknownFilter = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
      ...base,
      template_id: two,
      audience: { filters: { city: "Kigali" } },
      variables: { first_name: "A", offer: "B" },
    }, { key: "filter" });
    assert.equal(unknownFilter.error.code, "VALIDATION_ERROR");
    assert.match(JSON.stringify(unknownFilter.error.fields), /audience\.filters/);

    const past = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
      ...base,
      template_id: two,
      when: "2026-11-30T10:00:00Z",
      variables: { first_name: "A", offer: "B" },
    }, { key: "past" });
    assert.equal(past.error.code, "VALIDATION_ERROR");
    assert.deepEqual(past.error.fields.map((f: { path: string }) => f.path), ["when"]);

    const unknown = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
      ...base,
      template_id: crypto.randomUUID(),
    }, { key: "unknown" });
    assert.equal(unknown.error.code, "NOT_FOUND");
  },
);

dbTest("broadcast_schedule is for staff of the org only", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  await withoutSeededBroadcasts(db);
  const template = await addTemplate(db, ORG.easymo, { name: "promo" });
  const args = { template_id: template, audience: {}, when: "2026-12-01T14:00:00+02:00" };
  const customer = await callConfirmed(rt, USER.aline, "broadcast_schedule", args, { key: "c" });
  assert.equal(customer.error.code, "AUTH_ERROR");
  // Beaver's staff cannot use EasyMO's template, acting in either org (were broadcasts enabled
  // for Beaver).
  await enableTools(db, rt.platform.tenants, ORG.beaver, ["broadcast_schedule"]);
  const other = await callConfirmed(rt, USER.paul, "broadcast_schedule", args, {
    key: "o",
    org: ORG.beaver,
  });
  assert.equal(other.error.code, "NOT_FOUND");
  const [count] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.broadcast_campaigns",
  );
  assert.equal(count.n, 0);
});

dbTest("broadcast_schedule reads an org's own quiet hours", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  await withoutSeededBroadcasts(db);
  await db.query(
    `insert into public.broadcast_settings (org_id, quiet_start, quiet_end, time_zone)
       values ($1, '12:00', '15:00', 'Africa/Kigali')`,
    [ORG.easymo],
  );
  const template = await addTemplate(db, ORG.easymo, { name: "promo" });
  const lunch = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
    template_id: template,
    audience: {},
    when: "2026-12-01T13:00:00+02:00",
  }, { key: "lunch" });
  assert.ok(lunch.ok, JSON.stringify(lunch));
  assert.equal(lunch.data.scheduled_at, "2026-12-01T13:00:00.000Z");
  const night = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
    template_id: template,
    audience: {},
    when: "2026-12-01T22:00:00+02:00",
  }, { key: "night" });
  assert.equal(night.data.scheduled_at, "2026-12-01T20:00:00.000Z");
  assert.equal(night.data.moved_by_quiet_hours, false);
});

dbTest("broadcast_cancel ends a scheduled campaign, staff only", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  await withoutSeededBroadcasts(db);
  const template = await addTemplate(db, ORG.easymo, { name: "promo" });
  const scheduled = await callConfirmed(rt, USER.jean, "broadcast_schedule", {
    template_id: template,
    audience: {},
    when: "2026-12-01T14:00:00+02:00",
  }, { key: "s" });
  const id = scheduled.data.campaign_id;
  const byCustomer = await callConfirmed(
    rt,
    USER.aline,
    "broadcast_cancel",
    { campaign_id: id },
    {
      key: "c1",
    },
  );
  assert.equal(byCustomer.error.code, "AUTH_ERROR");
  const cancelled = await callConfirmed(rt, USER.jean, "broadcast_cancel", { campaign_id: id }, {
    key: "c2",
  });
  assert.deepEqual(cancelled.data, {
    campaign_id: id,
    status: "cancelled",
    withdrawn: 0,
    changed: true,
  });
  const again = await callConfirmed(rt, USER.jean, "broadcast_cancel", { campaign_id: id }, {
    key: "c3",
  });
  assert.equal(again.data.changed, false);
});
