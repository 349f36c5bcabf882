/**
 * Deploys of the WhatsApp channel and the agent over one test database, one
 * after another, as a person mid-conversation sees them: each deploy may run
 * other packs (an agent's flow or memory changed), over the same kept
 * conversations. For tests of how kept flow memory resumes after a deploy.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { TestDatabase } from "./db.ts";
import { createTestRuntime } from "./runtime.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import type { Pack, PackAgent } from "@shared/registry/pack.ts";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import type { RouteContext } from "@shared/agent/route_decision.ts";

const SECRET = "flow-deploys-test-secret";

/** `packs` with the agent `agentId` changed by `change` (its flow or memory, as a deploy would). */
export function withAgent(
  packs: readonly Pack[],
  agentId: string,
  change: (agent: PackAgent) => PackAgent,
): Pack[] {
  return packs.map((pack) => ({
    ...pack,
    agents: pack.agents.map((agent) => agent.id === agentId ? change(agent) : agent),
  }));
}

/** What {@link deploy} runs. */
export interface DeployOptions {
  /** The packs of this deploy. */
  packs: readonly Pack[];
  /** The router, trained once on the packs' phrases. */
  router: RouteContext;
  /** The WhatsApp id (digits) the person writes from. */
  from: string;
}

/**
 * One deploy of the WhatsApp channel with the agent over `options.packs`,
 * offline (no model). Returns `send`: what the person is sent, in order, for
 * one message of theirs through the signed webhook (a list's or buttons'
 * message by the text above its options).
 */
export async function deploy(
  db: TestDatabase,
  options: DeployOptions,
): Promise<(content: SimulatedContent) => Promise<string[]>> {
  const rt = await createTestRuntime(db);
  const tasks: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, {
      model: null,
      packs: options.packs,
      router: options.router,
    }),
    background: (task) => void tasks.push(task()),
  });
  return async function send(content: SimulatedContent): Promise<string[]> {
    const [{ seq }] = await db.query<{ seq: number }>(
      "select coalesce(max(seq), 0)::int as seq from public.wa_outbox",
    );
    const body = new TextEncoder().encode(
      JSON.stringify(messageDelivery({ from: options.from, wamid: crypto.randomUUID() }, content)),
    );
    const response = await channel.app.request("/wa-webhook", {
      method: "POST",
      headers: { "x-hub-signature-256": await signBody(SECRET, body) },
      body,
    });
    assert.equal(response.status, 200);
    while (tasks.length) await tasks.shift();
    await channel.dispatcher.drain();
    const rows = await db.query<{
      body: { text?: { body: string }; interactive?: { body?: { text?: string } } };
    }>(
      "select body from public.wa_outbox where to_wa_id = $1 and seq > $2 order by seq",
      [options.from, seq],
    );
    // A message's words: a text's body, or the text above a list's or buttons' options.
    return rows.map((row) =>
      row.body.text?.body ?? row.body.interactive?.body?.text ?? JSON.stringify(row.body)
    );
  };
}
