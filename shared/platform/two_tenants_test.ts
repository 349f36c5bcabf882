/**
 * One deployment, two tenants: EasyMO and Beaver's Choice each own a
 * WhatsApp number (seeded in `tenant_whatsapp_numbers`), each with its own
 * token and app secret, each number played by its own loopback Graph server.
 * The same person writes to both; each tenant answers in its own brand from
 * its own number, and every row the conversation leaves carries only its
 * tenant's org.
 */
import assert from "node:assert/strict";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { type ChatModel, createOpenAIModel } from "@shared/agent/model.ts";
import { startScriptedOpenAI } from "@testing/openai_server.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { textMessage } from "@shared/channels/whatsapp/messages.ts";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { type FakeGraph, startFakeGraph } from "@testing/graph_server.ts";
import { createTestRuntime, type TestRuntimeOptions } from "@testing/runtime.ts";
import { startTestStorage } from "@testing/storage.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { ORG } from "@testing/seed.ts";
import { AGENT_CONFIGS } from "../../config/agent_configs.ts";

// EasyMO's second number is not seeded: the tests that need it add its row.
const NUMBER = {
  easymo: "100000000000001",
  beaver: "100000000000002",
  easymo2: "100000000000003",
};
// What the number rows name, and their values here.
const SECRETS: Record<string, string> = {
  WHATSAPP_TOKEN: "easymo-graph-token",
  WHATSAPP_APP_SECRET: "easymo-app-secret",
  WHATSAPP_TOKEN_BEAVER: "beaver-graph-token",
  WHATSAPP_APP_SECRET_BEAVER: "beaver-app-secret",
  WHATSAPP_TOKEN_EASYMO_2: "easymo-second-graph-token",
  WHATSAPP_APP_SECRET_EASYMO_2: "easymo-second-app-secret",
};

/** Adds EasyMO's second number, with its own token and app secret, as an operator would. */
async function addSecondEasymoNumber(db: TestDatabase): Promise<void> {
  await db.query(
    `insert into public.tenant_whatsapp_numbers
       (phone_number_id, org_id, display_number, token_secret_name, app_secret_name)
     values ($1, $2, '+250780000003', 'WHATSAPP_TOKEN_EASYMO_2', 'WHATSAPP_APP_SECRET_EASYMO_2')`,
    [NUMBER.easymo2, ORG.easymo],
  );
}
const PERSON = "250788777001";

// The bundled agent file, with the pharmacy run by Beaver instead of EasyMO.
function pharmacyRunByBeaver() {
  const config = structuredClone(AGENT_CONFIGS) as {
    tenants: Record<string, { agents: Array<{ id: string }> }>;
  };
  const easymo = config.tenants.easymo.agents;
  const pharmacy = easymo.splice(easymo.findIndex((agent) => agent.id === "pharmacy"), 1);
  config.tenants["beaver-paper"] = { agents: pharmacy };
  return config;
}

async function twoTenants(
  db: TestDatabase,
  options: {
    agentConfig?: unknown;
    model?: ChatModel;
    now?: () => Date;
    provide?: TestRuntimeOptions["provide"];
  } = {},
) {
  const graphs: Record<string, FakeGraph> = {
    [NUMBER.easymo]: await startFakeGraph({
      phoneNumberId: NUMBER.easymo,
      token: SECRETS.WHATSAPP_TOKEN,
    }),
    [NUMBER.beaver]: await startFakeGraph({
      phoneNumberId: NUMBER.beaver,
      token: SECRETS.WHATSAPP_TOKEN_BEAVER,
    }),
    [NUMBER.easymo2]: await startFakeGraph({
      phoneNumberId: NUMBER.easymo2,
      token: SECRETS.WHATSAPP_TOKEN_EASYMO_2,
    }),
  };
  // Meta's one Graph host, played by one loopback server per number: a send's path names the
  // number; a media lookup names only the media, so the token it carries picks the server (a
  // lookup with another number's token asks a server that never held the file). Downloads go
  // to the URL the lookup answered.
  const graphFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.host !== "graph.example") return fetch(input, init);
    const [, , id, action] = url.pathname.split("/");
    if (action === "messages") {
      const graph = graphs[id];
      if (!graph) return Promise.resolve(new Response("no such number", { status: 404 }));
      return fetch(`${graph.baseUrl}/${id}/messages`, init);
    }
    const token = new Headers(init?.headers).get("authorization")?.replace(/^Bearer /, "");
    const graph = Object.values(graphs).find((candidate) => candidate.token === token);
    if (!graph) return Promise.resolve(new Response("unknown token", { status: 401 }));
    return fetch(`${graph.baseUrl}/${id}`, init);
  };
  const rt = await createTestRuntime(db, {
    agentConfig: options.agentConfig,
    now: options.now,
    provide: options.provide,
  });
  const tasks: Promise<unknown>[] = [];
  const secrets = (name: string) => SECRETS[name];
  const channel = createWhatsAppChannel(rt, {
    secrets,
    verifyToken: "v",
    numbers: { secrets, baseUrl: "https://graph.example/v21.0", fetch: graphFetch },
    conversation: createAgentHandler(rt, { model: options.model ?? null }),
    background: (task) => void tasks.push(task()),
  });
  let n = 0;
  async function post(
    number: string,
    content: string | SimulatedContent,
    appSecret: string,
    from = PERSON,
  ): Promise<number> {
    const payload = messageDelivery(
      { from, wamid: `wamid.two.${n++}`, phoneNumberId: number },
      typeof content === "string" ? { text: content } : content,
    );
    const body = new TextEncoder().encode(JSON.stringify(payload));
    const response = await channel.app.request("/wa-webhook", {
      method: "POST",
      headers: { "x-hub-signature-256": await signBody(appSecret, body) },
      body,
    });
    await response.body?.cancel();
    while (tasks.length) await tasks.shift();
    await channel.dispatcher.drain();
    return response.status;
  }
  const menus = (number: string) =>
    graphs[number].accepted.map((message) => {
      const body = message.body as {
        interactive?: { action?: { sections?: Array<{ rows: Array<{ id: string }> }> } };
      };
      return (body.interactive?.action?.sections ?? []).flatMap((section) =>
        section.rows.map((row) => row.id)
      );
    });
  const sent = (number: string) =>
    graphs[number].accepted.map((message) => {
      const body = message.body as {
        text?: { body: string };
        interactive?: { body: { text: string } };
      };
      return body.text?.body ?? body.interactive?.body.text ?? "";
    });
  return {
    rt,
    channel,
    post,
    sent,
    menus,
    graphs,
    async close() {
      for (const graph of Object.values(graphs)) await graph.close();
    },
  };
}

async function orgsOf(db: TestDatabase, sql: string, params: unknown[] = []): Promise<string[]> {
  const rows = await db.query<{ org_id: string }>(sql, params);
  return [...new Set(rows.map((row) => row.org_id))].sort();
}

dbTest(
  "one deployment serves two tenants: each number's messages reach its tenant, in its brand, from its number, and no row crosses",
  async (db) => {
    const t = await twoTenants(db);
    try {
      assert.equal(await t.post(NUMBER.easymo, "hi", SECRETS.WHATSAPP_APP_SECRET), 200);
      assert.equal(await t.post(NUMBER.beaver, "hi", SECRETS.WHATSAPP_APP_SECRET_BEAVER), 200);

      // Each reply leaves from its tenant's number (its own Graph server, its own token), in its
      // brand, and names neither the other brand.
      const easymo = t.sent(NUMBER.easymo);
      const beaver = t.sent(NUMBER.beaver);
      assert.equal(easymo.length, 1, easymo.join(" | "));
      assert.equal(beaver.length, 1, beaver.join(" | "));
      assert.match(easymo[0], /I'm EasyMO\./);
      assert.match(beaver[0], /I'm Beaver's Choice\./);
      assert.doesNotMatch(easymo[0], /Beaver/);
      assert.doesNotMatch(beaver[0], /EasyMO/);
      for (const number of [NUMBER.easymo, NUMBER.beaver]) {
        assert.ok(t.graphs[number].requests.every((request) => request.authorized));
        assert.deepEqual(t.graphs[number].accepted.map((message) => message.to), [PERSON]);
      }

      // Rows: one inbound row, window, conversation and reply per tenant, each in its org.
      const inbound = await db.query<{ phone_number_id: string; org_id: string }>(
        "select phone_number_id, org_id from private.wa_inbound order by phone_number_id",
      );
      assert.deepEqual(inbound.map((row) => [row.phone_number_id, row.org_id]), [
        [NUMBER.easymo, ORG.easymo],
        [NUMBER.beaver, ORG.beaver],
      ]);
      const both = [ORG.easymo, ORG.beaver].sort();
      assert.deepEqual(
        await orgsOf(db, "select org_id from public.wa_contacts where wa_id = $1", [PERSON]),
        both,
      );
      const conversations = await db.query<{ id: string; org_id: string }>(
        `select c.id, c.org_id from public.conversations c
         join public.profiles p on p.id = c.user_id where p.phone = $1`,
        [`+${PERSON}`],
      );
      assert.deepEqual(conversations.map((row) => row.org_id).sort(), both);
      // Each conversation's messages and replies are in its own org.
      for (const conversation of conversations) {
        assert.deepEqual(
          await orgsOf(db, "select org_id from public.messages where conversation_id = $1", [
            conversation.id,
          ]),
          [conversation.org_id],
        );
        assert.deepEqual(
          await orgsOf(db, "select org_id from public.wa_outbox where conversation_id = $1", [
            conversation.id,
          ]),
          [conversation.org_id],
        );
      }
      // Each reply's outbox row is its tenant's; the Graph server it left from is that tenant's.
      const outbox = await db.query<{ org_id: string; wamid: string }>(
        "select org_id, wamid from public.wa_outbox where to_wa_id = $1",
        [PERSON],
      );
      for (const row of outbox) {
        const number = row.org_id === ORG.easymo ? NUMBER.easymo : NUMBER.beaver;
        assert.ok(t.graphs[number].accepted.some((message) => message.wamid === row.wamid));
      }
      // The agent's checkpoints: one thread per conversation, so per tenant.
      const threads = await db.query<{ thread_id: string }>(
        "select distinct thread_id from private.agent_checkpoints",
      );
      assert.deepEqual(
        threads.map((row) => row.thread_id).sort(),
        conversations.map((row) => row.id).sort(),
      );

      // A person handed to staff at EasyMO: the ticket and the trace are EasyMO's only.
      assert.equal(
        await t.post(NUMBER.easymo, "I want to talk to a person", SECRETS.WHATSAPP_APP_SECRET),
        200,
      );
      await t.rt.platform.traces.flush();
      assert.deepEqual(await orgsOf(db, "select org_id from public.staff_tickets"), [ORG.easymo]);
      const tickets = await db.query<{ convo_id: string }>(
        "select convo_id from public.staff_tickets",
      );
      const easymoConversation = conversations.find((row) => row.org_id === ORG.easymo)!;
      assert.deepEqual(tickets.map((row) => row.convo_id), [easymoConversation.id]);
      assert.deepEqual(
        await orgsOf(db, "select org_id from public.tool_calls where tool = 'notify_staff'"),
        [ORG.easymo],
      );
      assert.equal(t.sent(NUMBER.beaver).length, 1, "Beaver's number said nothing more");
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a number no tenant has is answered 200 and nothing is stored; a number's messages count only when its own app secret signed them",
  async (db) => {
    const t = await twoTenants(db);
    try {
      const count = async () => {
        const [row] = await db.query<{ inbound: number; contacts: number; outbox: number }>(
          `select (select count(*)::int from private.wa_inbound) as inbound,
                  (select count(*)::int from public.wa_contacts) as contacts,
                  (select count(*)::int from public.wa_outbox) as outbox`,
        );
        return row;
      };
      const before = await count();
      // Unknown number, validly signed: 200 (Meta must not retry), nothing stored for anyone.
      assert.equal(await t.post("100000000000999", "hi", SECRETS.WHATSAPP_APP_SECRET), 200);
      // Beaver's number signed with EasyMO's app secret: EasyMO's app cannot speak for it.
      assert.equal(await t.post(NUMBER.beaver, "hi", SECRETS.WHATSAPP_APP_SECRET), 200);
      assert.deepEqual(await count(), before);
      // A secret no number has: refused.
      assert.equal(await t.post(NUMBER.easymo, "hi", "not-a-secret-of-ours"), 403);
      assert.deepEqual(await count(), before);
      assert.deepEqual(t.sent(NUMBER.easymo), []);
      assert.deepEqual(t.sent(NUMBER.beaver), []);
      const events = t.rt.log.lines.map((line) => line.event);
      assert.ok(events.includes("wa_number_unknown"), events.join());
      assert.ok(events.includes("wa_number_not_signed"), events.join());
      // The log names the number, never the sender.
      assert.ok(!JSON.stringify(t.rt.log.lines).includes(PERSON));
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "each tenant's menu offers the agents the agent file gives it, and only those",
  async (db) => {
    const config = pharmacyRunByBeaver();
    const t = await twoTenants(db, { agentConfig: config });
    try {
      assert.equal(await t.post(NUMBER.easymo, "hi", SECRETS.WHATSAPP_APP_SECRET), 200);
      assert.equal(await t.post(NUMBER.beaver, "hi", SECRETS.WHATSAPP_APP_SECRET_BEAVER), 200);
      const [easymo] = t.menus(NUMBER.easymo);
      const [beaver] = t.menus(NUMBER.beaver);
      assert.deepEqual(beaver, ["agent:pharmacy"]);
      assert.ok(easymo.length > 3, easymo.join());
      assert.ok(!easymo.includes("agent:pharmacy"), easymo.join());
      assert.ok(easymo.includes("agent:buy_and_sell"), easymo.join());

      // Beaver's person picks its pharmacy and asks: the pharmacy's tool runs for Beaver, as
      // Beaver's agent.
      const pick = { listReply: { id: "agent:pharmacy", title: "Pharmacy" } };
      assert.equal(await t.post(NUMBER.beaver, pick, SECRETS.WHATSAPP_APP_SECRET_BEAVER), 200);
      assert.equal(
        await t.post(NUMBER.beaver, "paracetamol please", SECRETS.WHATSAPP_APP_SECRET_BEAVER),
        200,
      );
      await t.rt.platform.traces.flush();
      const calls = await db.query<{ org_id: string; agent_id: string; ok: boolean }>(
        "select org_id, agent_id, ok from public.tool_calls where agent_id = 'pharmacy'",
      );
      assert.ok(calls.length > 0, "the pharmacy agent called a tool");
      assert.ok(
        calls.every((call) => call.org_id === ORG.beaver && call.ok),
        JSON.stringify(calls),
      );
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "the model is told each tenant's brand, country and currency, and the agent it speaks as",
  async (db) => {
    await using server = startScriptedOpenAI({ script: () => ({ content: "Noted." }) });
    const model = createOpenAIModel({
      apiKey: server.apiKey,
      baseURL: server.baseURL,
      model: "test",
    });
    const config = pharmacyRunByBeaver();
    await db.query(
      "update public.orgs set country = 'KE', currency = 'KES' where id = $1",
      [ORG.beaver],
    );
    const t = await twoTenants(db, { agentConfig: config, model });
    try {
      const pick = { listReply: { id: "agent:pharmacy", title: "Pharmacy" } };
      assert.equal(await t.post(NUMBER.beaver, pick, SECRETS.WHATSAPP_APP_SECRET_BEAVER), 200);
      assert.equal(
        await t.post(NUMBER.beaver, "do you have paracetamol", SECRETS.WHATSAPP_APP_SECRET_BEAVER),
        200,
      );
      assert.equal(
        await t.post(NUMBER.easymo, "I want to buy a phone", SECRETS.WHATSAPP_APP_SECRET),
        200,
      );
      const systems = server.requests.flatMap((request) =>
        (request.body?.messages ?? []).filter((message) => message.role === "system")
          .map((message) => String(message.content))
      ).filter((text) => text.startsWith("You are "));
      const beaver = systems.filter((text) => text.startsWith("You are Beaver's Choice's"));
      const easymo = systems.filter((text) => text.startsWith("You are EasyMO's"));
      assert.ok(beaver.length > 0, systems.join("\n"));
      assert.ok(easymo.length > 0, systems.join("\n"));
      assert.equal(beaver.length + easymo.length, systems.length, systems.join("\n"));
      for (const text of beaver) {
        assert.match(text, /^You are Beaver's Choice's Pharmacy[^.]* on WhatsApp in Kenya\./);
        assert.match(text, /amounts are in KES/);
        assert.doesNotMatch(text, /EasyMO|Rwanda|RWF/);
      }
      for (const text of easymo) {
        assert.match(text, /on WhatsApp in Rwanda\./);
        assert.match(text, /amounts are in RWF/);
      }
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "each tenant is routed only to the agents it runs: another tenant's topic is not reached, and asking for a person reaches staff without a hand-off agent",
  async (db) => {
    const config = pharmacyRunByBeaver();
    const t = await twoTenants(db, { agentConfig: config });
    try {
      const ride = "I need a taxi from Kimironko to Remera";
      assert.equal(await t.post(NUMBER.easymo, ride, SECRETS.WHATSAPP_APP_SECRET), 200);
      assert.equal(await t.post(NUMBER.beaver, ride, SECRETS.WHATSAPP_APP_SECRET_BEAVER), 200);
      assert.equal(
        await t.post(NUMBER.beaver, "do you have paracetamol", SECRETS.WHATSAPP_APP_SECRET_BEAVER),
        200,
      );
      await t.rt.platform.traces.flush();
      const calls = await db.query<{ org_id: string; agent_id: string; ok: boolean }>(
        "select org_id, agent_id, ok from public.tool_calls",
      );
      // EasyMO runs mobility: the ride reaches it. Beaver does not: nothing of Beaver's reaches it,
      // nothing is refused, and its pharmacy still answers its own topic.
      assert.ok(
        calls.some((call) =>
          call.org_id === ORG.easymo && call.agent_id === "mobility_orchestrator"
        ),
        JSON.stringify(calls),
      );
      const beaverCalls = calls.filter((call) => call.org_id === ORG.beaver);
      assert.ok(beaverCalls.length > 0, JSON.stringify(calls));
      assert.ok(
        beaverCalls.every((call) => call.agent_id === "pharmacy" && call.ok),
        JSON.stringify(beaverCalls),
      );
      for (const rows of t.menus(NUMBER.beaver)) {
        assert.ok(rows.every((row) => row === "agent:pharmacy"), rows.join());
      }

      // Beaver runs no hand-off agent: asking for a person is still honoured, by staff.
      assert.equal(
        await t.post(
          NUMBER.beaver,
          "I want to talk to a person",
          SECRETS.WHATSAPP_APP_SECRET_BEAVER,
        ),
        200,
      );
      // The outbox (its sending is paced per person, so read what was queued, not what left).
      const queued = await db.query<{ body: { text?: { body: string } } }>(
        "select body from public.wa_outbox where org_id = $1 order by seq",
        [ORG.beaver],
      );
      assert.equal(
        queued.at(-1)?.body.text?.body,
        "I'm passing you to our team. A person will reply to you here.",
      );
      const [conversation] = await db.query<{ status: string }>(
        "select status from public.conversations where org_id = $1",
        [ORG.beaver],
      );
      assert.equal(conversation.status, "handoff");
      await t.rt.platform.traces.flush();
      const refused = await db.query<{ agent_id: string }>(
        "select agent_id from public.tool_calls where org_id = $1 and not ok",
        [ORG.beaver],
      );
      assert.deepEqual(refused, []);
    } finally {
      await t.close();
    }
  },
);

async function stored(db: TestDatabase): Promise<Array<[string, string]>> {
  const rows = await db.query<{ phone_number_id: string; org_id: string }>(
    "select phone_number_id, org_id from private.wa_inbound order by wamid",
  );
  return rows.map((row) => [row.phone_number_id, row.org_id]);
}

dbTest(
  "a number an operator adds serves within seconds, without a restart; a brand change shows in the next reply; a removed number stores nothing again",
  async (db) => {
    const T0 = new Date("2026-02-02T09:00:00Z");
    let now = T0;
    const at = (ms: number) => now = new Date(T0.getTime() + ms);
    const t = await twoTenants(db, { now: () => now });
    try {
      // Added while the platform runs: within the directory's age (5 s) it is not known yet,
      // so its own app's signature is one no known number has: refused, nothing stored.
      await addSecondEasymoNumber(db);
      at(4_000);
      assert.equal(await t.post(NUMBER.easymo2, "hi", SECRETS.WHATSAPP_APP_SECRET_EASYMO_2), 403);
      assert.deepEqual(await stored(db), []);

      // Five seconds on by the platform's clock: read again, it serves for EasyMO, and the
      // reply leaves from it.
      at(5_000);
      assert.equal(await t.post(NUMBER.easymo2, "hi", SECRETS.WHATSAPP_APP_SECRET_EASYMO_2), 200);
      assert.deepEqual(await stored(db), [[NUMBER.easymo2, ORG.easymo]]);
      assert.equal(t.sent(NUMBER.easymo2).length, 1);
      assert.match(t.sent(NUMBER.easymo2)[0], /I'm EasyMO\./);

      // Beaver's brand changed by an operator: the next reply speaks as the new brand.
      await db.query("update public.orgs set brand_name = 'Beaver Books' where id = $1", [
        ORG.beaver,
      ]);
      at(10_000);
      assert.equal(
        await t.post(NUMBER.beaver, "hi", SECRETS.WHATSAPP_APP_SECRET_BEAVER, "250788777002"),
        200,
      );
      assert.match(t.sent(NUMBER.beaver).at(-1)!, /I'm Beaver Books\./);

      // Removed: once read again, its deliveries are refused and nothing more is stored.
      await db.query("delete from public.tenant_whatsapp_numbers where phone_number_id = $1", [
        NUMBER.easymo2,
      ]);
      at(15_000);
      assert.equal(
        await t.post(NUMBER.easymo2, "hi", SECRETS.WHATSAPP_APP_SECRET_EASYMO_2, "250788777003"),
        403,
      );
      assert.equal((await stored(db)).length, 2);
    } finally {
      await t.close();
    }
  },
);

dbTest(
  "a tenant with two numbers answers each person from the number they wrote to, and reads their media with that number's token",
  async (db) => {
    await addSecondEasymoNumber(db);
    const storage = await startTestStorage(db);
    const t = await twoTenants(db, { provide: [{ key: FILE_STORE, value: storage.files }] });
    try {
      const [first, second, third] = ["250788777011", "250788777012", "250788777013"];
      assert.equal(
        await t.post(NUMBER.easymo2, "hi", SECRETS.WHATSAPP_APP_SECRET_EASYMO_2, first),
        200,
      );
      assert.equal(await t.post(NUMBER.easymo, "hi", SECRETS.WHATSAPP_APP_SECRET, second), 200);
      // Each reply from the number written to, with that number's token; none from the other.
      const to = (number: string) => t.graphs[number].accepted.map((message) => message.to);
      assert.deepEqual(to(NUMBER.easymo2), [first]);
      assert.deepEqual(to(NUMBER.easymo), [second]);
      assert.deepEqual(to(NUMBER.beaver), []);
      for (const graph of Object.values(t.graphs)) {
        assert.ok(graph.requests.every((request) => request.authorized));
      }
      // The number written to is the contact's, and follows their newest message.
      const contactNumber = async (waId: string) =>
        (await db.query<{ phone_number_id: string }>(
          "select phone_number_id from public.wa_contacts where org_id = $1 and wa_id = $2",
          [ORG.easymo, waId],
        ))[0]?.phone_number_id;
      assert.equal(await contactNumber(first), NUMBER.easymo2);
      assert.equal(await t.post(NUMBER.easymo, "hello", SECRETS.WHATSAPP_APP_SECRET, first), 200);
      assert.equal(await contactNumber(first), NUMBER.easymo);

      // A photo sent to the second number is fetched with its token (from its Graph server).
      const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 2, 3]);
      const mediaId = await t.graphs[NUMBER.easymo2].addMedia(jpeg, "image/jpeg");
      const photo = { media: { type: "image" as const, id: mediaId, mimeType: "image/jpeg" } };
      assert.equal(
        await t.post(NUMBER.easymo2, photo, SECRETS.WHATSAPP_APP_SECRET_EASYMO_2, third),
        200,
      );
      assert.equal(t.graphs[NUMBER.easymo2].mediaLookups(mediaId), 1);
      assert.equal(t.graphs[NUMBER.easymo].mediaLookups(mediaId), 0);
      const files = await db.query<{ name: string }>(
        "select name from storage.objects where bucket_id = 'media' and name like $1",
        [`${ORG.easymo}/%`],
      );
      assert.equal(files.length, 1, JSON.stringify(files));
      assert.deepEqual(to(NUMBER.easymo2).at(-1), third);

      // A message whose contact names another tenant's number still leaves from its own
      // tenant's number: a row never makes a tenant speak from a number it does not own.
      const before = t.graphs[NUMBER.beaver].accepted.length;
      const result = await t.channel.transport.send(
        "250788777014",
        textMessage("Your order is ready.").body,
        { orgId: ORG.easymo, phoneNumberId: NUMBER.beaver },
      );
      assert.ok(result.ok);
      assert.equal(t.graphs[NUMBER.beaver].accepted.length, before);
      assert.deepEqual(to(NUMBER.easymo).at(-1), "250788777014");
    } finally {
      await storage.close();
      await t.close();
    }
  },
);
