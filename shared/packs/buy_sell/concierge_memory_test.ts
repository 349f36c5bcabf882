// The concierge's typed memory, and conversations kept before it had one: through the real
// webhook, agent graph and checkpointer on each database, a buyer whose request was kept by the
// untyped flow (`channelFlow`) carries on with it after the deploy, and one whose kept state
// cannot be read starts again with a plain message.
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { bodyText, startAgentChannel } from "@testing/agent_channel.ts";
import type { SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { buildAgentGraph } from "@shared/agent/agent_graph.ts";
import { DatabaseCheckpointSaver } from "@shared/agent/checkpointer.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { conciergeMemory, migrateConcierge } from "./concierge_flow.ts";

const BUYER = "250788000001";
const KIMIHURURA = { latitude: -1.9536, longitude: 30.0925 };
const INQUIRY = "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d";

Deno.test("migrateConcierge() reads version 0's channelFlow as the step and the request", () => {
  const migrated = migrateConcierge({
    channelFlow: {
      step: "await_replies",
      language: "rw",
      query: "2 paracetamol",
      inquiry_id: INQUIRY,
      business_ids: [],
      lat: -1.95,
      lng: 30.09,
      choices: [],
    },
  }, 0);
  assert.deepEqual(conciergeMemory.parse(migrated), {
    step: "await_replies",
    request: {
      query: "2 paracetamol",
      inquiry_id: INQUIRY,
      business_ids: [],
      lat: -1.95,
      lng: 30.09,
      choices: [],
    },
  });
});

Deno.test("migrateConcierge() drops a confirmation version 0 was waiting for", () => {
  const migrated = migrateConcierge({
    channelFlow: {
      step: "await_confirm",
      inquiry_id: INQUIRY,
      pending: { tool: "order_create", args: {}, key: "k", token: "t" },
    },
  }, 0);
  assert.deepEqual(migrated, { step: "chosen", request: { inquiry_id: INQUIRY } });
});

Deno.test("migrateConcierge() restarts what it cannot read, or a version it does not know", () => {
  assert.equal(migrateConcierge({ channelFlow: { step: "flying" } }, 0), null);
  assert.equal(migrateConcierge({ channelFlow: "await_replies" }, 0), null);
  assert.equal(migrateConcierge({ step: "idle" }, 2), null);
});

Deno.test("conciergeMemory refuses the untyped channelFlow, so kept version 0 is migrated", () => {
  assert.equal(conciergeMemory.safeParse({}).success, true);
  assert.equal(conciergeMemory.safeParse({ channelFlow: { step: "idle" } }).success, false);
});

/** The webhook with the agent the platform runs (no model, the live router), for one buyer. */
async function webhook(db: TestDatabase) {
  const channel = await startAgentChannel(db, { model: null, router: platformRouter() });
  return {
    /** What the buyer is sent for one message of theirs, in order. */
    async say(content: SimulatedContent): Promise<string[]> {
      const before = (await channel.outbox(BUYER)).length;
      await channel.say(BUYER, content);
      return (await channel.outbox(BUYER)).slice(before).map(bodyText);
    },
  };
}

/** The buyer's conversation as the deploy before version 1 kept it: `state` under channelFlow. */
async function keptByVersion0(db: TestDatabase, state: unknown): Promise<void> {
  // The conversation the buyer's last message was part of.
  const [{ id }] = await db.query<{ id: string }>(
    `select conversation_id as id from public.messages
     where wamid is not null and direction = 'inbound' order by created_at desc limit 1`,
  );
  const graph = buildAgentGraph(new DatabaseCheckpointSaver({ db }));
  const config = { configurable: { thread_id: id } };
  const { values } = await graph.getState(config);
  // Every key the typed flow kept is cleared (null), as version 0 never wrote them.
  const cleared = Object.fromEntries(Object.keys(values.memory ?? {}).map((key) => [key, null]));
  await graph.updateState(config, { memory: { ...cleared, channelFlow: state } }, "act");
}

dbTest(
  "a buyer whose request the untyped concierge kept carries on with it after the deploy",
  async (db) => {
    const hook = await webhook(db);
    await hook.say({ text: "english please" });
    await hook.say({ text: "0" });
    await hook.say({ listReply: { id: "agent:buy_and_sell", title: "Buy & sell" } });
    await hook.say({ location: KIMIHURURA });
    const [found] = await hook.say({ text: "2 paracetamol" });
    assert.match(found, /^I found 2 vendors/);
    const [asked] = await hook.say({ buttonReply: { id: "concierge_ask", title: "Ask them" } });
    assert.match(asked, /^I asked 2 vendors/);
    const [{ id: inquiryId }] = await db.query<{ id: string }>(
      "select id from public.market_vendor_inquiries",
    );
    await keptByVersion0(db, {
      step: "await_replies",
      language: "en",
      query: "2 paracetamol",
      inquiry_id: inquiryId,
      business_ids: [],
      lat: KIMIHURURA.latitude,
      lng: KIMIHURURA.longitude,
      choices: [],
    });
    // Without the migration the flow would read a buyer who has just come: "no open request".
    const [updates] = await hook.say({ text: "updates" });
    assert.match(updates, /^Answers: 0 of 2 \(waiting\)/);
    // And it is version 1 from now on: the next turn reads it as it is.
    const [again] = await hook.say({ text: "updates" });
    assert.match(again, /^Answers: 0 of 2 \(waiting\)/);
  },
);

dbTest(
  "a buyer whose kept concierge state cannot be read starts again with a plain message",
  async (db) => {
    const hook = await webhook(db);
    await hook.say({ text: "english please" });
    await hook.say({ text: "0" });
    await hook.say({ listReply: { id: "agent:buy_and_sell", title: "Buy & sell" } });
    await keptByVersion0(db, { step: "flying", inquiry_id: 42 });
    const said = await hook.say({ text: "updates" });
    assert.deepEqual(said.length, 2, JSON.stringify(said));
    assert.match(said[0], /^This service has been updated since your last message/);
    assert.match(said[1], /^Hi! Tell me what you are looking for/);
  },
);
