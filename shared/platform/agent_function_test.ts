import assert from "node:assert/strict";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { messageDelivery } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { createAgentFunction } from "./agent_function.ts";
import { createWebhookFunction } from "./wa_webhook.ts";

const APP_SECRET = "meta-app-secret-for-tests";
const BUYER = "250788000001";

function serve(fetch: (request: Request) => Response | Promise<Response>) {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, fetch);
  return { server, url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}` };
}

/** The two functions on their own loopback servers, as Supabase runs them. */
async function functions(db: TestDatabase, options: { agentUrl?: string } = {}) {
  const rt = await createTestRuntime(db);
  const agent = createAgentFunction(rt, {
    // The LangGraph agent, offline (no model): what answers in production without a key.
    conversation: createAgentHandler(rt, { model: null }),
  });
  const agentServer = serve(agent.fetch);
  const webhook = createWebhookFunction(rt, {
    appSecret: APP_SECRET,
    verifyToken: "verify-me",
    agent: {
      url: options.agentUrl ?? `${agentServer.url}/agent`,
      token: () => rt.tokenFor(null),
    },
  });
  const webhookServer = serve(webhook.fetch);
  return {
    rt,
    agentUrl: `${agentServer.url}/agent`,
    async post(text: string, wamid = `wamid.${crypto.randomUUID()}`) {
      const body = new TextEncoder().encode(
        JSON.stringify(messageDelivery({ from: BUYER, name: "Aline", wamid }, { text })),
      );
      const response = await fetch(`${webhookServer.url}/wa-webhook`, {
        method: "POST",
        headers: { "x-hub-signature-256": await signBody(APP_SECRET, body) },
        body,
      });
      await response.body?.cancel();
      assert.equal(response.status, 200);
      return wamid;
    },
    async close() {
      await webhookServer.server.shutdown();
      await webhook.stop();
      await agentServer.server.shutdown();
      await agent.stop();
      await rt.platform.close();
    },
  };
}

async function inboundStatus(rt: TestRuntime, wamid: string): Promise<string | undefined> {
  const [row] = await rt.platform.db.query<{ status: string }>(
    "select status from private.wa_inbound where wamid = $1",
    [wamid],
  );
  return row?.status;
}

async function repliesTo(rt: TestRuntime, waId: string): Promise<number> {
  const [row] = await rt.platform.db.query<{ n: number }>(
    "select count(*)::int as n from public.wa_outbox where to_wa_id = $1",
    [waId],
  );
  return row.n;
}

/** Waits until `done` holds (the work runs in the other function, in the background). */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`never happened: ${what}`);
}

dbTest(
  "the webhook stores and wakes the agent function, which answers through the graph",
  async (db) => {
    const fns = await functions(db);
    try {
      const wamid = await fns.post("Hello");
      await until(
        async () =>
          (await inboundStatus(fns.rt, wamid)) === "done" && await repliesTo(fns.rt, BUYER) > 0,
        "the agent function answered",
      );
      const [turn] = await db.query<{ n: number }>(
        `select count(*)::int as n from public.messages
       where direction = 'outbound' and sender = 'agent'`,
      );
      assert.ok(turn.n > 0, "the reply is in the transcript");
    } finally {
      await fns.close();
    }
  },
);

dbTest(
  "the agent function takes wake-ups only from a service token, and names bad fields",
  async (db) => {
    const fns = await functions(db);
    try {
      const wake = async (body: string, token: string | null) => {
        const response = await fetch(`${fns.agentUrl}/process`, {
          method: "POST",
          headers: token ? { authorization: `Bearer ${token}` } : {},
          body,
        });
        return { status: response.status, body: await response.json() };
      };
      const ok = JSON.stringify({ wamids: ["wamid.x"] });
      const anonymous = await wake(ok, null);
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, "AUTH_ERROR");
      assert.equal((await wake(ok, await fns.rt.tokenFor(USER.aline))).status, 401);
      const sweep = await fetch(`${fns.agentUrl}/sweep`, {
        method: "POST",
        headers: { authorization: `Bearer ${await fns.rt.tokenFor(USER.aline)}` },
      });
      await sweep.body?.cancel();
      assert.equal(sweep.status, 401);

      const service = await fns.rt.tokenFor(null);
      const wrongType = await wake(JSON.stringify({ wamids: "wamid.x" }), service);
      assert.equal(wrongType.status, 400);
      assert.equal(wrongType.body.error.code, "VALIDATION_ERROR");
      assert.deepEqual(wrongType.body.error.fields.map((f: { path: string }) => f.path), [
        "wamids",
      ]);
      const empty = await wake(JSON.stringify({ wamids: [""] }), service);
      assert.deepEqual(empty.body.error.fields.map((f: { path: string }) => f.path), ["wamids.0"]);
      const notJson = await wake("{", service);
      assert.equal(notJson.status, 400);
      assert.equal(notJson.body.error.fields[0].path, "body");
      // A wamid nobody stored: accepted, and nothing happens.
      assert.equal((await wake(ok, service)).status, 202);
    } finally {
      await fns.close();
    }
  },
);

dbTest(
  "a wake-up that cannot reach the agent function loses nothing: its sweep answers",
  async (db) => {
    // A port nothing listens on: the ping fails, the stored row stays pending.
    const closed = serve(() => new Response(null));
    await closed.server.shutdown();
    const fns = await functions(db, { agentUrl: `${closed.url}/agent` });
    try {
      const wamid = await fns.post("Hello");
      await until(
        () =>
          Promise.resolve(fns.rt.log.lines.some((line) => line.event === "wa_agent_wake_failed")),
        "the failed ping was logged",
      );
      assert.equal(await inboundStatus(fns.rt, wamid), "pending");
      assert.equal(await repliesTo(fns.rt, BUYER), 0);

      const response = await fetch(`${fns.agentUrl}/sweep`, {
        method: "POST",
        headers: { authorization: `Bearer ${await fns.rt.tokenFor(null)}` },
      });
      const body = await response.json();
      assert.equal(response.status, 200);
      assert.equal(body.data.processed, 1);
      assert.equal(await inboundStatus(fns.rt, wamid), "done");
      assert.ok(await repliesTo(fns.rt, BUYER) > 0);
      const unsent = await db.query(
        "select 1 from public.wa_outbox where to_wa_id = $1 and status <> 'sent'",
        [BUYER],
      );
      assert.deepEqual(unsent, [], "the sweep sent the replies");
    } finally {
      await fns.close();
    }
  },
);
