/**
 * Sends what the outbox holds for one person through the real dispatcher and
 * the loopback Graph API, with that person's 24-hour window set up first:
 * for tests of a pack's messages inside and outside the window.
 *
 * @module
 */
import { createDispatcher } from "@shared/channels/whatsapp/dispatcher.ts";
import { createGraphAdapter } from "@shared/channels/whatsapp/graph_adapter.ts";
import { recordInbound } from "@shared/channels/whatsapp/window.ts";
import type { Queryable } from "@shared/db/types.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { type FakeOutcome, startFakeGraph } from "./graph_server.ts";

/** Options for {@link dispatchTo}. */
export interface DispatchToOptions {
  /** The tenant whose outbox and window these are. */
  orgId: string;
  /** How long before now the person last wrote; null when they never did. */
  wroteAgoMs: number | null;
  /** What the Graph API answers to the person's messages, in order. @default accepted */
  outcomes?: FakeOutcome[];
}

/** What went out. */
export interface Dispatched {
  /** The person's outbox rows, oldest first. */
  rows: Array<{ status: string; last_error_code: number | null }>;
  /** The Graph API request bodies sent to the person, in order. */
  // deno-lint-ignore no-explicit-any
  sent: any[];
}

/** Drains the outbox to `waId` once, through the loopback Graph API. */
export async function dispatchTo(
  db: Queryable,
  waId: string,
  options: DispatchToOptions,
): Promise<Dispatched> {
  const graph = await startFakeGraph({ responses: { [waId]: options.outcomes ?? [] } });
  // Ahead of the database's now(), which stamped the queued rows.
  const now = new Date(Math.ceil(Date.now() / 1000) * 1000 + 60_000);
  if (options.wroteAgoMs !== null) {
    await recordInbound(db, {
      waId,
      orgId: options.orgId,
      at: new Date(now.getTime() - options.wroteAgoMs),
    });
  }
  const dispatcher = createDispatcher({
    db,
    transport: createGraphAdapter({
      token: graph.token,
      phoneNumberId: graph.phoneNumberId,
      baseUrl: graph.baseUrl,
    }),
    log: memoryLogger(),
    now: () => now,
    sleep: () => Promise.resolve(),
    random: () => 0.5,
  });
  try {
    await dispatcher.drain();
    const rows = await db.query<{ status: string; last_error_code: number | null }>(
      "select status, last_error_code from public.wa_outbox where to_wa_id = $1 order by seq",
      [waId],
    );
    const sent = graph.requests.map((request) => request.body as { to?: string })
      .filter((body) => body.to === waId);
    return { rows, sent };
  } finally {
    await dispatcher.stop();
    await graph.close();
  }
}
