/**
 * A LangGraph checkpoint saver over our own {@link Database} interface, so
 * an agent conversation survives restarts and resumes across webhook
 * deliveries. Checkpoints live in `private.agent_checkpoints`, pending
 * writes in `private.agent_checkpoint_writes`; both are serialised with the
 * saver's `serde` (type plus bytes) and accessed as the connecting role.
 *
 * @module
 */
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  compareWritesSortKeys,
  getCheckpointId,
  type PendingWrite,
  type SerializerProtocol,
  WRITES_IDX_MAP,
  writesSortKey,
} from "@langchain/langgraph-checkpoint";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { Database, Queryable } from "@shared/db/types.ts";

/** Options for {@link DatabaseCheckpointSaver}. */
export interface DatabaseCheckpointSaverOptions {
  /** The database holding `private.agent_checkpoints` (used as the connecting role). */
  db: Database;
  /** The serializer; LangGraph's `JsonPlusSerializer` when absent. */
  serde?: SerializerProtocol;
  /** Rows fetched per round trip by {@link DatabaseCheckpointSaver.list}. @default 100 */
  pageSize?: number;
}

interface CheckpointRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  type: string | null;
  checkpoint: Uint8Array;
  metadata: Uint8Array;
}

interface WriteRow {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  task_id: string;
  idx: number;
  channel: string;
  type: string | null;
  value: Uint8Array | null;
}

const CHECKPOINT_COLUMNS =
  "thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata";

/** The serialisation type used when a row has none (what `JsonPlusSerializer` writes). */
const DEFAULT_TYPE = "json";

/**
 * A {@link BaseCheckpointSaver} storing checkpoints and pending writes in
 * Postgres (or PGlite) through a {@link Database}.
 *
 * - `put` upserts a checkpoint (same id → checkpoint and metadata replaced).
 * - `putWrites` is idempotent: a regular write already stored for
 *   `(checkpoint, task, idx)` is kept (`on conflict do nothing`), while
 *   special channels (`__error__`, `__scheduled__`, `__interrupt__`,
 *   `__resume__`) use their fixed negative index from `WRITES_IDX_MAP` and
 *   are replaced when every write of the call is special, as the official
 *   savers do.
 * - `list` returns newest first and filters metadata in process (metadata
 *   is stored serialised), fetching `pageSize` rows per round trip.
 */
export class DatabaseCheckpointSaver extends BaseCheckpointSaver {
  readonly #db: Database;
  readonly #pageSize: number;

  /** Creates a saver over `options.db`. */
  constructor(options: DatabaseCheckpointSaverOptions) {
    super(options.serde);
    this.#db = options.db;
    this.#pageSize = Math.max(1, options.pageSize ?? 100);
  }

  /** The checkpoint `config` names (its `checkpoint_id`, else the thread's latest). */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = requireThreadId(config, "get checkpoint");
    const ns = namespaceOf(config);
    const checkpointId = getCheckpointId(config);
    const rows = checkpointId
      ? await this.#db.query<CheckpointRow>(
        `select ${CHECKPOINT_COLUMNS} from private.agent_checkpoints
          where thread_id = $1 and checkpoint_ns = $2 and checkpoint_id = $3`,
        [threadId, ns, checkpointId],
      )
      : await this.#db.query<CheckpointRow>(
        `select ${CHECKPOINT_COLUMNS} from private.agent_checkpoints
          where thread_id = $1 and checkpoint_ns = $2
          order by checkpoint_id collate "C" desc limit 1`,
        [threadId, ns],
      );
    const row = rows[0];
    if (!row) return undefined;
    const writes = await this.#pendingWrites(this.#db, [row]);
    return await this.#toTuple(row, writes.get(rowKey(row)) ?? []);
  }

  /**
   * Checkpoints newest first: of `config`'s thread (all threads when it has
   * none), of its `checkpoint_ns` and `checkpoint_id` when given, older than
   * `options.before`, whose metadata has every `options.filter` entry, at
   * most `options.limit`.
   */
  async *list(
    config: RunnableConfig,
    options: CheckpointListOptions = {},
  ): AsyncGenerator<CheckpointTuple> {
    const { before, filter } = options;
    let remaining = options.limit ?? Infinity;
    if (remaining <= 0) return;
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: (ref: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    const configurable = config.configurable ?? {};
    if (configurable.thread_id !== undefined) {
      add((p) => `thread_id = ${p}`, String(configurable.thread_id));
    }
    if (configurable.checkpoint_ns !== undefined) {
      add((p) => `checkpoint_ns = ${p}`, String(configurable.checkpoint_ns));
    }
    const checkpointId = getCheckpointId(config);
    if (checkpointId) add((p) => `checkpoint_id = ${p}`, checkpointId);
    const beforeId = before ? getCheckpointId(before) : "";
    if (beforeId) add((p) => `checkpoint_id collate "C" < ${p}`, beforeId);
    const filterEntries = Object.entries(filter ?? {});

    let cursor: CheckpointRow | undefined;
    while (remaining > 0) {
      const pageParams = [...params];
      const pageWhere = [...where];
      if (cursor) {
        pageParams.push(cursor.checkpoint_id, cursor.thread_id, cursor.checkpoint_ns);
        const n = pageParams.length;
        pageWhere.push(
          `(checkpoint_id collate "C", thread_id collate "C", checkpoint_ns collate "C") < ` +
            `($${n - 2}, $${n - 1}, $${n})`,
        );
      }
      const size = filterEntries.length === 0
        ? Math.min(remaining, this.#pageSize)
        : this.#pageSize;
      pageParams.push(size);
      const rows = await this.#db.query<CheckpointRow>(
        `select ${CHECKPOINT_COLUMNS} from private.agent_checkpoints
          ${pageWhere.length ? `where ${pageWhere.join(" and ")}` : ""}
          order by checkpoint_id collate "C" desc, thread_id collate "C" desc,
            checkpoint_ns collate "C" desc
          limit $${pageParams.length}`,
        pageParams,
      );
      if (rows.length === 0) return;
      cursor = rows[rows.length - 1];
      const selected: Array<{ row: CheckpointRow; metadata: CheckpointMetadata }> = [];
      for (const row of rows) {
        if (selected.length >= remaining) break;
        const metadata = await this.#loadMetadata(row);
        if (filterEntries.every(([key, value]) => deepEqual(metadataValue(metadata, key), value))) {
          selected.push({ row, metadata });
        }
      }
      const writes = await this.#pendingWrites(this.#db, selected.map((s) => s.row));
      for (const { row, metadata } of selected) {
        yield await this.#toTuple(row, writes.get(rowKey(row)) ?? [], metadata);
        remaining -= 1;
      }
      if (rows.length < size) return;
    }
  }

  /** Stores `checkpoint` as a child of `config`'s checkpoint and returns its config. */
  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    _newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    const threadId = requireThreadId(config, "put checkpoint");
    const ns = namespaceOf(config);
    const parentId = config.configurable?.checkpoint_id;
    const [[type, checkpointBytes], [metadataType, metadataBytes]] = await Promise.all([
      this.serde.dumpsTyped(checkpoint),
      this.serde.dumpsTyped(metadata),
    ]);
    if (metadataType !== type) {
      throw new Error(
        `checkpoint and metadata serialised as different types (${type}, ${metadataType}): ` +
          "the table keeps one type per row",
      );
    }
    await this.#db.query(
      `insert into private.agent_checkpoints
         (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)
       values ($1, $2, $3, $4, $5, $6::bytea, $7::bytea)
       on conflict (thread_id, checkpoint_ns, checkpoint_id) do update
         set checkpoint = excluded.checkpoint, metadata = excluded.metadata, type = excluded.type`,
      [
        threadId,
        ns,
        checkpoint.id,
        parentId ? String(parentId) : null,
        type,
        checkpointBytes,
        metadataBytes,
      ],
    );
    return {
      configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id },
    };
  }

  /**
   * Stores a task's intermediate writes for `config`'s checkpoint.
   * `taskPath` is not persisted (the table has no column for it): writes
   * come back ordered by task id, then index.
   */
  async putWrites(
    config: RunnableConfig,
    writes: PendingWrite[],
    taskId: string,
    _taskPath?: string,
  ): Promise<void> {
    if (writes.length === 0) return;
    const threadId = requireThreadId(config, "put writes");
    const ns = namespaceOf(config);
    const checkpointId = config.configurable?.checkpoint_id;
    if (checkpointId === undefined) {
      throw new Error('Failed to put writes: the config has no "checkpoint_id" in "configurable".');
    }
    const allSpecial = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    const serialised = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        return { channel, idx: WRITES_IDX_MAP[channel] ?? idx, type, bytes };
      }),
    );
    const params: unknown[] = [threadId, ns, String(checkpointId), taskId];
    const values = serialised.map((write) => {
      params.push(write.idx, write.channel, write.type, write.bytes);
      const n = params.length;
      return `($1, $2, $3, $4, $${n - 3}::int, $${n - 2}, $${n - 1}, $${n}::bytea)`;
    });
    await this.#db.query(
      `insert into private.agent_checkpoint_writes
         (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value)
       values ${values.join(", ")}
       on conflict (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) do ${
        allSpecial
          ? "update set channel = excluded.channel, type = excluded.type, value = excluded.value"
          : "nothing"
      }`,
      params,
    );
  }

  /** Deletes every checkpoint and write of `threadId` (all namespaces). */
  async deleteThread(threadId: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      await tx.query("delete from private.agent_checkpoint_writes where thread_id = $1", [
        threadId,
      ]);
      await tx.query("delete from private.agent_checkpoints where thread_id = $1", [threadId]);
    });
  }

  async #loadMetadata(row: CheckpointRow): Promise<CheckpointMetadata> {
    return await this.serde.loadsTyped(row.type ?? DEFAULT_TYPE, bytes(row.metadata));
  }

  async #toTuple(
    row: CheckpointRow,
    writes: WriteRow[],
    metadata?: CheckpointMetadata,
  ): Promise<CheckpointTuple> {
    const ordered = writes
      .map((write) => ({ write, key: writesSortKey("", write.task_id, write.idx) }))
      .sort((a, b) => compareWritesSortKeys(a.key, b.key));
    const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
      ordered.map(async ({ write }): Promise<CheckpointPendingWrite> => [
        write.task_id,
        write.channel,
        write.value === null
          ? undefined
          : await this.serde.loadsTyped(write.type ?? DEFAULT_TYPE, bytes(write.value)),
      ]),
    );
    const tuple: CheckpointTuple = {
      config: {
        configurable: {
          thread_id: row.thread_id,
          checkpoint_ns: row.checkpoint_ns,
          checkpoint_id: row.checkpoint_id,
        },
      },
      checkpoint: await this.serde.loadsTyped(row.type ?? DEFAULT_TYPE, bytes(row.checkpoint)),
      metadata: metadata ?? await this.#loadMetadata(row),
      pendingWrites,
    };
    if (row.parent_checkpoint_id !== null) {
      tuple.parentConfig = {
        configurable: {
          thread_id: row.thread_id,
          checkpoint_ns: row.checkpoint_ns,
          checkpoint_id: row.parent_checkpoint_id,
        },
      };
    }
    return tuple;
  }

  /** The stored writes of `rows`' checkpoints, by {@link rowKey}. */
  async #pendingWrites(db: Queryable, rows: CheckpointRow[]): Promise<Map<string, WriteRow[]>> {
    const byKey = new Map<string, WriteRow[]>();
    if (rows.length === 0) return byKey;
    const found = await db.query<WriteRow>(
      `select w.thread_id, w.checkpoint_ns, w.checkpoint_id, w.task_id, w.idx, w.channel,
              w.type, w.value
         from private.agent_checkpoint_writes w
         join unnest($1::text[], $2::text[], $3::text[]) as k(thread_id, checkpoint_ns, checkpoint_id)
           using (thread_id, checkpoint_ns, checkpoint_id)`,
      [
        rows.map((r) => r.thread_id),
        rows.map((r) => r.checkpoint_ns),
        rows.map((r) => r.checkpoint_id),
      ],
    );
    for (const write of found) {
      const key = rowKey(write);
      const list = byKey.get(key);
      if (list) list.push(write);
      else byKey.set(key, [write]);
    }
    return byKey;
  }
}

function requireThreadId(config: RunnableConfig, action: string): string {
  const threadId = config.configurable?.thread_id;
  if (threadId === undefined || threadId === null || threadId === "") {
    throw new Error(
      `Failed to ${action}: the config has no "thread_id" in "configurable". ` +
        'Pass one, e.g. graph.invoke(input, { configurable: { thread_id: "…" } }).',
    );
  }
  return String(threadId);
}

function namespaceOf(config: RunnableConfig): string {
  return String(config.configurable?.checkpoint_ns ?? "");
}

function rowKey(row: { thread_id: string; checkpoint_ns: string; checkpoint_id: string }): string {
  return JSON.stringify([row.thread_id, row.checkpoint_ns, row.checkpoint_id]);
}

/** A plain `Uint8Array` view (postgres.js returns Node `Buffer`s). */
function bytes(value: Uint8Array): Uint8Array {
  return value.constructor === Uint8Array
    ? value
    : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

function metadataValue(metadata: CheckpointMetadata, key: string): unknown {
  return Object.hasOwn(metadata, key) ? (metadata as Record<string, unknown>)[key] : undefined;
}

/** Structural equality of JSON-like values (what a metadata filter compares). */
function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  const aRecord = a as Record<string, unknown>;
  const bRecord = b as Record<string, unknown>;
  const aKeys = Object.keys(aRecord);
  if (aKeys.length !== Object.keys(bRecord).length) return false;
  return aKeys.every((key) => Object.hasOwn(bRecord, key) && deepEqual(aRecord[key], bRecord[key]));
}
