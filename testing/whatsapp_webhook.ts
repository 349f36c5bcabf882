/**
 * The WhatsApp channel as Meta reaches it, for tests: the webhook and the
 * worker (`createWhatsAppChannel`) on a loopback port over a test database,
 * deliveries signed with the app secret, and background processing the test
 * can wait for. With a loopback Graph server, replies and media go through
 * the production Graph adapter and media source.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Database } from "@shared/db/types.ts";
import { BUY_SELL_PACK } from "@shared/packs/buy_sell/mod.ts";
import { type Language, languageOf } from "@shared/contract/language.ts";
import type { PackAgent } from "@shared/registry/pack.ts";
import { inputOf, toWhatsApp } from "@shared/agent/whatsapp_agent.ts";
import {
  createWhatsAppChannel,
  type WhatsAppChannel,
  type WhatsAppChannelConfig,
} from "@shared/channels/whatsapp/channel.ts";
import {
  messageDelivery,
  type SenderOptions,
  type SimulatedContent,
} from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import type { ConversationHandler } from "@shared/channels/whatsapp/conversation.ts";
import type { FakeGraph } from "./graph_server.ts";
import { createTestRuntime, type TestRuntime, type TestRuntimeOptions } from "./runtime.ts";
import { serveFunction } from "./serve_function.ts";

/**
 * An agent's offline flow answering on its own, without the router or the
 * graph in front: channel tests talk to one flow. Its tool calls are its
 * agent's (the channel refuses a call that names none); its memory is kept as
 * the conversation's state. A call that needs confirmation is the graph's to
 * ask, so a flow that pauses on one fails the test here: run the agent
 * (`createAgentHandler`) for those.
 *
 * @throws {TypeError} when the agent has no offline flow.
 */
export function flowAgent(agent: PackAgent): ConversationHandler {
  const flow = agent.offlineFlow;
  if (!flow) throw new TypeError(`Cannot run agent "${agent.id}" alone as it has no offline flow`);
  return async (turn) => {
    const kept = turn.user.state as { memory?: Record<string, unknown>; language?: Language };
    const input = inputOf(turn);
    // The router's choice when it ran, else the words (sticky once chosen).
    const language = turn.language ??
      (input.text
        ? languageOf(input.text, kept.language ?? turn.user.locale)
        : kept.language ?? turn.user.locale);
    const step = await flow({
      agent: agent.id,
      language,
      input,
      memory: kept.memory ?? {},
      menu: [],
      progress: (text) => turn.progress?.(text) ?? Promise.resolve(),
    }, (tool, args, name) => turn.callTool(tool, args, { step: name, agentId: agent.id }));
    if (step.pending) {
      throw new Error(`flowAgent() cannot ask to confirm ${step.pending.tool}: run the agent`);
    }
    return {
      replies: (step.replies ?? []).map((reply) => toWhatsApp(reply)),
      state: { language, memory: { ...kept.memory, ...step.memory } },
      ...(step.handoff ? { handoff: true } : {}),
    };
  };
}

/** The buy & sell concierge as its agent runs it offline, without the router in front. */
export const buySellConcierge: ConversationHandler = flowAgent(BUY_SELL_PACK.agents[0]);

/** The app secret deliveries are signed with. */
export const TEST_APP_SECRET = "meta-app-secret-for-tests";

/** Options for {@link startWhatsAppWebhook}. */
export interface WhatsAppWebhookOptions {
  /** The loopback Graph API: replies are sent, and media fetched, through it. */
  graph?: FakeGraph;
  /** Channel settings over the defaults (org `easymo`, the concierge flow answering). */
  config?: Partial<WhatsAppChannelConfig>;
  /** Runtime options (services such as a file store). */
  runtime?: TestRuntimeOptions;
}

/** A running webhook. */
export interface WhatsAppWebhook extends AsyncDisposable {
  /** The runtime (its log is in memory). */
  rt: TestRuntime;
  /** The channel. */
  channel: WhatsAppChannel;
  /** Posts a payload signed with {@link TEST_APP_SECRET}; the HTTP status. */
  post(payload: unknown): Promise<number>;
  /** Posts one message, checks the 200 and waits until it was processed and replies sent. */
  say(sender: SenderOptions, content: SimulatedContent): Promise<void>;
  /** Waits for background processing, then sends what is due. */
  settle(): Promise<void>;
  /** Settles and stops the server. */
  close(): Promise<void>;
}

/**
 * Starts the channel on a loopback port.
 *
 * @param db The test database.
 * @param options Graph server, channel settings and runtime options.
 * @returns The webhook; close it (or `await using` it) when done.
 */
export async function startWhatsAppWebhook(
  db: Database,
  options: WhatsAppWebhookOptions = {},
): Promise<WhatsAppWebhook> {
  const rt = await createTestRuntime(db, options.runtime);
  const pending: Promise<unknown>[] = [];
  const graph = options.graph;
  const channel = createWhatsAppChannel(rt, {
    appSecret: TEST_APP_SECRET,
    verifyToken: "verify-me",
    background: (task) => void pending.push(task()),
    conversation: buySellConcierge,
    ...(graph
      ? {
        graph: { token: graph.token, phoneNumberId: graph.phoneNumberId, baseUrl: graph.baseUrl },
      }
      : {}),
    ...options.config,
  });
  const server = serveFunction("wa-webhook", (request) => channel.app.fetch(request));
  async function post(payload: unknown): Promise<number> {
    const body = new TextEncoder().encode(JSON.stringify(payload));
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "x-hub-signature-256": await signBody(TEST_APP_SECRET, body) },
      body,
    });
    await response.body?.cancel();
    return response.status;
  }
  async function settle(): Promise<void> {
    while (pending.length) await pending.shift();
    await channel.dispatcher.drain();
  }
  let closed: Promise<void> | undefined;
  const close = () =>
    closed ??= (async () => {
      await settle();
      await server.close();
    })();
  return {
    rt,
    channel,
    post,
    async say(sender, content) {
      assert.equal(await post(messageDelivery(sender, content)), 200);
      await settle();
    },
    settle,
    close,
    [Symbol.asyncDispose]: close,
  };
}
