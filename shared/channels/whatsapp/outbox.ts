/**
 * The outbox (`public.wa_outbox`): every outbound WhatsApp message is a row,
 * written in the transaction of whatever decided to send it and dispatched
 * after commit (see `dispatcher.ts`). A rolled-back tool call therefore sends
 * nothing, and an idempotency key makes a retried call enqueue nothing new.
 *
 * Status webhooks move a row forward only, along `private.wa_status_rank`:
 * queued < sending < sent < failed < delivered < read.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/result.ts";
import type { Queryable } from "@shared/db/types.ts";
import { WA_ERROR } from "./error_codes.ts";
import { assertMessage, type TemplateMessage, type WhatsAppMessage } from "./messages.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import { isUuid } from "@shared/contract/uuid.ts";

/** The longest idempotency key the outbox accepts. */
export const MAX_OUTBOX_KEY_LENGTH = 255;

/**
 * An idempotency key already names another message (other org, recipient,
 * body, fallback or conversation). A tool that enqueues fails with
 * `CONFLICT`: the same key was used for a different request.
 */
export class OutboxConflictError extends ToolFailure {
  /** The key that was reused. */
  readonly idempotencyKey: string;

  /**
   * Creates the error.
   *
   * @param idempotencyKey The key that was reused.
   */
  constructor(idempotencyKey: string) {
    super("CONFLICT", "This message was already sent with different content");
    this.message = `Cannot enqueue the message as idempotency key ${
      JSON.stringify(idempotencyKey)
    } was already used for another message`;
    this.name = "OutboxConflictError";
    this.idempotencyKey = idempotencyKey;
  }
}

/** What {@link enqueueMessage} queues. */
export interface EnqueueMessageOptions {
  /** The org sending it. */
  orgId: string;
  /** The recipient: a wa_id or any phone form {@link toWaId} reads. */
  to: string;
  /** The message, from one of the builders. */
  message: WhatsAppMessage;
  /**
   * Unique across the whole outbox (1–255 characters, not per org): derive it
   * from the tool call's own key plus a scope, e.g. `${orgId}:${callKey}:reply`.
   */
  idempotencyKey: string;
  /** The conversation it belongs to. */
  conversationId?: string;
  /**
   * An approved template sent instead when the recipient's 24-hour window
   * is closed. Without one, a message outside the window fails with 131047.
   */
  fallbackTemplate?: TemplateMessage;
  /**
   * For a notice said at most once per key whatever it would say now (the
   * "busy, try again shortly" of a message put off again and again): when
   * the key already names a message, that one stands and its id is
   * returned, even if this one reads differently (the recipient's language
   * changed meanwhile). @default false: a different message under a used
   * key throws {@link OutboxConflictError}
   */
  firstStands?: boolean;
  /**
   * Never resend after a crash (a broadcast): a row left `sending` is
   * reconciled from status webhooks or marked unconfirmed, not requeued.
   * @default false (at least once)
   */
  atMostOnce?: boolean;
}

/**
 * Queues a message in the caller's transaction. Enqueuing the same
 * idempotency key again (a retried tool call) returns the existing row's id
 * and queues nothing: one key, one message.
 *
 * Run it on the transaction that makes the decision to send, as the
 * connecting role or `service_role`: the table's RLS has only a staff select
 * policy, so an `authenticated` caller cannot insert.
 *
 * @param tx The caller's transaction.
 * @param options Org, recipient, message, key, and optional conversation and fallback.
 * @returns The outbox row id (the existing row's on a repeated key).
 * @throws {TypeError} When the recipient, message, key or ids are malformed.
 * @throws {OutboxConflictError} When the key was used for a different message (unless
 * `firstStands`).
 *
 * @example Replying inside a tool call
 * ```ts ignore
 * const id = await enqueueMessage(tx, {
 *   orgId,
 *   to: "0788123456",
 *   message: buttonsMessage({ body: "Confirm the order?", buttons: [...] }),
 *   idempotencyKey: `${scope}:${callKey}:confirm`,
 *   fallbackTemplate: templateMessage({ name: "order_confirm", language: "en" }),
 * });
 * ```
 */
export async function enqueueMessage(
  tx: Queryable,
  options: EnqueueMessageOptions,
): Promise<string> {
  const { orgId, idempotencyKey, conversationId } = options;
  checkUuid(orgId, "orgId");
  if (conversationId !== undefined) checkUuid(conversationId, "conversationId");
  if (
    typeof idempotencyKey !== "string" || idempotencyKey.length < 1 ||
    idempotencyKey.length > MAX_OUTBOX_KEY_LENGTH
  ) {
    throw new TypeError(
      `Cannot enqueue the message as idempotencyKey must be 1 to ${MAX_OUTBOX_KEY_LENGTH} ` +
        `characters: current value is ${JSON.stringify(idempotencyKey)}`,
    );
  }
  const to = toWaId(options.to);
  const message = assertMessage(options.message, "enqueue the message");
  let fallback: unknown = null;
  if (options.fallbackTemplate !== undefined) {
    const template = assertMessage(options.fallbackTemplate, "enqueue the fallback template");
    if (template.kind !== "template") {
      throw new TypeError(
        `Cannot enqueue the message as fallbackTemplate must be a template message: ` +
          `current kind is ${JSON.stringify(template.kind)}`,
      );
    }
    fallback = template.body;
  }
  const params = [
    orgId,
    to,
    message.kind,
    message.body,
    fallback,
    idempotencyKey,
    conversationId ?? null,
  ];
  // `seq` orders a recipient's messages; clock_timestamp() (not the transaction's start) dates
  // each one when it was queued, which the simulator's polling reads.
  const inserted = await tx.query<{ id: string }>(
    `insert into public.wa_outbox
       (org_id, to_wa_id, kind, body, fallback_template, idempotency_key, conversation_id,
        at_most_once, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, clock_timestamp())
     on conflict (idempotency_key) do nothing
     returning id`,
    [...params, options.atMostOnce ?? false],
  );
  if (inserted.length > 0) return inserted[0].id;
  // A separate statement: its snapshot sees the row the conflict waited for.
  const [existing] = await tx.query<{ id: string; same: boolean }>(
    `select id,
            (org_id = $1::uuid and to_wa_id = $2::text and kind = $3::text
             and body = $4::jsonb and fallback_template is not distinct from $5::jsonb
             and conversation_id is not distinct from $7::uuid) as same
       from public.wa_outbox
      where idempotency_key = $6::text`,
    params,
  );
  if (!existing) throw new Error("wa_outbox key conflict without a visible row");
  if (!existing.same && !options.firstStands) throw new OutboxConflictError(idempotencyKey);
  return existing.id;
}

/** The statuses Meta reports for an outbound message. */
export const DELIVERY_STATUSES = ["sent", "delivered", "read", "failed"] as const;

/** A status Meta reports for an outbound message. */
export type DeliveryStatus = typeof DELIVERY_STATUSES[number];

/**
 * Whether a webhook status is one {@link applyStatus} understands.
 *
 * @param value A `statuses[].status` value.
 * @returns True for sent, delivered, read and failed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDeliveryStatus } from "./outbox.ts";
 *
 * assert.equal(isDeliveryStatus("read"), true);
 * assert.equal(isDeliveryStatus("deleted"), false);
 * ```
 */
export function isDeliveryStatus(value: unknown): value is DeliveryStatus {
  return typeof value === "string" && (DELIVERY_STATUSES as readonly string[]).includes(value);
}

/** One entry of a status webhook's `errors`. */
export interface StatusError {
  /** Meta's error code. */
  code: number;
  /** Meta's short title. */
  title?: string;
  /** Meta's message (often the same as the title). */
  message?: string;
  /** Details. */
  error_data?: { details?: string };
}

/** What {@link applyStatus} applies. */
export interface ApplyStatusOptions {
  /** The message id (`statuses[].id`). */
  wamid: string;
  /** The reported status. */
  status: DeliveryStatus;
  /** When it happened (`statuses[].timestamp`, unix seconds × 1000). */
  at: Date;
  /** `statuses[].errors` of a failed status. */
  errors?: readonly StatusError[];
  /**
   * `statuses[].recipient_id`: reconciles an at-most-once message whose wamid
   * was never saved (see {@link reconcileStatus}).
   */
  recipient?: string;
}

/** How long before a status an unsaved at-most-once message may have been queued. */
export const RECONCILE_WINDOW_MS = 24 * 3_600_000;

/**
 * Applies a status webhook to the outbox row with this wamid, moving its
 * status forward only (by `private.wa_status_rank`), so statuses arriving out
 * of order or twice are harmless:
 *
 * - `delivered` after `read` changes nothing; `sent` after `delivered` neither;
 * - `failed` after `delivered` or `read` changes nothing (the user has it);
 * - `failed` after `sent` records the first error's code and title;
 * - `delivered`/`read` after `failed` do move forward: the device confirmed
 *   the message, which outranks the failure (the error stays recorded).
 *
 * One exception to "forward only": a `failed` with 131047 (re-engagement,
 * which Meta usually reports here rather than in the send reply) on a
 * free-form message that has a fallback template requeues the row, once:
 * status `queued`, wamid cleared, `last_error_code` 131047, which makes the
 * dispatcher send the template next.
 *
 * Runs on `db` as given, which must be the connecting role: `service_role`
 * has no EXECUTE on `private.wa_status_rank`.
 *
 * @param db A connection or transaction as the connecting role.
 * @param options The wamid, status, time and errors.
 * @returns Whether a row changed (false for unknown wamids, stale or repeated statuses).
 * @throws {TypeError} When the status is not sent, delivered, read or failed.
 *
 * @example In the webhook, for each `statuses[]` item
 * ```ts ignore
 * if (isDeliveryStatus(status.status)) {
 *   await applyStatus(db, {
 *     wamid: status.id,
 *     status: status.status,
 *     at: new Date(Number(status.timestamp) * 1000),
 *     errors: status.errors,
 *   });
 * }
 * ```
 */
export async function applyStatus(db: Queryable, options: ApplyStatusOptions): Promise<boolean> {
  const { wamid, status, at, errors } = options;
  if (!isDeliveryStatus(status)) {
    throw new TypeError(
      `Cannot apply the status as it must be sent, delivered, read or failed: current value is ${
        JSON.stringify(status)
      }`,
    );
  }
  if (typeof wamid !== "string" || wamid === "") {
    throw new TypeError("Cannot apply the status as wamid is empty");
  }
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new TypeError("Cannot apply the status as at must be a valid Date");
  }
  const error = status === "failed" ? errors?.[0] : undefined;
  const code = typeof error?.code === "number" ? error.code : null;
  const title = error ? describeError(error) : null;
  const rows = await db.query(
    `with cur as (
       select id,
              ($2::text = 'failed' and $4::int = ${WA_ERROR.reEngagement} and kind <> 'template'
               and fallback_template is not null
               and last_error_code is distinct from ${WA_ERROR.reEngagement}) as requeue
         from public.wa_outbox
        where wamid = $1
          and private.wa_status_rank($2::text) > private.wa_status_rank(status)
        for update
     )
     update public.wa_outbox o set
       status = case when cur.requeue then 'queued' else $2::text end,
       wamid = case when cur.requeue then null else o.wamid end,
       next_attempt_at = case when cur.requeue then now() else o.next_attempt_at end,
       sent_at = case when $2::text in ('sent', 'delivered', 'read')
                   then coalesce(o.sent_at, $3::timestamptz) else o.sent_at end,
       last_error_code = case when $2::text = 'failed' then $4::int else o.last_error_code end,
       last_error = case when $2::text = 'failed' then $5::text else o.last_error end,
       updated_at = now()
       from cur
      where o.id = cur.id
     returning o.id`,
    [wamid, status, at, code, title],
  );
  if (rows.length > 0) return true;
  return options.recipient ? await reconcileStatus(db, { ...options, code, title }) : false;
}

/**
 * A status whose wamid no row holds, for a recipient with an at-most-once
 * message in flight (left `sending` by a process that died after Meta
 * accepted it, or marked unconfirmed since): that message is the one Meta
 * reports on. A recipient's messages are claimed one at a time, in order, so
 * at most one such row exists per recipient; it takes the wamid and the
 * status, and its broadcast send follows (the outbox trigger).
 */
async function reconcileStatus(
  db: Queryable,
  options: ApplyStatusOptions & { code: number | null; title: string | null },
): Promise<boolean> {
  const rows = await db.query(
    `with cur as (
       select id from public.wa_outbox
        where to_wa_id = $1 and at_most_once and wamid is null
          and (status = 'sending' or unconfirmed)
          and created_at between $4::timestamptz - $7::double precision * interval '1 millisecond'
                             and $4::timestamptz + interval '1 hour'
        order by created_at, seq limit 1
        for update
     )
     update public.wa_outbox o set
       wamid = $2, status = $3::text, unconfirmed = false,
       sent_at = case when $3::text in ('sent', 'delivered', 'read')
                   then coalesce(o.sent_at, $4::timestamptz) else o.sent_at end,
       last_error_code = case when $3::text = 'failed' then $5::int else null end,
       last_error = case when $3::text = 'failed' then $6::text else null end,
       updated_at = now()
       from cur
      where o.id = cur.id
     returning o.id`,
    [
      options.recipient,
      options.wamid,
      options.status,
      options.at,
      options.code,
      options.title,
      RECONCILE_WINDOW_MS,
    ],
  );
  return rows.length > 0;
}

function describeError(error: StatusError): string | null {
  const title = error.title ?? error.message;
  const details = error.error_data?.details;
  const text = [title, details].filter((part) => typeof part === "string" && part !== "").join(
    ": ",
  );
  return text === "" ? null : text.slice(0, 1000);
}

function checkUuid(value: unknown, name: string): void {
  if (!isUuid(value)) {
    throw new TypeError(
      `Cannot enqueue the message as ${name} must be a uuid: current value is ${
        JSON.stringify(value)
      }`,
    );
  }
}
