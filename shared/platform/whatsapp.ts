/**
 * The WhatsApp channel wired to the LangGraph agent in one process (tests,
 * scenarios, benchmarks): the channel (`shared/channels/whatsapp/`) never
 * imports the agent; this root hands it in. Deployed, the webhook and the
 * agent run as two functions: `wa_webhook.ts` and `agent_function.ts`.
 *
 * @module
 */
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { platformRouter } from "./router.ts";
import {
  createWhatsAppChannel,
  type WhatsAppChannel,
  type WhatsAppChannelConfig,
} from "@shared/channels/whatsapp/channel.ts";
import type { ConversationHandler } from "@shared/channels/whatsapp/conversation.ts";
import type { Runtime } from "@shared/pipeline/platform.ts";

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
    conversation: config.conversation ??
      createAgentHandler(runtime, {
        routerFor: (runs) => platformRouter(runtime.platform.packs, runs),
      }),
  });
}
