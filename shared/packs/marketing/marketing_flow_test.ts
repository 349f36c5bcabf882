/**
 * The Marketing & Sales flow driven turn by turn on both databases, its
 * tool calls made as a staff member through the pipeline (and confirmed the
 * way the agent graph confirms them): pick a template, fill its variables,
 * pick an audience and a time, read the reach and the time after quiet
 * hours, confirm.
 */
import assert from "node:assert/strict";
import { fail, type ToolResult } from "@shared/contract/result.ts";
import type { OfflineStep, OfflineTurn, TurnInput } from "@shared/registry/pack.ts";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { addCustomers, addTemplate, withoutSeededBroadcasts } from "@testing/broadcasts.ts";
import { marketingFlow, readWhen } from "./marketing_flow.ts";
import { say } from "./texts.ts";

const NOW = new Date("2026-12-01T10:00:00Z");

/** A conversation with the flow as `user`: memory merged between turns like the graph's. */
function conversation(rt: TestRuntime, user: string, language: "en" | "rw" | "fr" = "en") {
  let memory: Record<string, unknown> = {};
  let turnNo = 0;
  let pending: OfflineStep["pending"];
  const callTool = (wamid: string) => (tool: string, args: unknown, step: string) =>
    rt.callAs(user, tool, args, { idempotencyKey: `${wamid}:${step}` }) as Promise<ToolResult>;
  async function run(input: Partial<TurnInput>): Promise<OfflineStep> {
    const wamid = `wamid.flow.${++turnNo}`;
    const turn: OfflineTurn = {
      agent: "marketing_sales",
      language,
      input: { wamid, text: "", ...input },
      memory,
      menu: [],
      progress: () => Promise.resolve(),
    };
    const step = await marketingFlow.offlineFlow(turn, callTool(wamid));
    memory = { ...memory, ...step.memory };
    pending = step.pending;
    return step;
  }
  return {
    say: (text: string) => run({ text }),
    tap: (choice: string, text = "") => run({ choice, text }),
    /** Confirms (or refuses) the pending call as the agent graph does, then runs the flow. */
    async answer(yes: boolean): Promise<OfflineStep> {
      assert.ok(pending, "a call awaits confirmation");
      const asked = await rt.callAs(user, pending.tool, pending.args, {
        idempotencyKey: pending.key,
      });
      const result: ToolResult = !yes ? fail("CANCELLED") : asked.ok ? asked : await rt.callAs(
        user,
        pending.tool,
        pending.args,
        { idempotencyKey: pending.key, confirmation: asked.error.confirmation.token },
      );
      memory = { ...memory, lastResult: result, lastTool: pending.tool };
      pending = undefined;
      return await run({ text: yes ? "yes" : "no" });
    },
    get pending() {
      return pending;
    },
  };
}

dbTest(
  "a staff member schedules a broadcast at 22:00 and reads 08:00 and the reach",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => NOW });
    await withoutSeededBroadcasts(db);
    const template = await addTemplate(db, ORG.easymo, {
      name: "december_offer",
      variables: ["first_name", "offer"],
    });
    await addTemplate(db, ORG.easymo, { name: "paused_one", status: "paused" });
    await addCustomers(db, ORG.easymo, { count: 3 });
    await addCustomers(db, ORG.easymo, { count: 2, first: 10, locale: "rw" });
    await addCustomers(db, ORG.easymo, { count: 1, first: 20, optedIn: false });
    const chat = conversation(rt, USER.jean);

    const offered = await chat.say("broadcast");
    assert.equal(offered.replies?.[0].text, say("pickTemplate", "en"));
    // Only the approved template is offered.
    assert.deepEqual(offered.replies?.[0].rows?.map((row) => row.id), [`tpl:${template}`]);

    const first = await chat.tap(`tpl:${template}`);
    assert.equal(first.replies?.[0].text, say("askVariable", "en", { name: "first_name" }));
    const second = await chat.say("friend");
    assert.equal(second.replies?.[0].text, say("askVariable", "en", { name: "offer" }));
    const audience = await chat.say("10% off pizza");
    assert.deepEqual(audience.replies?.[0].rows?.map((row) => row.id), [
      "aud:all",
      "aud:en",
      "aud:rw",
      "aud:fr",
    ]);
    const when = await chat.tap("aud:en");
    assert.equal(when.replies?.[0].text, say("askWhen", "en"));
    const badTime = await chat.say("tonight");
    assert.equal(badTime.replies?.[0].text, say("badWhen", "en"));

    await chat.say("2026-12-01 22:00");
    // The read-back: the template, the reach (English speakers with opt-in proof) and 08:00.
    assert.ok(chat.pending);
    assert.match(chat.pending.summary, /"december_offer" \(en\) to 3 opted-in people/);
    assert.match(chat.pending.summary, /08:00/);
    assert.match(chat.pending.summary, /quiet hours/);

    const done = await chat.answer(true);
    assert.equal(done.done, true);
    assert.match(
      done.replies?.[0].text ?? "",
      /^Scheduled: 3 opted-in people will receive "december_offer"/,
    );
    const campaigns = await db.query<{ send_at: Date; variables: unknown; audience: unknown }>(
      "select send_at, variables, audience from public.broadcast_campaigns",
    );
    assert.equal(campaigns.length, 1);
    assert.equal(new Date(campaigns[0].send_at).toISOString(), "2026-12-02T06:00:00.000Z");
    assert.deepEqual(campaigns[0].variables, { first_name: "friend", offer: "10% off pizza" });
    assert.deepEqual(campaigns[0].audience, { segment: "opted_in", filters: { language: "en" } });
  },
);

dbTest("a staff member who refuses the confirmation schedules nothing", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  await withoutSeededBroadcasts(db);
  const template = await addTemplate(db, ORG.easymo, { name: "promo" });
  const chat = conversation(rt, USER.jean, "fr");
  await chat.say("diffusion");
  const audience = await chat.tap(`tpl:${template}`);
  assert.equal(audience.replies?.[0].text, say("askAudience", "fr"));
  await chat.tap("aud:all");
  await chat.say("2026-12-03 10:00");
  const refused = await chat.answer(false);
  assert.equal(refused.replies?.[0].text, say("notScheduled", "fr"));
  const [{ n }] = await db.query<{ n: number }>(
    "select count(*)::int as n from public.broadcast_campaigns",
  );
  assert.equal(n, 0);
});

dbTest("a customer who reaches the flow is refused by the tools", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  await withoutSeededBroadcasts(db);
  await addTemplate(db, ORG.easymo, { name: "promo" });
  const chat = conversation(rt, USER.aline, "rw");
  const step = await chat.say("broadcast");
  assert.equal(step.done, true);
  assert.equal(step.replies?.[0].rows, undefined);
  assert.match(step.replies?.[0].text ?? "", /^Ubutumwa bwanzwe/);
});

Deno.test("readWhen() reads Kigali times and ISO times, and nothing else", () => {
  assert.equal(readWhen("2026-12-05 18:00"), "2026-12-05T18:00:00+02:00");
  assert.equal(readWhen("2026-12-05T18:00:00Z"), "2026-12-05T18:00:00Z");
  assert.equal(readWhen("tomorrow 6pm"), null);
  assert.equal(readWhen("2026-13-45 18:00"), null);
});
