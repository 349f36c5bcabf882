/**
 * Stores inbound messages before the webhook answers 200: one statement
 * inserts every message of the delivery (deduplicated atomically by wamid)
 * and moves each sender's 24-hour window forward. It returns the wamids that
 * are new, which are the only ones to process.
 *
 * If that statement fails, each message is stored on its own, so one
 * message Postgres refuses never costs its siblings their 200: a message
 * refused for what it holds (a data or integrity error) is logged and
 * skipped — Meta re-sending it would fail the same way — while any other
 * failure (the database is down) is thrown, so the webhook answers 500 and
 * Meta retries the delivery.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";
import type { InboundMessage } from "./inbound.ts";
import { windowUpsertSql } from "./window.ts";

// Each sender's newest message in the delivery: it sets their window.
const LATEST_PER_SENDER = `(
  select distinct on (org_id, from_wa_id) from_wa_id as wa_id, org_id, profile_name,
         sent_at as last_inbound_at, phone_number_id
  from incoming order by org_id, from_wa_id, sent_at desc) as latest`;

const STORE_SQL = `
  with incoming as (
    select * from jsonb_to_recordset($1::jsonb) as m(
      wamid text, org_id uuid, phone_number_id text, from_wa_id text, profile_name text,
      type text, message jsonb, context_wamid text, sent_at timestamptz, flags text[],
      raw_payload text)
  ), stored as (
    insert into private.wa_inbound
      (wamid, org_id, phone_number_id, from_wa_id, profile_name, type, message, context_wamid,
       sent_at, flags, raw_payload)
    select wamid, org_id, phone_number_id, from_wa_id, profile_name, type, message,
           context_wamid, sent_at, coalesce(flags, '{}'), raw_payload
    from incoming
    on conflict (wamid) do nothing
    returning wamid
  ), windows as (${windowUpsertSql(LATEST_PER_SENDER)})
  select wamid from stored`;

/** What {@link storeInbound} did. */
export interface StoredDelivery {
  /** The newly stored wamids: the ones to process. */
  stored: string[];
  /** Messages Postgres refused for what they hold (logged, not stored). */
  skipped: string[];
}

// SQLSTATE classes of errors about the data itself: retrying the same message fails the same way.
const DATA_ERROR_CLASSES = ["22", "23", "54"];

/** Whether a database error is about the data written (retrying it fails the same way). */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && DATA_ERROR_CLASSES.includes(code.slice(0, 2));
}

/**
 * The org a message is stored for: one org for the whole delivery, or the
 * org of each message (the tenant owning the business number it was sent to).
 */
export type InboundOrg = string | ((message: InboundMessage) => string);

/**
 * Stores a delivery's messages, each for its org (the tenant that owns the
 * business number it was sent to). Runs as the connecting role.
 *
 * @throws the database's error when it failed for another reason than a message's content.
 */
export async function storeInbound(
  db: Queryable,
  orgId: InboundOrg,
  messages: readonly InboundMessage[],
  options: { log?: Logger } = {},
): Promise<StoredDelivery> {
  if (!messages.length) return { stored: [], skipped: [] };
  try {
    return { stored: await insert(db, orgId, messages), skipped: [] };
  } catch (error) {
    if (messages.length === 1 && !isDataError(error)) throw error;
  }
  // One by one: only the message that cannot be stored is lost.
  const out: StoredDelivery = { stored: [], skipped: [] };
  for (const message of messages) {
    try {
      out.stored.push(...await insert(db, orgId, [message]));
    } catch (error) {
      if (!isDataError(error)) throw error;
      options.log?.error("wa_inbound_unstorable", {
        wamid: message.wamid,
        code: (error as { code?: string }).code,
        error: String(error).slice(0, 300),
      });
      out.skipped.push(message.wamid);
    }
  }
  return out;
}

async function insert(
  db: Queryable,
  orgId: InboundOrg,
  messages: readonly InboundMessage[],
): Promise<string[]> {
  const orgOf = typeof orgId === "string" ? () => orgId : orgId;
  const rows = await db.query<{ wamid: string }>(STORE_SQL, [
    messages.map((message) => ({
      wamid: message.wamid,
      org_id: orgOf(message),
      phone_number_id: message.phoneNumberId,
      from_wa_id: message.from,
      profile_name: message.profileName ?? null,
      type: message.content.kind,
      message: message.raw,
      context_wamid: message.contextWamid ?? null,
      sent_at: message.sentAt.toISOString(),
      flags: message.flags ?? [],
      raw_payload: message.rawJson ?? null,
    })),
  ]);
  return rows.map((row) => row.wamid);
}
