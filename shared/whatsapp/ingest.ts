/**
 * Stores inbound messages before the webhook answers 200: one statement
 * inserts every message of the delivery (deduplicated atomically by wamid)
 * and moves each sender's 24-hour window forward. It returns the wamids that
 * are new, which are the only ones to process.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { InboundMessage } from "./inbound.ts";
import { windowUpsertSql } from "./window.ts";

// Each sender's newest message in the delivery: it sets their window.
const LATEST_PER_SENDER = `(
  select distinct on (from_wa_id) from_wa_id as wa_id, $2::uuid as org_id, profile_name,
         sent_at as last_inbound_at
  from incoming order by from_wa_id, sent_at desc) as latest`;

const STORE_SQL = `
  with incoming as (
    select * from jsonb_to_recordset($1::jsonb) as m(
      wamid text, phone_number_id text, from_wa_id text, profile_name text, type text,
      message jsonb, context_wamid text, sent_at timestamptz)
  ), stored as (
    insert into private.wa_inbound
      (wamid, phone_number_id, from_wa_id, profile_name, type, message, context_wamid, sent_at)
    select wamid, phone_number_id, from_wa_id, profile_name, type, message, context_wamid, sent_at
    from incoming
    on conflict (wamid) do nothing
    returning wamid
  ), windows as (${windowUpsertSql(LATEST_PER_SENDER)})
  select wamid from stored`;

/**
 * Stores a delivery's messages for `orgId` (the org that owns the business
 * number). Runs as the connecting role. Returns the newly stored wamids.
 */
export async function storeInbound(
  db: Queryable,
  orgId: string,
  messages: readonly InboundMessage[],
): Promise<string[]> {
  if (!messages.length) return [];
  const rows = await db.query<{ wamid: string }>(STORE_SQL, [
    messages.map((message) => ({
      wamid: message.wamid,
      phone_number_id: message.phoneNumberId,
      from_wa_id: message.from,
      profile_name: message.profileName ?? null,
      type: message.content.kind,
      message: message.raw,
      context_wamid: message.contextWamid ?? null,
      sent_at: message.sentAt.toISOString(),
    })),
    orgId,
  ]);
  return rows.map((row) => row.wamid);
}
