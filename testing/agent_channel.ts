/**
 * The real WhatsApp webhook with the LangGraph agent as its conversation
 * handler, over a test database, for tests that play several customers at
 * once: each `say` posts a signed delivery, waits until every turn under way
 * has been handled, sends what was queued and returns the customer's last
 * outbound message. Two harnesses over one database are two function
 * instances.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { type AgentHandlerOptions, createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import type { Database } from "@shared/db/types.ts";
import { createTestRuntime, type TestRuntime, type TestRuntimeOptions } from "./runtime.ts";

const SECRET = "agent-channel-test-app-secret";

/** A running harness. */
export interface AgentChannel {
  /** Its runtime (log lines in `rt.log.lines`). */
  rt: TestRuntime;
  /**
   * Sends a customer's message and returns their last outbound message's
   * WhatsApp body once every turn under way is answered and sent.
   */
  say(
    from: string,
    content: SimulatedContent,
    options?: { phoneNumberId?: string },
  ): Promise<Record<string, unknown>>;
  /** Every outbound message to a customer, oldest first (WhatsApp bodies). */
  outbox(to: string): Promise<Array<Record<string, unknown>>>;
}

/**
 * Starts a harness over `db`.
 *
 * @param db The test database.
 * @param options The agent handler's options (model, deadline, breaker …).
 * @param runtime The test runtime's options (an injected clock …).
 * @returns The harness.
 */
export async function startAgentChannel(
  db: Database,
  options: AgentHandlerOptions = {},
  runtime: TestRuntimeOptions = {},
): Promise<AgentChannel> {
  const rt = await createTestRuntime(db, runtime);
  const pending = new Set<Promise<unknown>>();
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, options),
    background: (task) => {
      const running: Promise<unknown> = task().finally(() => pending.delete(running));
      pending.add(running);
    },
  });
  const prefix = crypto.randomUUID().slice(0, 8);
  let n = 0;

  async function outbox(to: string) {
    const rows = await db.query<{ body: Record<string, unknown> }>(
      "select body from public.wa_outbox where to_wa_id = $1 order by seq",
      [to],
    );
    return rows.map((row) => row.body);
  }

  return {
    rt,
    outbox,
    async say(from, content, sayOptions = {}) {
      const body = new TextEncoder().encode(
        JSON.stringify(
          messageDelivery({ from, wamid: `wamid.${prefix}.${n++}`, ...sayOptions }, content),
        ),
      );
      const response = await channel.app.request("/wa-webhook", {
        method: "POST",
        headers: { "x-hub-signature-256": await signBody(SECRET, body) },
        body,
      });
      assert.equal(response.status, 200);
      // Other customers' turns may be under way: wait for all of them.
      while (pending.size) await Promise.all([...pending]);
      await channel.dispatcher.drain();
      return (await outbox(from)).at(-1) ?? {};
    },
  };
}

/** The text of a WhatsApp body (a text message's, or an interactive one's). */
export function bodyText(body: Record<string, unknown>): string {
  return (body.text as { body: string } | undefined)?.body ??
    (body.interactive as { body: { text: string } } | undefined)?.body.text ?? "";
}

/** The ids of a WhatsApp body's buttons and list rows. */
export function bodyChoices(body: Record<string, unknown>): string[] {
  const action = (body.interactive as { action?: Record<string, unknown> } | undefined)?.action;
  const buttons = (action?.buttons as Array<{ reply: { id: string } }> | undefined) ?? [];
  const sections = (action?.sections as Array<{ rows: Array<{ id: string }> }> | undefined) ?? [];
  return [...buttons.map((b) => b.reply.id), ...sections.flatMap((s) => s.rows.map((r) => r.id))];
}
