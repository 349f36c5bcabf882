/**
 * How the webhook hands stored messages to the `agent` function: the stored
 * `private.wa_inbound` row IS the queue, so the webhook only pings the agent
 * function after commit (`POST <agent>/process` with the new wamids and a
 * service-role token). A ping that fails loses nothing: the rows stay
 * pending and the agent function's sweep (its loop locally, a scheduler
 * deployed) picks them up.
 *
 * It presents itself as an {@link InboundProcessor}, so the webhook app
 * works the same whether processing runs in its process (tests) or in the
 * agent function.
 *
 * @module
 */
import type { Logger } from "@shared/runtime/log.ts";
import type { InboundProcessor } from "./inbound_processor.ts";

/** Options for {@link createAgentWake}. */
export interface AgentWakeOptions {
  /** The agent function's base URL, e.g. `https://<ref>.supabase.co/functions/v1/agent`. */
  url: string | (() => string);
  /** A service-role bearer token (Supabase: `SUPABASE_SERVICE_ROLE_KEY`). */
  token: () => string | Promise<string>;
  /** Logs failed pings. */
  log: Logger;
  /** How long a ping may take. @default 10000 */
  timeoutMs?: number;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** The wake-up client: an inbound processor whose work runs in the agent function. */
export interface AgentWake {
  /** Pings `process`; runs `sweep` remotely. */
  processor: InboundProcessor;
  /** What the last remote sweep sent (the webhook's `/sweep` reports it). */
  afterSweep(): Promise<number>;
}

/** Builds the client. */
export function createAgentWake(options: AgentWakeOptions): AgentWake {
  const { log } = options;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const inFlight = new Set<Promise<unknown>>();
  let lastSent = 0;

  async function post(path: string, body: unknown): Promise<Response> {
    const base = typeof options.url === "function" ? options.url() : options.url;
    return await doFetch(`${base.replace(/\/+$/, "")}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await options.token()}`,
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  }

  const processor: InboundProcessor = {
    process(wamids) {
      if (!wamids.length) return Promise.resolve();
      const ping = post("/process", { wamids }).then(async (response) => {
        await response.body?.cancel();
        if (!response.ok) log.warn("wa_agent_wake_failed", { status: response.status });
      }).catch((error) => {
        // The rows stay pending: the agent function's sweep picks them up.
        log.warn("wa_agent_wake_failed", { error: String(error).slice(0, 300) });
      });
      inFlight.add(ping);
      return ping.finally(() => inFlight.delete(ping));
    },
    async sweep() {
      const response = await post("/sweep", {});
      const body = await response.json().catch(() => null) as
        | { ok?: boolean; data?: { processed?: number; sent?: number } }
        | null;
      if (!response.ok || !body?.ok) {
        throw new Error(`agent function sweep failed: HTTP ${response.status}`);
      }
      lastSent = body.data?.sent ?? 0;
      return body.data?.processed ?? 0;
    },
    // The agent function runs the loops; nothing runs here.
    start() {},
    async stop() {
      await Promise.allSettled([...inFlight]);
    },
  };
  return { processor, afterSweep: () => Promise.resolve(lastSent) };
}
