/**
 * The circuit breaker in front of the model, per tenant (org) and endpoint
 * (the model's base URL): after {@link ModelBreakerOptions.threshold}
 * consecutive failed turns it opens, and for a cool-down every turn skips the
 * model and is answered offline at once. When the cool-down is over, ONE turn
 * is let through as the probe (half-open); its answer closes the breaker, its
 * failure opens it for another cool-down. Any answer of the model closes it.
 *
 * The state lives in `private.model_breakers`, so every function instance
 * sees the same breaker and only one of them probes at a time. An instance
 * that found it open remembers that until the cool-down ends and does not ask
 * the database again meanwhile (an outage costs no query per message).
 *
 * A failure caused by the request itself (HTTP 400, 413, 422: one
 * conversation's payload) says nothing about the endpoint and is not counted;
 * nor is a caller's own abort.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import { millisecondsFromEnv } from "./model_turn.ts";
import type { ModelUnavailableError } from "./model.ts";

/** Which breaker: a tenant's use of one model endpoint. */
export interface BreakerKey {
  /** The org whose conversations use the model. */
  orgId: string;
  /** The model's endpoint (its base URL), never a key. */
  endpoint: string;
}

/**
 * What a turn may do: use the model (`closed`), use it as the one probe after
 * a cool-down (`probe`), or skip it and answer offline (`open`).
 */
export type BreakerGate = "closed" | "probe" | "open";

/** The breaker's settings; see {@link modelBreakerOptionsFromEnv}. */
export interface ModelBreakerSettings {
  /** Consecutive failed turns that open the breaker. @default 3 */
  threshold?: number;
  /** How long an open breaker skips the model before a probe. @default 60000 */
  cooldownMs?: number;
}

/** Options for {@link createModelBreaker}. */
export interface ModelBreakerOptions extends ModelBreakerSettings {
  /** Where the state is kept (the connecting role: the table is granted to no API role). */
  db: Queryable;
  /**
   * How long a claimed probe keeps other turns from probing: at least a
   * turn's model deadline, so a probe that dies with its instance is retried
   * by another turn after it. @default 30000
   */
  probeMs?: number;
  /** The clock. @default the real one */
  now?: () => Date;
}

/** What recording a failure did. */
export interface BreakerFailure {
  /** Whether the breaker is open now. */
  open: boolean;
  /** Whether this failure opened it (the threshold was reached just now). */
  opened: boolean;
  /** Consecutive failures so far. */
  failures: number;
}

/** The breaker; see the module documentation. */
export interface ModelBreaker {
  /**
   * Whether a turn may use the model now; claims the probe when the cool-down
   * is over and nobody probes yet.
   */
  gate(key: BreakerKey): Promise<BreakerGate>;
  /**
   * The model answered: the breaker closes (and its failures reset).
   *
   * @returns Whether it was open until now.
   */
  succeeded(key: BreakerKey): Promise<boolean>;
  /** The model failed a turn: counted, and the breaker opens at the threshold. */
  failed(key: BreakerKey): Promise<BreakerFailure>;
}

/**
 * Whether a failure says the endpoint is failing (rather than this request
 * being wrong, or the caller giving up).
 *
 * @param error What failed.
 * @returns True when it counts towards opening the breaker.
 */
export function countsAgainstEndpoint(error: ModelUnavailableError): boolean {
  if (error.reason === "aborted") return false;
  return !(error.reason === "http" && [400, 413, 422].includes(error.status ?? 0));
}

/**
 * Builds a breaker over the database.
 *
 * @param options Where the state lives, the threshold, the cool-down and the clock.
 * @returns The breaker.
 * @throws {RangeError} when a setting is out of range.
 */
export function createModelBreaker(options: ModelBreakerOptions): ModelBreaker {
  const { db } = options;
  const threshold = options.threshold ?? 3;
  if (!Number.isInteger(threshold) || threshold < 1) {
    throw new RangeError(
      `Cannot create a model breaker as threshold must be a whole number from 1: current value is ${threshold}`,
    );
  }
  const cooldownMs = options.cooldownMs ?? 60_000;
  const probeMs = options.probeMs ?? 30_000;
  for (const [name, value] of [["cooldownMs", cooldownMs], ["probeMs", probeMs]] as const) {
    if (!(value > 0) || !Number.isFinite(value)) {
      throw new RangeError(
        `Cannot create a model breaker as ${name} must be a positive number of milliseconds: current value is ${value}`,
      );
    }
  }
  const now = options.now ?? (() => new Date());
  // Until when this instance knows a breaker is open (its cool-down's end, epoch ms).
  const openUntil = new Map<string, number>();
  const id = (key: BreakerKey) => `${key.orgId} ${key.endpoint}`;
  const endpointOf = (key: BreakerKey) => key.endpoint.slice(0, 500) || "-";
  const later = (at: Date, ms: number) => new Date(at.getTime() + ms).toISOString();

  return {
    async gate(key) {
      const at = now();
      const known = openUntil.get(id(key));
      if (known !== undefined && at.getTime() < known) return "open";
      openUntil.delete(id(key));
      // One statement: claim the probe if the cool-down is over and none is in flight,
      // and read the state as it was before.
      const [row] = await db.query<{ open: boolean; retry_at: string | Date; probe: boolean }>(
        `with claimed as (
           update private.model_breakers
           set probe_until = $4::timestamptz, updated_at = $3::timestamptz
           where org_id = $1 and endpoint = $2 and opened_at is not null
             and retry_at <= $3::timestamptz
             and (probe_until is null or probe_until <= $3::timestamptz)
           returning 1
         )
         select opened_at is not null as open, retry_at,
                exists (select 1 from claimed) as probe
         from private.model_breakers
         where org_id = $1 and endpoint = $2`,
        [key.orgId, endpointOf(key), at.toISOString(), later(at, probeMs)],
      );
      if (!row || !row.open) return "closed";
      if (row.probe) return "probe";
      const retryAt = new Date(row.retry_at).getTime();
      // Skip the database until the cool-down ends; a probe in flight is waited out there.
      if (retryAt > at.getTime()) openUntil.set(id(key), retryAt);
      return "open";
    },

    async succeeded(key) {
      openUntil.delete(id(key));
      const rows = await db.query<{ was_open: boolean }>(
        `update private.model_breakers b
         set failures = 0, opened_at = null, retry_at = null, probe_until = null,
             updated_at = $3::timestamptz
         from (select opened_at from private.model_breakers
               where org_id = $1 and endpoint = $2 and (failures > 0 or opened_at is not null)
               for update) old
         where b.org_id = $1 and b.endpoint = $2
         returning old.opened_at is not null as was_open`,
        [key.orgId, endpointOf(key), now().toISOString()],
      );
      return rows[0]?.was_open ?? false;
    },

    async failed(key) {
      const at = now();
      const [row] = await db.query<{ failures: number; open: boolean; retry_at: string | Date }>(
        `insert into private.model_breakers as b
           (org_id, endpoint, failures, opened_at, retry_at, updated_at)
         values ($1, $2, 1,
                 case when $3::int <= 1 then $4::timestamptz end,
                 case when $3::int <= 1 then $5::timestamptz end,
                 $4::timestamptz)
         on conflict (org_id, endpoint) do update set
           failures = b.failures + 1,
           opened_at = case when b.opened_at is not null then b.opened_at
                            when b.failures + 1 >= $3::int then $4::timestamptz end,
           retry_at = case when b.opened_at is not null or b.failures + 1 >= $3::int
                           then $5::timestamptz end,
           -- A failed probe (or a late failure) starts a new cool-down.
           probe_until = null,
           updated_at = $4::timestamptz
         returning failures, opened_at is not null as open, retry_at`,
        [key.orgId, endpointOf(key), threshold, at.toISOString(), later(at, cooldownMs)],
      );
      if (row.open) openUntil.set(id(key), new Date(row.retry_at).getTime());
      return { open: row.open, opened: row.failures === threshold, failures: row.failures };
    },
  };
}

/**
 * The breaker settings configured by `MODEL_BREAKER_THRESHOLD` (default 3)
 * and `MODEL_BREAKER_COOLDOWN_MS` (default 60000).
 *
 * @param env Where to read the variables (`Deno.env` or a stand-in).
 * @returns The settings.
 * @throws {TypeError} when a variable is set but out of range.
 *
 * @example Defaults
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelBreakerOptionsFromEnv } from "./model_breaker.ts";
 *
 * assert.deepEqual(modelBreakerOptionsFromEnv({ get: () => undefined }), {
 *   threshold: 3,
 *   cooldownMs: 60000,
 * });
 * ```
 */
export function modelBreakerOptionsFromEnv(
  env: Pick<Deno.Env, "get"> = Deno.env,
): Required<ModelBreakerSettings> {
  const threshold = env.get("MODEL_BREAKER_THRESHOLD")?.trim();
  if (threshold !== undefined && threshold !== "" && !/^[1-9]\d{0,2}$/.test(threshold)) {
    throw new TypeError(
      `Cannot configure the model breaker as MODEL_BREAKER_THRESHOLD must be a whole number (1-999): current value is ${threshold}`,
    );
  }
  const read = (name: string) => millisecondsFromEnv(env, name);
  return {
    threshold: threshold ? Number(threshold) : 3,
    cooldownMs: read("MODEL_BREAKER_COOLDOWN_MS") ?? 60_000,
  };
}
