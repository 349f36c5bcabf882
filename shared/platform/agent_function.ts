/**
 * The `agent` function: a LangGraph agent routes WhatsApp conversations to
 * per-agent tool allowlists. It claims the messages the webhook stored
 * (woken by the webhook, or by its sweep), answers each through the graph
 * with its Postgres checkpointer (vendors' replies go to
 * `process_vendor_reply`), commits replies to the outbox and sends them.
 * Only this function carries the agent's libraries (LangGraph, LangChain
 * core, openai).
 *
 * Deployed settings: the runtime's (`env.ts`) plus the access tokens the
 * business numbers name (`tenant_whatsapp_numbers.token_secret_name`: each
 * tenant's replies leave from its own number), optionally
 * `WHATSAPP_GRAPH_URL` and, for a model, `OPENAI_API_KEY` (else the offline
 * flows answer).
 *
 * @module
 */
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { platformRouter } from "./router.ts";
import type { ConversationHandler } from "@shared/channels/whatsapp/conversation.ts";
import {
  createWhatsAppWorker,
  type WhatsAppWorker,
  type WhatsAppWorkerConfig,
} from "@shared/channels/whatsapp/worker.ts";
import { createWorkerApp } from "@shared/channels/whatsapp/worker_app.ts";
import type { Runtime } from "@shared/pipeline/platform.ts";
import { edgeBackground, openRuntimeFromEnv } from "./env.ts";
import type { PlatformOptions } from "./platform.ts";
import { VIDEO_PROVIDER } from "@shared/packs/video/mod.ts";
import { videoProviderFromEnv } from "@shared/packs/video/openai_videos.ts";
import { GENERATED_TOOLS_SYNC_ENGINE } from "@shared/generated_tools/sync_engine.ts";

/** Options for {@link createAgentFunction}. */
export interface AgentFunctionConfig extends Omit<WhatsAppWorkerConfig, "conversation"> {
  /** Answers non-vendor messages. @default the LangGraph agent */
  conversation?: ConversationHandler;
  /** Runs work after a response (Supabase: through `EdgeRuntime.waitUntil`). */
  background?: (task: () => Promise<unknown>) => void;
}

/** The function as a host runs it. */
export interface AgentFunction {
  /** Answers requests under `/agent`. */
  fetch(request: Request): Response | Promise<Response>;
  /** The worker behind it. */
  worker: WhatsAppWorker;
  /** Starts the sweep and dispatch loops (long-running hosts: the dev server). */
  start(): void;
  /** Stops them, waiting for work in progress. */
  stop(): Promise<void>;
}

/** Builds the agent function on a runtime. */
export function createAgentFunction(runtime: Runtime, config: AgentFunctionConfig): AgentFunction {
  const worker = createWhatsAppWorker(runtime, {
    ...config,
    conversation: config.conversation ??
      createAgentHandler(runtime, {
        routerFor: (runs) => platformRouter(runtime.platform.packs, runs),
      }),
  });
  const app = createWorkerApp({
    worker,
    resolveCaller: runtime.resolveCaller,
    log: runtime.platform.log,
    background: config.background,
  });
  return { fetch: app.fetch, worker, start: worker.start, stop: worker.stop };
}

/**
 * The deployed agent function, from the environment.
 *
 * @throws {Error} when a variable is missing or the agent file is invalid.
 */
export async function openAgentFunctionFromEnv(
  options: { provide?: PlatformOptions["provide"] } = {},
): Promise<AgentFunction> {
  // Its sweep follows the video studio's jobs: the one function that calls the provider.
  const runtime = await openRuntimeFromEnv({
    provide: [{ key: VIDEO_PROVIDER, value: videoProviderFromEnv() }, ...(options.provide ?? [])],
    // Tenants' generated tools, for agents with `tenant_tools` (the light engine, as in mcp).
    generatedTools: GENERATED_TOOLS_SYNC_ENGINE,
  });
  return createAgentFunction(runtime, {
    numbers: {
      secrets: (name) => Deno.env.get(name),
      // Meta's Graph API unless a proxy (or CI's loopback fake) is named.
      baseUrl: Deno.env.get("WHATSAPP_GRAPH_URL") || undefined,
    },
    background: edgeBackground(),
  });
}
