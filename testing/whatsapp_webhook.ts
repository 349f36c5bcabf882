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
import { conciergeFlow } from "@shared/packs/buy_sell/mod.ts";
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
 * A pack's channel flow answering on its own, as the agent would run it: its
 * tool calls are its agent's (the channel refuses a call that names none).
 */
export function asAgent(agentId: string, flow: ConversationHandler): ConversationHandler {
  return (turn) =>
    flow({
      ...turn,
      callTool: (tool, args, options) => turn.callTool(tool, args, { ...options, agentId }),
    });
}

/** The buy & sell concierge flow as its agent runs it, without the router in front. */
export const buySellConcierge: ConversationHandler = asAgent("buy_and_sell", conciergeFlow);

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
