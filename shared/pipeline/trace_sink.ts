/**
 * Tool-call traces, written off the hot path. `record` appends the call's
 * fields to column arrays and lets go of the call's objects at once; a timer
 * (or a full batch) sends the columns as one `insert … select from
 * unnest(…)`: one statement, twelve array parameters, whatever the batch size.
 *
 * Columns, not JSON rows: serialising a thousand row objects cost more than
 * the rest of a no-database call, and rows held until the flush outlived the
 * young generation, so the collector copied every call's result. A column of
 * strings, numbers and nulls serialised by `JSON.stringify` is already a
 * Postgres array literal once its brackets become braces (strings are quoted
 * and `"` and `\` escaped alike); the rare column holding another escape
 * (a control character) is written element by element instead.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { isUuid } from "@shared/contract/uuid.ts";

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
  /** The call's answer; only its JSON size is stored. */
  result: unknown;
  over_budget: boolean;
  replayed: boolean;
}

/** Options for {@link TraceSink}. */
export interface TraceSinkOptions {
  /** Where to write. */
  db: Queryable;
  /** Where to report failed flushes and dropped records. */
  log: Logger;
  /** Flush when this many records wait (one insert per batch: bigger batches cost less per row). @default 1000 */
  maxBatch?: number;
  /** Flush at least this often. @default 250 */
  intervalMs?: number;
  /** Records waiting to be written (the database is slow or down) beyond which new batches are dropped, and logged. @default 10000 */
  maxBuffered?: number;
}

// A row keeps its org only if the org exists: an org deleted since the call
// must not fail the other rows of the batch (nor may a malformed id: ids are
// checked before they are sent, see `keepUuids`). Rows keep the order of the calls
// (ids ascend with them).
const INSERT_SQL = `
  insert into public.tool_calls
    (tool, org_id, user_id, agent_id, convo_id, trace_id, ok, error_code, duration_ms, bytes,
     over_budget, replayed)
  select t.tool, o.id, t.user_id, t.agent_id, t.convo_id, t.trace_id, t.ok, t.error_code,
     t.duration_us / 1000.0, t.bytes, t.over_budget, t.replayed
  from unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::uuid[], $6::text[],
     $7::boolean[], $8::text[], $9::bigint[], $10::int[], $11::boolean[], $12::boolean[])
     with ordinality
    as t(tool, org_id, user_id, agent_id, convo_id, trace_id, ok, error_code, duration_us,
     bytes, over_budget, replayed, n)
  left join public.orgs o on o.id = t.org_id
  order by t.n`;

type Cell = string | number | boolean | null;

const COLUMNS = 12;
const UUID_COLUMNS = [1, 2, 4];

// Anything in a uuid column that is not a uuid becomes null. Neighbouring rows
// mostly repeat an id (one tenant, one user), checked once.
function keepUuids(column: Cell[]): void {
  let valid: Cell = null;
  for (let i = 0; i < column.length; i++) {
    const value = column[i];
    if (value === null || value === valid) continue;
    if (isUuid(value)) valid = value;
    else column[i] = null;
  }
}

// A column as a Postgres array literal (see the module comment).
function arrayLiteral(column: Cell[]): string {
  const json = JSON.stringify(column);
  if (!/\\[^"\\]/.test(json)) return `{${json.slice(1, -1)}}`;
  return `{${column.map(element).join(",")}}`;
}

// One element, quoted, without NUL (which Postgres text cannot hold).
function element(value: Cell): string {
  if (value === null) return "NULL";
  if (typeof value !== "string") return String(value);
  return `"${value.replaceAll("\0", "").replace(/["\\]/g, "\\$&")}"`;
}

// Recording must not throw: a result JSON cannot hold (a bigint, a cycle) counts as empty.
function jsonSize(value: unknown): number {
  try {
    return JSON.stringify(value ?? null)?.length ?? 0;
  } catch {
    return 0;
  }
}

function newColumns(): Cell[][] {
  return Array.from({ length: COLUMNS }, () => []);
}

/** Buffers traces and writes them in batches. */
export class TraceSink {
  readonly #options: Required<TraceSinkOptions>;
  #columns: Cell[][] = newColumns();
  #waiting = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #flushing: Promise<void> = Promise.resolve();

  /** Creates a sink. */
  constructor(options: TraceSinkOptions) {
    this.#options = { maxBatch: 1000, intervalMs: 250, maxBuffered: 10_000, ...options };
  }

  /** Queues one record; never waits for I/O. */
  record(trace: TraceRecord): void {
    const c = this.#columns;
    c[0].push(trace.tool);
    c[1].push(trace.org_id);
    c[2].push(trace.user_id);
    c[3].push(trace.agent_id);
    c[4].push(trace.convo_id);
    c[5].push(trace.trace_id);
    c[6].push(trace.ok);
    c[7].push(trace.error_code);
    c[8].push(Math.round(trace.duration_ms * 1000));
    c[9].push(jsonSize(trace.result));
    c[10].push(trace.over_budget);
    c[11].push(trace.replayed);
    if (c[0].length >= this.#options.maxBatch) {
      void this.flush();
    } else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), this.#options.intervalMs);
    }
  }

  /** Writes everything recorded so far. */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const columns = this.#columns;
    const count = columns[0].length;
    if (count === 0) return this.#flushing;
    this.#columns = newColumns();
    if (this.#waiting + count > this.#options.maxBuffered) {
      this.#options.log.error("trace_dropped", { dropped: count, waiting: this.#waiting });
      return this.#flushing;
    }
    this.#waiting += count;
    this.#flushing = this.#flushing.then(() => this.#write(columns, count));
    return this.#flushing;
  }

  async #write(columns: Cell[][], count: number): Promise<void> {
    try {
      for (const index of UUID_COLUMNS) keepUuids(columns[index]);
      await this.#options.db.query(INSERT_SQL, columns.map(arrayLiteral));
    } catch (error) {
      this.#options.log.error("trace_flush_failed", {
        dropped: count,
        error: (error as Error).message,
      });
    } finally {
      this.#waiting -= count;
    }
  }
}
