import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { ORG } from "@testing/seed.ts";
import { seedTenantFixtures, TENANT_A, TENANT_B } from "@testing/tenant_fixtures.ts";
import { locopsTopicOf } from "./locops_flow.ts";

// Jean, EasyMO staff, on the number the seed registers for him.
const JEAN = "250788000002";
// The platform's clock in these tests: what "online" and "still waiting" are measured against.
const NOW = new Date("2030-05-04T10:00:00Z");
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();

Deno.test("locopsTopicOf() reads the question in en, rw and fr", () => {
  assert.equal(locopsTopicOf("which drivers are online?"), "drivers");
  assert.equal(locopsTopicOf("ni abahe bashoferi bari ku murongo?"), "drivers");
  assert.equal(locopsTopicOf("quels chauffeurs sont en ligne ?"), "drivers");
  assert.equal(locopsTopicOf("any unpaid charges waiting?"), "charges");
  assert.equal(locopsTopicOf("paiements en attente"), "charges");
  assert.equal(locopsTopicOf("ubwishyu butarishyurwa"), "charges");
  assert.equal(locopsTopicOf("open orders per venue"), "orders");
  assert.equal(locopsTopicOf("ibyatumijwe bifunguye"), "orders");
  assert.equal(locopsTopicOf("tickets waiting"), "tickets");
  assert.equal(locopsTopicOf("hello"), null);
});

dbTest(
  "Locops names the drivers online and the charges still waiting, by the platform's clock",
  async (db) => {
    await seedTenantFixtures(db);
    // One EasyMO driver online until after now, the others gone before it; Beaver's is online.
    await db.query("update public.drivers set available_until = $2 where org_id = $1", [
      ORG.easymo,
      at(-30),
    ]);
    await db.query("update public.drivers set available_until = $2 where id = $1", [
      TENANT_A.driver,
      at(45),
    ]);
    await db.query("update public.drivers set available_until = $2 where id = $1", [
      TENANT_B.driver,
      at(45),
    ]);
    // The fixtures' two charges wait until 2100; one more expired before now.
    await db.query(
      `insert into public.payments (org_id, created_by, payer_id, payer_phone, payee_phone, amount,
                                  momo_ref, expires_at, memo)
     values ($1, $2, $2, '+250788000001', '+250788000004', 700, 'LOCOPS-OLD', $3, 'Old one')`,
      [ORG.easymo, TENANT_A.customer, at(-5)],
    );
    const channel = await startAgentChannel(db, { model: null }, { now: () => NOW });
    try {
      await channel.say(JEAN, { listReply: { id: "staff:locops", title: "Locops" } });
      await channel.say(JEAN, { text: "which drivers are online?" });
      const drivers = bodyText((await channel.outbox(JEAN)).at(-2)!);
      assert.equal(drivers, "Drivers online (1):\n• Probe Driver (moto)");

      await channel.say(JEAN, { text: "paiements en attente ?" });
      const charges = bodyText((await channel.outbox(JEAN)).at(-2)!);
      assert.match(charges, /^Paiements en attente \(2, 2\s500 RWF\) :\n/);
      assert.match(charges, /• 1\s000 RWF/);
      assert.match(charges, /• 1\s500 RWF/);
      assert.doesNotMatch(charges, /700|Old one/);

      // Later, by the same clock moved on, nothing is online or waiting any more.
      await db.query("update public.drivers set available_until = $2 where id = $1", [
        TENANT_A.driver,
        at(-1),
      ]);
      await db.query(
        "update public.payments set status = 'expired', failure_reason = 'EXPIRED' where org_id = $1 and status = 'pending'",
        [ORG.easymo],
      );
      await channel.say(JEAN, { listReply: { id: "locops:drivers", title: "Drivers online" } });
      assert.equal(
        bodyText((await channel.outbox(JEAN)).at(-2)!),
        "Aucun chauffeur n'est en ligne pour le moment.",
      );
      await channel.say(JEAN, { listReply: { id: "locops:charges", title: "Unpaid charges" } });
      assert.equal(
        bodyText((await channel.outbox(JEAN)).at(-2)!),
        "Aucun paiement n'est en attente.",
      );
    } finally {
      await channel.rt.platform.close();
    }
  },
);
