import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { Database } from "@shared/db/types.ts";

// Jean, EasyMO staff, on the number the seed registers for him.
const JEAN = "250788000002";
const START = new Date("2030-05-04T10:00:00Z");
const HOUR = 3_600_000;

async function events(db: Database, event: string, count: number, at: Date, props = {}) {
  for (let i = 0; i < count; i++) {
    await db.query(
      "insert into public.analytics_events (org_id, event, props, created_at) values ($1, $2, $3, $4)",
      [ORG.easymo, event, props, new Date(at.getTime() - i * 60_000).toISOString()],
    );
  }
}

// Last week: vendors answered 16 of 20 inquiries and 7 hand-offs; the last day: 3 of 10.
async function seedAnomalies(db: Database, now: Date) {
  const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * HOUR);
  await events(db, "vendor_inquiry_sent", 20, daysAgo(3));
  await events(db, "vendor_replied", 16, daysAgo(3));
  await events(db, "handoff_raised", 7, daysAgo(4));
  await events(db, "vendor_inquiry_sent", 10, new Date(now.getTime() - 2 * HOUR));
  await events(db, "vendor_replied", 3, new Date(now.getTime() - 2 * HOUR));
  // Within the last hour: 4 failed payments and 6 hand-offs.
  await events(db, "payment_failed", 4, new Date(now.getTime() - 60_000));
  await events(db, "handoff_raised", 6, new Date(now.getTime() - 60_000));
}

async function riskTickets(db: Database) {
  return await db.query<{ reason: string; summary: string; priority: string; agent_id: string }>(
    `select reason, summary, priority, agent_id from public.staff_tickets
     where org_id = $1 and reason like 'Risk:%' order by reason`,
    [ORG.easymo],
  );
}

dbTest(
  "the sweep raises each anomaly to staff once, and again only after the cooldown",
  async (db) => {
    let now = START;
    const rt = await createTestRuntime(db, { now: () => now });
    try {
      // Nothing unusual: nothing raised.
      await events(db, "vendor_inquiry_sent", 10, new Date(now.getTime() - 2 * HOUR));
      await events(db, "vendor_replied", 9, new Date(now.getTime() - 2 * HOUR));
      await events(db, "payment_failed", 2, new Date(now.getTime() - 60_000));
      assert.equal((await rt.platform.sweep()).schedulesFailed, 0);
      assert.deepEqual(await riskTickets(db), []);

      now = new Date(START.getTime() + HOUR);
      await seedAnomalies(db, now);
      assert.equal((await rt.platform.sweep()).schedulesFailed, 0);
      const tickets = await riskTickets(db);
      assert.deepEqual(tickets.map((ticket) => ticket.reason), [
        "Risk: handoff spike",
        "Risk: payment failures",
        "Risk: vendor response drop",
      ]);
      assert.ok(tickets.every((ticket) => ticket.priority === "high"));
      assert.ok(tickets.every((ticket) => ticket.agent_id === "analytics_risk"));
      assert.match(tickets[1].summary, /4 payments failed within an hour/);
      assert.match(tickets[2].summary, /vendors answered \d+% of inquiries \(usually 80%\)/);
      const alerts = await db.query<{ kind: string; ticket_id: string | null }>(
        "select kind, ticket_id from public.risk_alerts where org_id = $1",
        [ORG.easymo],
      );
      assert.equal(alerts.length, 3);
      assert.ok(alerts.every((alert) => alert.ticket_id !== null));

      // The next periods, the same anomalies still there: nothing raised twice.
      for (const minutes of [20, 40, 180]) {
        now = new Date(START.getTime() + HOUR + minutes * 60_000);
        await events(db, "payment_failed", 3, new Date(now.getTime() - 60_000));
        await rt.platform.sweep();
      }
      assert.equal((await riskTickets(db)).length, 3);

      // A day later, payments fail again: raised again, once.
      now = new Date(START.getTime() + 27 * HOUR);
      await events(db, "payment_failed", 3, new Date(now.getTime() - 60_000));
      await rt.platform.sweep();
      await rt.platform.sweep();
      const again = await riskTickets(db);
      assert.equal(again.filter((ticket) => ticket.reason === "Risk: payment failures").length, 2);
      assert.equal(again.length, 4);
    } finally {
      await rt.platform.close();
    }
  },
);

dbTest(
  "an anomaly recorded but not yet raised (a crash between) is raised by the next sweep, once",
  async (db) => {
    const now = START;
    const rt = await createTestRuntime(db, { now: () => now });
    try {
      await db.query(
        `insert into public.risk_alerts (org_id, kind, detail, raised_at)
       values ($1, 'payment_failures', '{"failed": 5, "hours": 1}', $2)`,
        [ORG.easymo, new Date(now.getTime() - 10 * 60_000).toISOString()],
      );
      await rt.platform.sweep();
      await rt.platform.sweep();
      const tickets = await riskTickets(db);
      assert.equal(tickets.length, 1);
      assert.match(tickets[0].summary, /5 payments failed within an hour/);
    } finally {
      await rt.platform.close();
    }
  },
);

dbTest(
  "staff asking how we are doing today get the funnels and the raised anomalies; customers get nothing",
  async (db) => {
    const now = new Date(START.getTime() + HOUR);
    await seedAnomalies(db, now);
    await events(db, "funnel_started", 5, new Date(now.getTime() - 3 * HOUR), {
      agent: "waiter_ai",
    });
    await events(db, "funnel_confirmed", 3, new Date(now.getTime() - 3 * HOUR), {
      agent: "waiter_ai",
    });
    await events(db, "funnel_paid", 2, new Date(now.getTime() - 3 * HOUR), { agent: "waiter_ai" });
    // Two days ago: outside "today".
    await events(db, "funnel_started", 9, new Date(now.getTime() - 48 * HOUR), { agent: "shop" });
    const channel = await startAgentChannel(db, { model: null }, { now: () => now });
    await channel.rt.platform.sweep();
    // A customer calling the report directly is refused.
    const refused = await channel.rt.callAs(USER.aline, "funnel_report", { hours: 24 });
    assert.equal(refused.ok ? "ok" : refused.error.code, "AUTH_ERROR");
    try {
      await channel.say(JEAN, {
        listReply: { id: "staff:analytics_risk", title: "Analytics & Risk" },
      });
      const today = bodyText(await channel.say(JEAN, { text: "How are we doing today?" }));
      assert.match(
        today,
        /^Last 24 hours, per agent \(started → confirmed → paid\):\n• waiter_ai: 5 → 3 → 2\n/,
      );
      assert.doesNotMatch(today, /shop/);
      assert.match(today, /Raised to staff:/);
      assert.match(today, /4 payments failed within an hour/);
      const rw = bodyText(await channel.say(JEAN, { text: "tumeze dute uyu munsi?" }));
      assert.match(rw, /^Amasaha 24 ashize/);
      assert.match(rw, /ubwishyu 4 bwanze mu isaha imwe/);
      const week = bodyText(
        await channel.say(JEAN, { listReply: { id: "risk:168", title: "7 days" } }),
      );
      assert.match(week, /• shop: 9 → 0 → 0/);
    } finally {
      await channel.rt.platform.close();
    }
  },
);
