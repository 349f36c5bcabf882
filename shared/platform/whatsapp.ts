/**
 * The WhatsApp channel wired to the LangGraph agent: the channel
 * (`shared/channels/whatsapp/`) never imports the agent; this root hands it
 * in, and reads a deployed function's settings from the environment.
 *
 * @module
 */
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import {
  createWhatsAppChannel,
  type WhatsAppChannel,
  type WhatsAppChannelConfig,
} from "@shared/channels/whatsapp/channel.ts";
import type { ConversationHandler } from "@shared/channels/whatsapp/conversation.ts";
import type { Runtime } from "@shared/pipeline/platform.ts";
import { openRuntimeFromEnv } from "./env.ts";

/** Options for {@link createAgentChannel}: the channel's, the conversation optional. */
export interface AgentChannelConfig extends Omit<WhatsAppChannelConfig, "conversation"> {
  /**
   * Answers non-vendor messages. @default the LangGraph agent (a model from
   * OPENAI_API_KEY, else its offline flows)
   */
  conversation?: ConversationHandler;
}

/**
 * Builds the WhatsApp channel on a runtime, answered by the agent.
 *
 * @throws {Error} when the org is unknown.
 */
export function createAgentChannel(runtime: Runtime, config: AgentChannelConfig): WhatsAppChannel {
  return createWhatsAppChannel(runtime, {
    ...config,
    conversation: config.conversation ?? createAgentHandler(runtime),
  });
}

function required(name: string): string {
  const value = Deno.env.get(name);
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

/**
 * The channel of a deployed `wa-webhook-buy-sell`: the runtime's variables
 * plus `WHATSAPP_APP_SECRET`, `WHATSAPP_VERIFY_TOKEN`, `WHATSAPP_TOKEN`,
 * `WHATSAPP_PHONE_NUMBER_ID` and `EASYMO_WHATSAPP_ORG` (default `easymo`).
 *
 * @throws {Error} when a variable is missing or the org is unknown.
 */
export async function openWhatsAppChannelFromEnv(): Promise<WhatsAppChannel> {
  const runtime = await openRuntimeFromEnv();
  // Supabase's runtime keeps a request's background work alive only through waitUntil.
  const edge = (globalThis as { EdgeRuntime?: { waitUntil(p: Promise<unknown>): void } })
    .EdgeRuntime;
  return createAgentChannel(runtime, {
    appSecret: required("WHATSAPP_APP_SECRET"),
    verifyToken: required("WHATSAPP_VERIFY_TOKEN"),
    org: Deno.env.get("EASYMO_WHATSAPP_ORG") ?? "easymo",
    graph: {
      token: required("WHATSAPP_TOKEN"),
      phoneNumberId: required("WHATSAPP_PHONE_NUMBER_ID"),
    },
    background: edge ? (task) => edge.waitUntil(task()) : undefined,
  });
}
