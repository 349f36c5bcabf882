import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { ORG } from "@testing/seed.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { takeTokens } from "@shared/pipeline/rate_limit.ts";
import { createWhatsAppChannel } from "./channel.ts";
import { messageDelivery } from "./payloads.ts";
import { signBody } from "./signature.ts";

const SECRET = "handler-test-app-secret";

/** The webhook with the agent answering offline, processing the test can wait for. */
async function channelOf(db: TestDatabase) {
  const rt = await createTestRuntime(db);
  const tasks: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, { model: null, router: platformRouter() }),
    background: (task) => void tasks.push(task()),
    rateLimitRetryMs: 60_000,
  });
  async function settle() {
    while (tasks.length) await tasks.shift();
    await channel.dispatcher.drain();
  }
  return {
    rt,
    channel,
    settle,
    async say(from: string, wamid: string, text: string) {
      const body = new TextEncoder().encode(
        JSON.stringify(messageDelivery({ from, wamid }, { text })),
      );
      const response = await channel.app.request("/wa-webhook", {
        method: "POST",
        headers: { "x-hub-signature-256": await signBody(SECRET, body) },
        body,
      });
      assert.equal(response.status, 200);
      await settle();
    },
  };
}

dbTest(
  "a message put off by a rate limit, again and again, is told 'busy' once and never fails on it",
  async (db) => {
    // The tenant's whole budget for search_supabase is spent: every pharmacy turn is limited.
    const limits = {
      perUser: { limit: 1, windowSec: 86_400 },
      perTenant: { limit: 1, windowSec: 86_400 },
    };
    await db.query(
      `update public.orgs set tool_policy = jsonb_set(coalesce(tool_policy, '{}'), '{rate_limits}',
       '{"search_supabase": {"per_user": {"limit": 1, "window_sec": 86400},
                             "per_tenant": {"limit": 1, "window_sec": 86400}}}')
       where id = $1`,
      [ORG.easymo],
    );
    assert.equal(
      await takeTokens(db, { orgId: ORG.easymo, tool: "search_supabase", subject: "x" }, limits),
      1,
    );
    const hook = await channelOf(db);
    const from = "250788000091";
    // A new customer (profile English) writing French that the channel's word list misses and
    // the agent's language detector catches.
    const wamid = "wamid.LIMITED.FR";
    try {
      await hook.say(from, wamid, "Pharmacie à Kimihurura");
      const state = () =>
        db.query<{ status: string; attempts: number; deferrals: number; last_error: string }>(
          "select status, attempts, deferrals, last_error from private.wa_inbound where wamid = $1",
          [wamid],
        ).then((rows) => rows[0]);
      const outbox = () =>
        db.query<{ idempotency_key: string; body: { text?: { body: string } } }>(
          "select idempotency_key, body from public.wa_outbox where to_wa_id = $1 order by seq",
          [from],
        );
      assert.deepEqual(await state(), {
        status: "pending",
        attempts: 0,
        deferrals: 1,
        last_error: "deferred: RATE_LIMIT: search_supabase",
      });
      const [told] = await outbox();
      assert.equal(told.idempotency_key, `busy:${wamid}`);
      assert.match(told.body.text!.body, /try again shortly/);

      // Meanwhile the menu they ask for ("stp": French) is answered in French, and the profile
      // becomes French: the next "busy" for the kept message would now be worded in French.
      await hook.say(from, "wamid.MENU.FR", "menu stp");
      const [profile] = await db.query<{ locale: string }>(
        "select locale from public.profiles where phone = $1",
        [`+${from}`],
      );
      assert.equal(profile.locale, "fr");
      const answered = await outbox();
      assert.equal(answered.length, 2);
      assert.doesNotMatch(JSON.stringify(answered[1].body), /réessayer|try again/);

      // Its next attempts are limited too: put off each time, the customer told nothing more.
      for (let attempt = 2; attempt <= 3; attempt++) {
        await db.query(
          "update private.wa_inbound set next_attempt_at = now() where wamid = $1",
          [wamid],
        );
        assert.equal(await hook.channel.processor.sweep(), 1);
        await hook.settle();
        assert.deepEqual(await state(), {
          status: "pending",
          attempts: 0,
          deferrals: attempt,
          last_error: "deferred: RATE_LIMIT: search_supabase",
        });
      }
      assert.deepEqual(await outbox(), answered);
      const errors = hook.rt.log.lines.filter((line) => line.level === "error");
      assert.deepEqual(errors, []);
    } finally {
      await hook.settle();
    }
  },
);
