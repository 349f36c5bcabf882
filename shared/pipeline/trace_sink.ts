/**
 * Tool-call traces, written off the hot path: `record` only pushes to a
 * buffer; a timer (or a full buffer) flushes it with one multi-row insert.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";

/** One tool call, as stored in `public.tool_calls`. */
export interface TraceRecord {
  tool: string;
  org_id: string | null;
  user_id: string | null;
  agent_id: string | null;
  convo_id: string | null;
  trace_id: string;
  ok: boolean;
  error_code: string | null;
  duration_ms: number;
  /** Size of the JSON result; computed at flush time from `result`. */
  result: unknown;
  over_budget: boolean;
  replayed: boolean;
}

type TraceRow = Omit<TraceRecord, "result"> & { bytes: number };

/** Options for {@link TraceSink}. */
export interface TraceSinkOptions {
  /** Where to write. */
  db: Queryable;
  /** Where to report failed flushes. */
  log: Logger;
  /** Flush when this many records wait (one insert per batch: bigger batches cost less per row). @default 1000 */
  maxBatch?: number;
  /** Flush at least this often. @default 250 */
  intervalMs?: number;
  /** Records kept when the database is down; older ones are dropped. @default 10000 */
  maxBuffered?: number;
}

const INSERT_SQL = `
  insert into public.tool_calls
    (tool, org_id, user_id, agent_id, convo_id, trace_id, ok, error_code, duration_ms, bytes,
     over_budget, replayed)
  select tool, org_id, user_id, agent_id, convo_id, trace_id, ok, error_code, duration_ms, bytes,
     over_budget, replayed
  from jsonb_to_recordset($1::jsonb) as t(
    tool text, org_id uuid, user_id uuid, agent_id text, convo_id uuid, trace_id text, ok boolean,
    error_code text, duration_ms double precision, bytes int, over_budget boolean, replayed boolean)`;

/** Buffers traces and writes them in batches. */
export class TraceSink {
  readonly #options: Required<TraceSinkOptions>;
  #buffer: TraceRecord[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #flushing: Promise<void> = Promise.resolve();

  /** Creates a sink. */
  constructor(options: TraceSinkOptions) {
    this.#options = { maxBatch: 1000, intervalMs: 250, maxBuffered: 10_000, ...options };
  }

  /** Queues one record; never waits for I/O. */
  record(trace: TraceRecord): void {
    if (this.#buffer.length >= this.#options.maxBuffered) this.#buffer.shift();
    this.#buffer.push(trace);
    if (this.#buffer.length >= this.#options.maxBatch) {
      void this.flush();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), this.#options.intervalMs);
    }
  }

  /** Writes everything buffered so far. */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const batch = this.#buffer;
    this.#buffer = [];
    this.#flushing = this.#flushing.then(() => batch.length ? this.#write(batch) : undefined);
    return this.#flushing;
  }

  async #write(batch: TraceRecord[]): Promise<void> {
    // Rows of one shape, built field by field: JSON.stringify's fast path, no rest/spread copies.
    const rows = new Array<TraceRow>(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const trace = batch[i];
      rows[i] = {
        tool: trace.tool,
        org_id: trace.org_id,
        user_id: trace.user_id,
        agent_id: trace.agent_id,
        convo_id: trace.convo_id,
        trace_id: trace.trace_id,
        ok: trace.ok,
        error_code: trace.error_code,
        duration_ms: trace.duration_ms,
        bytes: JSON.stringify(trace.result ?? null).length,
        over_budget: trace.over_budget,
        replayed: trace.replayed,
      };
    }
    try {
      await this.#options.db.query(INSERT_SQL, [rows]);
    } catch (error) {
      this.#options.log.error("trace_flush_failed", {
        dropped: rows.length,
        error: (error as Error).message,
      });
    }
  }
}
