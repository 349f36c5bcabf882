/**
 * Adding a domain is one folder and one line in the pack list: the example
 * pack, added to the list, has its tool listed and callable, its table
 * readable by search_supabase, and its agent, once the agent file gives it to
 * a tenant, reached by its words and from that tenant's menu, with no other
 * change.
 */
import assert from "node:assert/strict";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { PACKS } from "@shared/platform/platform.ts";
import { dbTest, type TestDatabase } from "./db.ts";
import { EXAMPLE_PACK } from "./example_pack.ts";
import { createTestRuntime } from "./runtime.ts";
import { USER } from "./seed.ts";
import { AGENT_CONFIGS } from "../config/agent_configs.ts";

const SECRET = "example-pack-app-secret";
const FROM = "250788000077";

// The agent file with the example desk run by EasyMO: the entry a new domain adds.
const AGENT_FILE = {
  ...(AGENT_CONFIGS as { agents: unknown[] }),
  agents: [...(AGENT_CONFIGS as { agents: unknown[] }).agents, {
    id: "example_desk",
    name: "Example Desk",
    tenant: "easymo",
    description: "Greets by name.",
    tools: ["example.greet"],
  }],
};

async function withExamplePack(db: TestDatabase) {
  const rt = await createTestRuntime(db, {
    packs: [...PACKS, EXAMPLE_PACK],
    agentConfig: AGENT_FILE,
  });
  const tasks: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, { model: null }),
    background: (task) => void tasks.push(task()),
  });
  let n = 0;
  async function say(content: SimulatedContent): Promise<Record<string, unknown>> {
    const body = new TextEncoder().encode(
      JSON.stringify(messageDelivery({ from: FROM, wamid: `wamid.example.${n++}` }, content)),
    );
    const response = await channel.app.request("/wa-webhook-buy-sell", {
      method: "POST",
      headers: { "x-hub-signature-256": await signBody(SECRET, body) },
      body,
    });
    assert.equal(response.status, 200);
    while (tasks.length) await tasks.shift();
    await channel.dispatcher.drain();
    const [row] = await db.query<{ body: Record<string, unknown> }>(
      "select body from public.wa_outbox where to_wa_id = $1 order by seq desc limit 1",
      [FROM],
    );
    return row?.body ?? {};
  }
  return { rt, say };
}

function textOf(body: Record<string, unknown>): string {
  return (body.text as { body: string } | undefined)?.body ??
    (body.interactive as { body: { text: string } } | undefined)?.body.text ?? "";
}

function rowIds(body: Record<string, unknown>): string[] {
  const action = (body.interactive as { action?: Record<string, unknown> } | undefined)?.action;
  const sections = (action?.sections as Array<{ rows: Array<{ id: string }> }> | undefined) ?? [];
  return sections.flatMap((section) => section.rows.map((row) => row.id));
}

dbTest("a pack added to the list has its tool listed and callable", async (db) => {
  const { rt } = await withExamplePack(db);
  assert.ok(rt.platform.list().some((tool) => tool.name === "example.greet"));
  const greeted = await rt.callAs(USER.aline, "example.greet", { name: "Aline" });
  assert.deepEqual(greeted, { ok: true, data: { greeting: "Hello, Aline" } });
  const refused = await rt.callAs(USER.aline, "example.greet", { name: "" });
  assert.equal(refused.ok, false);
  assert.equal(refused.error.code, "VALIDATION_ERROR");
  assert.deepEqual(refused.error.fields.map((field: { path: string }) => field.path), ["name"]);
  // Its table joins search_supabase's allowlist; a pack list without it does not read it.
  const search = rt.platform.get("search_supabase")!;
  assert.ok(search.input.safeParse({ table: "orgs", columns: ["slug"] }).success);
  const plain = await createTestRuntime(db);
  assert.ok(!plain.platform.get("search_supabase")!.input.safeParse({ table: "orgs" }).success);
  assert.equal(plain.platform.get("example.greet"), undefined);
  await plain.platform.traces.flush();
  await rt.platform.traces.flush();
});

dbTest("a pack's agent is reached by its words and from the front desk's menu", async (db) => {
  const { say } = await withExamplePack(db);
  const front = await say({ text: "hi" });
  assert.ok(rowIds(front).includes("agent:example_desk"));
  assert.ok(rowIds(front).includes("agent:waiter_ai"));
  assert.equal(
    textOf(await say({ text: "an example please" })),
    "The example desk here: an example please.",
  );
  const picked = await say({ listReply: { id: "agent:example_desk", title: "Example" } });
  assert.equal(textOf(picked), "The example desk here: Example.");
});
