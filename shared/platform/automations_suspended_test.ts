/**
 * An automation whose event belongs to a pack its tenant stopped using, on
 * both databases: the agent file is deployed again without the pack (a new
 * runtime over the same database), and then with it once more. Meanwhile the
 * rule does not fire, staff see it `suspended` with the reason, a new rule on
 * that event is refused at `trigger.event`, and it fires again by itself once
 * the pack is back. Events that arrived while it was suspended are not run
 * later, as for a paused rule.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { startFakeSlack } from "@testing/notification_servers.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { SLACK_SETTINGS } from "@shared/packs/automations/mod.ts";
import { AGENT_CONFIGS } from "../../config/agent_configs.ts";
import { runAutomations } from "./automation_runner.ts";

/** The bundled agent file with Beaver running the hand-off, and the front desk or not. */
function beaverRuns(agents: string[]): unknown {
  const config = structuredClone(AGENT_CONFIGS) as {
    tenants: Record<string, { agents: Array<{ id: string }> }>;
  };
  config.tenants["beaver-paper"] = { agents: agents.map((id) => ({ id })) };
  return config;
}

// message_received is the front desk's (concierge) event; the hand-off uses none of its tools.
const WITH_DESK = ["concierge_router", "support_handoff"];
const WITHOUT_DESK = ["support_handoff"];

const MESSAGES = {
  name: "messages",
  trigger: { event: "message_received" },
  actions: [{ tool: "slack_notify", args: { text: "Message: {{event.text}}" } }],
};

let keys = 0;

dbTest(
  "an automation of a pack its tenant stopped using is suspended, shown with the reason, and resumes with the pack",
  async (db: TestDatabase) => {
    const slack = startFakeSlack();
    const now = new Date("2026-11-27T08:00:00Z");
    const runtime = (agents: string[]) =>
      createTestRuntime(db, {
        now: () => now,
        agentConfig: beaverRuns(agents),
        provide: [{
          key: SLACK_SETTINGS,
          value: { webhookPrefixes: ["http://127.0.0.1:"], timeoutMs: 5000 },
        }],
      });
    const call = (rt: TestData, tool: string, args: unknown) =>
      rt.callAs(USER.paul, tool, args, { org: ORG.beaver, idempotencyKey: `k-${++keys}` });
    // As the WhatsApp channel writes it with a customer's message (its outbox row).
    const message = (text: string) =>
      db.query(
        `insert into public.automation_events (org_id, event, source_key, payload)
         values ($1, 'message_received', $2, $3::jsonb)`,
        [ORG.beaver, `wamid.${text}`, {
          message_id: `wamid.${text}`,
          text,
          sender_phone: "+250788000011",
          sender_name: "Nina",
          language: "en",
          conversation_id: crypto.randomUUID(),
          agent: null,
        }],
      );
    const runs = () =>
      db.query<{ n: number }>(
        "select count(*)::int as n from public.automation_runs where org_id = $1",
        [ORG.beaver],
      ).then(([row]) => row.n);

    // Two deployments of the agent file over one database: with the front desk, and without it.
    const withDesk = await runtime(WITH_DESK);
    const withoutDesk = await runtime(WITHOUT_DESK);
    try {
      // Beaver runs the front desk: its rule on message_received is deployed and fires.
      let rt = withDesk;
      assert.equal((await call(rt, "slack_webhook_set", { url: slack.url })).ok, true);
      const deployed: TestData = await call(rt, "deploy_automation", MESSAGES);
      assert.equal(deployed.data.status, "active", JSON.stringify(deployed));
      assert.equal(deployed.data.suspension, null);
      await message("first");
      await runAutomations(rt.platform, { now });
      assert.deepEqual(slack.received.map((m) => m.text), ["Message: first"]);

      // The agent file is deployed without the front desk.
      rt = withoutDesk;
      const listed: TestData = await call(rt, "automation_list", {});
      const [rule] = listed.data.automations;
      assert.equal(rule.status, "suspended");
      assert.equal(rule.suspension.path, "trigger.event");
      assert.match(
        rule.suspension.reason,
        /"message_received" belongs to a service this tenant no longer uses/,
      );
      // Its events are passed over: no run, nothing posted.
      const before = await runs();
      await message("while suspended");
      const pass = await runAutomations(rt.platform, { now });
      assert.equal(pass.runs, 0);
      assert.equal(await runs(), before);
      assert.deepEqual(slack.received.map((m) => m.text), ["Message: first"]);
      // Resuming it changes nothing while the pack is gone: it says so.
      const resumed: TestData = await call(rt, "automation_resume", { automation_id: rule.id });
      assert.equal(resumed.data.status, "suspended");
      // A new rule on that event is refused at its field.
      const refused: TestData = await call(rt, "deploy_automation", {
        ...MESSAGES,
        name: "another",
      });
      assert.equal(refused.error.code, "VALIDATION_ERROR");
      assert.deepEqual(refused.error.fields.map((f: { path: string }) => f.path), [
        "trigger.event",
      ]);

      // The front desk is back: the rule is active again and fires for new messages only.
      rt = withDesk;
      const back: TestData = await call(rt, "automation_list", {});
      assert.equal(back.data.automations[0].status, "active");
      assert.equal(back.data.automations[0].suspension, null);
      await message("after");
      await runAutomations(rt.platform, { now });
      assert.deepEqual(slack.received.map((m) => m.text), ["Message: first", "Message: after"]);
    } finally {
      // One database under both: the second close finds it closed already.
      await withoutDesk.platform.close();
      await withDesk.platform.close().catch(() => {});
      await slack.close();
    }
  },
);
