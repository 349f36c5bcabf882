import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER as SEEDED } from "@testing/seed.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import type { ChatModel } from "./model.ts";
import { createOpenAIModel } from "./model.ts";
import { type Script, startScriptedOpenAI } from "@testing/openai_server.ts";
import { createAgentHandler } from "./whatsapp_agent.ts";
import { MODEL_FAILURE_REASON } from "./model_failures.ts";

const SECRET = "agent-test-app-secret";
const USER = "250788000001";
const CAFE = "c0000000-0000-4000-8000-000000000002";

/** The real webhook with the agent as its conversation handler, over `db`. */
async function agentChannel(
  db: TestDatabase,
  model: ChatModel | null,
  options: { from?: string } = {},
) {
  const from = options.from ?? USER;
  const rt = await createTestRuntime(db);
  const tasks: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, { model }),
    background: (task) => void tasks.push(task()),
  });
  let n = 0;
  const prefix = crypto.randomUUID().slice(0, 8);
  async function say(content: SimulatedContent) {
    const body = new TextEncoder().encode(
      JSON.stringify(messageDelivery({ from, wamid: `wamid.${prefix}.${n++}` }, content)),
    );
    const response = await channel.app.request("/wa-webhook", {
      method: "POST",
      headers: { "x-hub-signature-256": await signBody(SECRET, body) },
      body,
    });
    assert.equal(response.status, 200);
    while (tasks.length) await tasks.shift();
    await channel.dispatcher.drain();
    return await last();
  }
  async function last() {
    const [row] = await db.query<{ body: Record<string, unknown> }>(
      "select body from public.wa_outbox where to_wa_id = $1 order by seq desc limit 1",
      [from],
    );
    return row?.body ?? {};
  }
  // Every text sent to them since the `since`-th message (oldest first).
  async function sent(since = 0) {
    const rows = await db.query<{ body: Record<string, unknown> }>(
      "select body from public.wa_outbox where to_wa_id = $1 order by seq offset $2",
      [from, since],
    );
    return rows.map((row) => row.body);
  }
  return { rt, say, sent };
}

function text(body: Record<string, unknown>): string {
  return (body.text as { body: string } | undefined)?.body ??
    (body.interactive as { body: { text: string } } | undefined)?.body.text ?? "";
}

function choices(body: Record<string, unknown>): string[] {
  const action = (body.interactive as { action?: Record<string, unknown> } | undefined)?.action;
  const buttons = (action?.buttons as Array<{ reply: { id: string } }> | undefined) ?? [];
  const sections = (action?.sections as Array<{ rows: Array<{ id: string }> }> | undefined) ?? [];
  return [...buttons.map((b) => b.reply.id), ...sections.flatMap((s) => s.rows.map((r) => r.id))];
}

/** The real OpenAI client pointed at a scripted server. */
function modelOf(server: { apiKey: string; baseURL: string }): ChatModel {
  return createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "test" });
}

/** The model's answer to the routing prompt. */
function routedTo(agent: string, confidence = 0.9) {
  return { content: JSON.stringify({ agent, confidence }) };
}

async function orders(db: TestDatabase): Promise<number> {
  const [row] = await db.query<{ n: number }>("select count(*)::int as n from public.orders");
  return row.n;
}

dbTest("offline, Waiter AI takes an order from a venue's menu after Confirm, once", async (db) => {
  const { say } = await agentChannel(db, null);
  const front = await say({ text: "hi" });
  assert.ok(choices(front).includes("agent:waiter_ai"));
  const venues = await say({ listReply: { id: "agent:waiter_ai", title: "Food & drinks" } });
  assert.ok(choices(venues).includes(`venue:${CAFE}`), JSON.stringify(venues));
  const menu = await say({ listReply: { id: `venue:${CAFE}`, title: "Café Nyamirambo" } });
  assert.ok(choices(menu).includes("item:BRO-BEEF"));
  const ask = await say({ listReply: { id: "item:BRO-BEEF", title: "Beef brochette" } });
  // The read-back names the item and its price, never a SKU.
  assert.match(text(ask), /1 × Beef brochette — 1,500 RWF/);
  assert.doesNotMatch(text(ask), /BRO-BEEF/);
  assert.deepEqual(choices(ask), ["agent_confirm", "agent_cancel"]);
  assert.equal(await orders(db), 0);
  const done = await say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
  assert.match(text(done), /Order A-1001 at Café Nyamirambo[\s\S]*Total: 1,500 RWF/);
  // The Confirm tap delivered again (a second message) places nothing more.
  await say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
  assert.equal(await orders(db), 1);
});

dbTest("offline, Cancel drops the pending order", async (db) => {
  const { say } = await agentChannel(db, null);
  await say({ text: "I want to order food" });
  await say({ listReply: { id: `venue:${CAFE}`, title: "Café Nyamirambo" } });
  await say({ listReply: { id: "item:CAF-LAT", title: "Café latte" } });
  const cancelled = await say({ buttonReply: { id: "agent_cancel", title: "Cancel" } });
  assert.match(text(cancelled), /cancelled/);
  assert.equal(await orders(db), 0);
});

dbTest("asking for help at a pending confirmation keeps it and asks again", async (db) => {
  const cases = [
    { from: "250788000091", start: "I want to order food", help: "help", says: /Tap “Confirm”/ },
    {
      from: "250788000092",
      start: "je veux commander à manger",
      help: "aide",
      says: /« Confirmer »/,
    },
  ];
  for (const { from, start, help, says } of cases) {
    const { say } = await agentChannel(db, null, { from });
    await say({ text: start });
    await say({ listReply: { id: `venue:${CAFE}`, title: "Café Nyamirambo" } });
    const asked = await say({ listReply: { id: "item:CAF-LAT", title: "Café latte" } });
    assert.deepEqual(choices(asked), ["agent_confirm", "agent_cancel"], start);
    // What they can do, in their language, and the same read-back with its buttons: nothing
    // dropped (any other words cancel the pending order and are read as a new request).
    const helped = await say({ text: help });
    assert.match(text(helped), says, help);
    assert.match(text(helped), /Café latte/, help);
    assert.deepEqual(choices(helped), ["agent_confirm", "agent_cancel"], help);
    const done = await say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
    assert.match(text(done), /A-100\d/, help);
  }
  assert.equal(await orders(db), 2);
});

dbTest("a question at a pending order is answered and the same order kept", async (db) => {
  const cases = [
    {
      from: "250788000093",
      start: "I want to order food",
      ask: "can I pay with MoMo?",
      stock: "is it in stock?",
    },
    {
      from: "250788000094",
      start: "je veux commander à manger",
      ask: "Je peux payer par MoMo ?",
      stock: "c'est disponible ?",
    },
    {
      from: "250788000095",
      start: "ndashaka gutumiza ibiryo",
      ask: "nakwishyura kuri MoMo?",
      stock: "ese birahari?",
    },
  ];
  for (const { from, start, ask, stock } of cases) {
    const { say, sent } = await agentChannel(db, null, { from });
    await say({ text: start });
    await say({ listReply: { id: `venue:${CAFE}`, title: "Café Nyamirambo" } });
    await say({ listReply: { id: "item:CAF-LAT", title: "Café latte" } });
    const before = (await sent()).length;
    const kept = await say({ text: ask });
    const [answer] = await sent(before);
    // The answer first (MoMo after Confirm), then the same read-back with its buttons.
    assert.match(text(answer), /MoMo/, ask);
    assert.doesNotMatch(text(answer), /What would you like|Que voulez-vous|Urashaka gutumiza/, ask);
    assert.match(text(kept), /Café latte/, ask);
    assert.deepEqual(choices(kept), ["agent_confirm", "agent_cancel"], ask);
    // "Is it in stock?" points at the order waiting: its lines, priced from the stock just now.
    const asked = (await sent()).length;
    const again = await say({ text: stock });
    const [told] = await sent(asked);
    assert.match(
      text(told),
      /everything in this order is in stock|tout ce qui est dans cette commande est en stock|byose birahari/,
      stock,
    );
    assert.deepEqual(choices(again), ["agent_confirm", "agent_cancel"], stock);
    const done = await say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
    assert.match(text(done), /A-100\d/, ask);
  }
  // Each Confirm placed the order that waited: three orders, one latte each.
  const lines = await db.query<{ sku: string; qty: number }>(
    "select sku, qty from public.order_items order by sku",
  );
  assert.equal(await orders(db), 3);
  assert.ok(lines.every((line) => line.qty === 1), JSON.stringify(lines));
});

dbTest("a new request at a pending order replaces it, said so; « annuler » cancels", async (db) => {
  const cases = [
    {
      from: "250788000096",
      start: "I want to order food",
      next: "I need a moto to Remera",
      says: /was not confirmed, so it was not done/,
    },
    {
      from: "250788000097",
      start: "je veux commander à manger",
      next: "je veux une moto pour aller à Remera",
      says: /n'a pas été confirmé : rien n'a été fait/,
    },
    {
      from: "250788000098",
      start: "ndashaka gutumiza ibiryo",
      next: "ndashaka moto ijya i Remera",
      says: /ntibyemejwe, bityo ntibyakozwe/,
    },
  ];
  for (const { from, start, next, says } of cases) {
    const { say, sent } = await agentChannel(db, null, { from });
    await say({ text: start });
    await say({ listReply: { id: `venue:${CAFE}`, title: "Café Nyamirambo" } });
    await say({ listReply: { id: "item:CAF-LAT", title: "Café latte" } });
    const before = (await sent()).length;
    await say({ text: next });
    const [told] = await sent(before);
    assert.match(text(told), says, next);
    // The old buttons place nothing any more.
    await say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
  }
  const { say } = await agentChannel(db, null, { from: "250788000099" });
  await say({ text: "je veux commander à manger" });
  await say({ listReply: { id: `venue:${CAFE}`, title: "Café Nyamirambo" } });
  await say({ listReply: { id: "item:CAF-LAT", title: "Café latte" } });
  const cancelled = await say({ text: "annuler" });
  assert.doesNotMatch(text(cancelled), /n'a pas été confirmé/);
  assert.equal(await orders(db), 0);
  // The same order in another quantity is that order changed: its new read-back, no "not done".
  const changing = await agentChannel(db, null, { from: "250788000090" });
  await changing.say({ text: "I want to order food" });
  await changing.say({ listReply: { id: `venue:${CAFE}`, title: "Café Nyamirambo" } });
  await changing.say({ listReply: { id: "item:CAF-LAT", title: "Café latte" } });
  const before = (await changing.sent()).length;
  const redrafted = await changing.say({ text: "make it 3" });
  assert.match(text(redrafted), /3 × Café latte/);
  assert.ok(
    (await changing.sent(before)).every((body) => !/was not confirmed/.test(text(body))),
  );
  await changing.say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
  const [line] = await db.query<{ qty: number }>("select qty from public.order_items");
  assert.equal(line.qty, 3);
});

dbTest("offline, Pharmacy finds an item and Support & Handoff reaches a person", async (db) => {
  const { say } = await agentChannel(db, null);
  const found = await say({ text: "Pharmacy: do you have paracetamol?" });
  assert.match(
    text(found),
    /Paracetamol 500mg \(10 tablets\): from 500 RWF at Pharmacie Conseil Kimihurura/,
  );
  // Where to order it: the pharmacies that have it, cheapest first.
  assert.equal(choices(found).length, 2);
  assert.ok(choices(found).every((id) => id.startsWith("venue:")), JSON.stringify(found));
  const handed = await say({ text: "I want to talk to a person" });
  assert.match(text(handed), /asked a person from our team/);
  const [ticket] = await db.query<{ reason: string }>("select reason from public.staff_tickets");
  assert.equal(ticket.reason, "asked for a person");
  const [conversation] = await db.query<{ status: string }>(
    "select status from public.conversations",
  );
  assert.equal(conversation.status, "handoff");
});

dbTest("a pending confirmation survives a restart", async (db) => {
  const first = await agentChannel(db, null);
  await first.say({ text: "I want to order food" });
  await first.say({ listReply: { id: `venue:${CAFE}`, title: "Café Nyamirambo" } });
  await first.say({ listReply: { id: "item:BRO-BEEF", title: "Beef brochette" } });
  // A new process: new runtime, new graph, new checkpointer over the same database.
  const restarted = await agentChannel(db, null);
  const done = await restarted.say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
  assert.match(text(done), /Order A-1001 at Café Nyamirambo/);
  assert.equal(await orders(db), 1);
});

dbTest("with a model, a tool outside the agent's allowlist is refused and traced", async (db) => {
  // The router is sure it is the pharmacy: the model is asked only to act.
  const script: Script = [
    // Pharmacy asks for a buy & sell tool it is not granted.
    {
      tool_calls: [{
        name: "search_businesses_with_tags",
        arguments: { query_text: "paracetamol" },
      }],
    },
    { content: "Sorry, I can only check our pharmacies' stock." },
  ];
  await using server = startScriptedOpenAI({ script });
  const model = modelOf(server);
  const { rt, say } = await agentChannel(db, model);
  const reply = await say({ text: "pharmacy: paracetamol please" });
  assert.equal(text(reply), "Sorry, I can only check our pharmacies' stock.");
  // The model was only offered the pharmacy's tools, and was told the call was refused.
  const bodies = server.requests.map((request) => JSON.parse(JSON.stringify(request.body)));
  const offered = (bodies[0].tools as Array<{ function: { name: string } }>)
    .map((t) => t.function.name).sort();
  assert.ok(!offered.includes("search_businesses_with_tags"));
  assert.ok(offered.includes("inventory_check"));
  const toolTurn = (bodies[1].messages as Array<{ role: string; content: string }>)
    .find((m) => m.role === "tool");
  assert.match(String(toolTurn?.content), /AUTH_ERROR/);
  await rt.platform.traces.flush();
  const [trace] = await db.query<{ agent_id: string; error_code: string }>(
    "select agent_id, error_code from public.tool_calls where tool = 'search_businesses_with_tags'",
  );
  assert.deepEqual(trace, { agent_id: "pharmacy", error_code: "AUTH_ERROR" });
});

dbTest(
  "with a model, routing asks the model only when the classifier is unsure",
  async (db) => {
    const routing = (body: unknown) => !(body as { tools?: unknown[] }).tools?.length;
    const script: Script = (body) =>
      routing(body) ? routedTo("pharmacy") : { content: "Which medicine do you need?" };
    await using server = startScriptedOpenAI({ script });
    const { say } = await agentChannel(db, modelOf(server));
    // Sure (a pharmacy request): the model is asked to act, never to route.
    await say({ text: "Pharmacy: do you have paracetamol?" });
    assert.deepEqual(server.requests.map((request) => routing(request.body)), [false]);
    // Unsure ("hmm ok" names no service): the model routes, then acts as the agent it chose.
    const other = await agentChannel(db, modelOf(server), { from: "250788000070" });
    const asked = await other.say({ text: "hmm ok" });
    assert.equal(text(asked), "Which medicine do you need?");
    assert.deepEqual(server.requests.map((request) => routing(request.body)), [
      false,
      true,
      false,
    ]);
    const offered = (server.requests[2].body?.tools ?? []).map((tool) =>
      tool.type === "function" ? tool.function.name : ""
    );
    assert.ok(offered.includes("inventory_check"), offered.join());
  },
);

dbTest("with a model, an order runs only after Confirm, exactly once", async (db) => {
  const script: Script = [
    {
      tool_calls: [{
        name: "order_create",
        arguments: {
          venue_id: CAFE,
          items: [{ sku: "BRO-BEEF", qty: 2, name: null, price: null }],
        },
      }],
    },
    { content: "Your order is placed: 3000 RWF." },
    { content: "Anything else?" },
  ];
  await using server = startScriptedOpenAI({ script });
  const model = modelOf(server);
  const { say } = await agentChannel(db, model);
  const ask = await say({ text: "menu: two beef brochettes please" });
  assert.match(text(ask), /Order at Café Nyamirambo: 2 × Beef brochette/);
  assert.equal(await orders(db), 0);
  const done = await say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
  assert.equal(text(done), "Your order is placed: 3000 RWF.");
  await say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
  assert.equal(await orders(db), 1);
  const [order] = await db.query<{ total: number }>(
    "select total::int as total from public.orders",
  );
  assert.equal(order.total, 3000);
});

dbTest("a sensitive topic goes straight to a person, urgently", async (db) => {
  const { say } = await agentChannel(db, null);
  await say({ text: "menu" });
  const reply = await say({ text: "Someone stole my phone, I think it is a scam" });
  assert.match(text(reply), /asked a person from our team/);
  const [ticket] = await db.query<{ reason: string; priority: string }>(
    "select reason, priority from public.staff_tickets",
  );
  assert.deepEqual(ticket, { reason: "sensitive topic", priority: "urgent" });
});

dbTest("an agent that keeps failing hands the conversation to a person", async (db) => {
  const script: Script = () => ({
    tool_calls: [{ name: "inventory_check", arguments: { items: [] } }],
  });
  await using server = startScriptedOpenAI({ script });
  const model = modelOf(server);
  const { say } = await agentChannel(db, model);
  for (let i = 0; i < 3; i++) await say({ text: "pharmacy: paracetamol" });
  assert.equal((await db.query("select 1 from public.staff_tickets")).length, 0);
  const handed = await say({ text: "pharmacy: paracetamol" });
  assert.match(text(handed), /asked a person from our team/);
  const [ticket] = await db.query<{ reason: string }>("select reason from public.staff_tickets");
  assert.equal(ticket.reason, "the assistant kept failing");
});

dbTest("with a model, Cancel runs nothing and the model is told", async (db) => {
  const script: Script = [
    {
      tool_calls: [{
        name: "order_create",
        arguments: { venue_id: CAFE, items: [{ sku: "CAF-LAT", qty: 1 }] },
      }],
    },
    { content: "No problem, nothing was ordered." },
  ];
  await using server = startScriptedOpenAI({ script });
  const model = modelOf(server);
  const { say } = await agentChannel(db, model);
  await say({ text: "menu: one latte" });
  const reply = await say({ buttonReply: { id: "agent_cancel", title: "Cancel" } });
  assert.equal(text(reply), "No problem, nothing was ordered.");
  assert.equal(await orders(db), 0);
  const toolTurn = JSON.parse(JSON.stringify(server.requests[1].body)).messages
    .find((m: { role: string }) => m.role === "tool");
  assert.match(toolTurn.content, /CANCELLED/);
});

/** A scripted step that answers only when the server closes (the client times out first). */
async function neverInTime(signal: AbortSignal) {
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, 10_000);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
  return { content: "too late" };
}

async function modelTickets(db: TestDatabase) {
  return await db.query<{ priority: string; convo_id: string | null; channel: string }>(
    "select priority, convo_id, channel from public.staff_tickets where reason = $1",
    [MODEL_FAILURE_REASON],
  );
}

dbTest(
  "a broken OpenAI key: the offline flow answers, each failure is logged with its trace id and counted, repeats raise one ticket",
  async (db) => {
    const key = "sk-expired-0123456789abcdef";
    await using server = startScriptedOpenAI({ script: () => ({ content: "never reached" }) });
    const broken = createOpenAIModel({ apiKey: key, baseURL: server.baseURL, model: "test" });
    const offline = await agentChannel(db, null, { from: "250788000050" });
    const online = await agentChannel(db, broken);
    for (const message of [{ text: "hi" }, { text: "Pharmacy: do you have paracetamol?" }]) {
      const expected = await offline.say(message);
      const got = await online.say(message);
      assert.equal(text(got), text(expected));
      assert.deepEqual(choices(got), choices(expected));
      assert.ok(text(got).length > 0);
    }
    // The model was asked and refused the key, as OpenAI does.
    assert.ok(server.requests.length >= 2);
    assert.ok(server.requests.every((request) => !request.authorized));

    const failures = await db.query<{ trace_id: string; http_status: number; code: string }>(
      "select trace_id, http_status, code from public.model_failures order by id",
    );
    assert.deepEqual(failures.map((f) => [f.http_status, f.code]), [
      [401, "invalid_api_key"],
      [401, "invalid_api_key"],
    ]);
    // Each is logged under the trace id of the turn: the inbound message's wamid.
    const logged = online.rt.log.lines.filter((line) => line.event === "model_unavailable");
    assert.deepEqual(logged.map((line) => line.trace_id), failures.map((f) => f.trace_id));
    const inbound = await db.query<{ wamid: string }>(
      "select wamid from public.messages where direction = 'inbound' and wamid = any($1::text[])",
      [failures.map((f) => f.trace_id)],
    );
    assert.equal(inbound.length, 2);
    assert.ok(!JSON.stringify(online.rt.log.lines).includes(key), "the key reached the log");
    assert.deepEqual(await modelTickets(db), []);

    // Failures keep coming: staff get one ticket, not one per message. The third failure in a
    // row opens the breaker: the model is no longer asked, and skipped turns count as nothing.
    const asked = server.requests.length;
    for (let i = 0; i < 4; i++) {
      const reply = await online.say({ text: "Pharmacy: do you have paracetamol?" });
      assert.match(text(reply), /Paracetamol 500mg/);
    }
    assert.equal(server.requests.length, asked + 1);
    assert.deepEqual(await modelTickets(db), [{
      priority: "high",
      convo_id: null,
      channel: "inbox",
    }]);
    const [count] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.model_failures",
    );
    assert.equal(count.n, 3);
    const skipped = online.rt.log.lines.filter((line) => line.event === "model_skipped");
    assert.equal(skipped.length, 3);
  },
);

dbTest(
  "a model that times out or answers 5xx: the buy & sell turn is answered by the offline flow",
  async (db) => {
    await using slow = startScriptedOpenAI({ script: (_body, { signal }) => neverInTime(signal) });
    await using failing = startScriptedOpenAI({
      script: () => ({
        status: 503,
        error: { message: "The server is overloaded", type: "server_error", code: null },
        headers: { "retry-after-ms": "0" },
      }),
    });
    const ask = { text: "I am looking for a phone charger" };
    const offline = await agentChannel(db, null, { from: "250788000060" });
    const expected = await offline.say(ask);
    assert.ok(text(expected).length > 0);
    const cases = [
      {
        from: "250788000061",
        model: createOpenAIModel({
          apiKey: slow.apiKey,
          baseURL: slow.baseURL,
          model: "test",
          timeoutMs: 100,
        }),
      },
      { from: "250788000062", model: modelOf(failing) },
    ];
    for (const { from, model } of cases) {
      const { say } = await agentChannel(db, model, { from });
      const got = await say(ask);
      assert.equal(text(got), text(expected), from);
      assert.deepEqual(choices(got), choices(expected));
    }
    // The 5xx was retried once by the client, then the turn went offline.
    assert.ok(failing.requests.length >= 2);
    const failures = await db.query<{ reason: string; http_status: number | null }>(
      "select reason, http_status from public.model_failures order by id",
    );
    assert.deepEqual(failures, [
      { reason: "timeout", http_status: null },
      { reason: "http", http_status: 503 },
    ]);
  },
);

/** The first line of the latest ticket's summary (the tool adds earlier messages below it). */
async function latestNeed(db: TestDatabase): Promise<string> {
  const [ticket] = await db.query<{ summary: string }>(
    "select summary from public.staff_tickets order by created_at desc, id limit 1",
  );
  return ticket.summary.split("\n")[0];
}

dbTest("a ticket names the agent the person was with by its name, not its id", async (db) => {
  const { say } = await agentChannel(db, null);
  // Legal Intake is reached by its words only: it is not on the menu.
  await say({ text: "I need a lawyer for a land dispute" });
  await say({ listReply: { id: "agent:support_handoff", title: "Talk to a person" } });
  assert.equal(await latestNeed(db), "Asked for a person while with Legal Intake");
});

dbTest("a ticket is written in the staff's language: the tenant's first", async (db) => {
  await db.query("update public.orgs set languages = '{rw,en}' where slug = 'easymo'");
  const { say } = await agentChannel(db, null);
  await say({ text: "I need a lawyer for a land dispute" });
  await say({ listReply: { id: "agent:support_handoff", title: "Talk to a person" } });
  assert.equal(
    await latestNeed(db),
    "Yasabye kuvugana n'umuntu ari kuri Kwakira ibibazo by'amategeko",
  );
});

dbTest("a complaint's ticket says what it is about, in any language", async (db) => {
  const complaints = [
    ["250788000001", "the driver was rude and overcharged me"],
    ["250788123456", "umumotari yantutse, ndashaka kumurega"],
    ["250788123457", "je veux me plaindre d'un motard"],
  ];
  for (const [from, complaint] of complaints) {
    const { say } = await agentChannel(db, null, { from });
    const handed = await say({ text: complaint });
    assert.match(text(handed), /person|umukozi|personne/);
  }
  const tickets = await db.query<{ reason: string }>(
    "select reason from public.staff_tickets order by created_at, id",
  );
  assert.deepEqual(tickets.map((t) => t.reason), [
    "complaint about the driver",
    "complaint about the driver",
    "complaint about the driver",
  ]);
});

dbTest(
  "a first message complaining about a driver, a waiter or a venue reaches a person, not a new ride or order",
  async (db) => {
    const complaints = [
      ["250788000001", "Mfite ikibazo, umushoferi yanshyize nabi"],
      ["250788123456", "le serveur était désagréable avec nous hier soir"],
      ["250788123457", "I want to complain about the restaurant, the food was cold"],
    ];
    for (const [from, complaint] of complaints) {
      const { say } = await agentChannel(db, null, { from });
      const handed = await say({ text: complaint });
      assert.match(text(handed), /person|umukozi|personne/, complaint);
    }
    const tickets = await db.query<{ reason: string }>(
      "select reason from public.staff_tickets order by created_at, id",
    );
    assert.deepEqual(tickets.map((t) => t.reason), [
      "complaint about the driver",
      "complaint about the waiter",
      "complaint about the venue",
    ]);
  },
);

dbTest("a refused table time lists the free times once, in the diner's language", async (db) => {
  const asks = [
    [
      "250788000001",
      "book a table for 4 tomorrow at 3am",
      /^\S.* is closed then\.\nThe nearest free times:$/,
    ],
    [
      "250788123456",
      "ndashaka kubika ameza y'abantu 4 ejo saa cyenda z'ijoro",
      /^\S.* iba ifunze icyo gihe\.\nIgihe cyegereye gihari:$/,
    ],
    [
      "250788123457",
      "je veux réserver une table pour 4 demain à 3h",
      /^\S.* est fermé à cette heure-là\.\nLes créneaux libres les plus proches :$/,
    ],
  ] as const;
  for (const [from, ask, expected] of asks) {
    const { say } = await agentChannel(db, null, { from });
    await say({ text: ask });
    const refused = await say({ buttonReply: { id: `book:${CAFE}`, title: "Café Nyamirambo" } });
    // The times are the buttons only: the text names none (it listed them in English before).
    assert.match(text(refused), expected);
    assert.ok(
      choices(refused).length > 0 && choices(refused).every((id) => id.startsWith("slot:")),
    );
  }
});

dbTest(
  "offline, 'move it' / 'cancel it' with nothing named: none open is said in the person's language; one open booking is managed",
  async (db) => {
    const { rt, say } = await agentChannel(db, null, { from: "250788300999" });
    // Nothing open: said in their language, with the menu; never a search for the verb.
    for (
      const [message, told] of [
        ["ndashaka kuyimura", /Nta kintu ufite gitegereje/],
        ["I want to move it", /nothing open with us/],
        ["je veux l'annuler", /rien en cours/],
      ] as const
    ) {
      const reply = await say({ text: message });
      assert.match(text(reply), told, JSON.stringify(reply));
      assert.ok(choices(reply).includes("agent:waiter_ai"), JSON.stringify(reply));
    }
    // Aline's one booked table (two days after the real day, so it is ahead of every clock).
    const day = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const booked = await rt.callAs(SEEDED.aline, "reservation_book", {
      venue_id: CAFE,
      when: `${day}T19:00:00+02:00`,
      size: 2,
      name: "Aline",
      phone: "+250788000001",
    }, { idempotencyKey: "book-move-it" });
    assert.ok(booked.ok, JSON.stringify(booked));
    const aline = await agentChannel(db, null);
    const moving = await aline.say({ text: "nshobora kuyimura?" });
    // Asked when to move that very table, in Kinyarwanda, by its venue's name.
    assert.match(text(moving), /^Ameza yawe kuri Café Nyamirambo .*nyimurire ryari\?/);
    // Leaving asks about the table (cancel or keep); kept, the menu follows.
    assert.deepEqual(choices(await aline.say({ text: "0" })), ["leave:cancel", "leave:keep"]);
    const menu = await aline.say({ buttonReply: { id: "leave:keep", title: "Bigumane" } });
    assert.ok(choices(menu).includes("agent:waiter_ai"), JSON.stringify(menu));
    const cancelling = await aline.say({ text: "pouvez-vous l'annuler ?" });
    // Asked in French to confirm cancelling that very table, by its venue; confirmed, it is
    // cancelled (the venue is told by the pack's cancel).
    assert.match(text(cancelling), /^Annuler .*Café Nyamirambo.*, ou le garder \?$/);
    assert.deepEqual(choices(cancelling), ["leave:cancel", "leave:keep"]);
    await aline.say({ buttonReply: { id: "leave:cancel", title: "Annuler" } });
    const [row] = await db.query<{ status: string }>(
      "select status from public.reservations where confirmation_code = $1",
      [booked.data.confirmation_code],
    );
    assert.equal(row.status, "cancelled");
  },
);
