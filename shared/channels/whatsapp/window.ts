/**
 * The 24-hour customer-service window. Each message a user sends opens (or
 * resets) a window of 24 hours in which free-form messages may be sent to
 * them; outside it only approved templates are delivered. Our own messages
 * never reset it. `public.wa_contacts.last_inbound_at` holds the start of
 * each contact's current window.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import { isWaId } from "@shared/contract/wa_id.ts";
import { isUuid } from "@shared/contract/uuid.ts";

/** The window's length: 24 hours, in milliseconds. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** What {@link recordInbound} records. */
export interface RecordInboundOptions {
  /** The sender (the webhook's `messages[].from`). */
  waId: string;
  /** The org whose number received it; kept from the first message when the contact exists. */
  orgId: string;
  /** The sender's WhatsApp profile name (`contacts[].profile.name`). */
  profileName?: string;
  /** When the user sent it (the webhook's `timestamp`, unix seconds × 1000). */
  at: Date;
  /** The business number it was sent to (Meta's phone-number id): replies leave from it. */
  phoneNumberId?: string;
}

/**
 * Records an inbound message's effect on its sender's window: upserts
 * `public.wa_contacts` so `last_inbound_at` only moves forward (an old
 * message re-delivered late never shortens the window) and the profile name
 * follows the newest message.
 *
 * Runs on `tx` as given: the connecting role or `service_role` (the table's
 * RLS has only a staff select policy, so `authenticated` cannot write).
 *
 * @param tx The webhook's transaction or connection.
 * @param options Sender, org, profile name and time.
 * @returns The contact's `last_inbound_at` after the update.
 * @throws {TypeError} When `waId`, `orgId` or `at` is malformed.
 *
 * @example In the webhook, for each `messages[]` item
 * ```ts ignore
 * await recordInbound(tx, {
 *   waId: message.from,
 *   orgId,
 *   profileName: contact?.profile?.name,
 *   at: new Date(Number(message.timestamp) * 1000),
 * });
 * ```
 */
export async function recordInbound(tx: Queryable, options: RecordInboundOptions): Promise<Date> {
  const { waId, orgId, profileName, at } = options;
  if (!isWaId(waId)) {
    throw new TypeError(
      `Cannot record the inbound message as waId must be 6 to 15 digits: current value is ${
        JSON.stringify(waId)
      }`,
    );
  }
  if (!isUuid(orgId)) {
    throw new TypeError(
      `Cannot record the inbound message as orgId must be a uuid: current value is ${
        JSON.stringify(orgId)
      }`,
    );
  }
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new TypeError("Cannot record the inbound message as at must be a valid Date");
  }
  const [row] = await tx.query<{ last_inbound_at: Date | string }>(
    `${
      windowUpsertSql(
        "(values ($1::text, $2::uuid, $3::text, $4::timestamptz, $5::text)) " +
          "as v(wa_id, org_id, profile_name, last_inbound_at, phone_number_id)",
      )
    } returning c.last_inbound_at`,
    [waId, orgId, profileName ?? null, at, options.phoneNumberId ?? null],
  );
  return new Date(row.last_inbound_at);
}

/**
 * The one statement that moves 24-hour windows forward, over `source`: a
 * relation (a code constant, never input) with columns `wa_id, org_id,
 * profile_name, last_inbound_at, phone_number_id`. `last_inbound_at` only
 * moves forward; the profile name and the business number written to follow
 * the newest message. The webhook runs it for a whole delivery,
 * {@link recordInbound} for one.
 */
export function windowUpsertSql(source: string): string {
  return `insert into public.wa_contacts as c
      (wa_id, org_id, profile_name, last_inbound_at, phone_number_id)
    select wa_id, org_id, profile_name, last_inbound_at, phone_number_id from ${source} where true
    on conflict (org_id, wa_id) do update set
      profile_name = case
        when excluded.last_inbound_at >= coalesce(c.last_inbound_at, '-infinity')
          then coalesce(excluded.profile_name, c.profile_name)
        else coalesce(c.profile_name, excluded.profile_name)
      end,
      phone_number_id = case
        when excluded.last_inbound_at >= coalesce(c.last_inbound_at, '-infinity')
          then coalesce(excluded.phone_number_id, c.phone_number_id)
        else coalesce(c.phone_number_id, excluded.phone_number_id)
      end,
      last_inbound_at = greatest(c.last_inbound_at, excluded.last_inbound_at)`;
}

/**
 * Whether free-form messages may be sent: the last inbound message is less
 * than 24 hours old at `now`.
 *
 * @param lastInboundAt When the user last wrote; absent when they never did.
 * @param now The time to judge at.
 * @returns True inside the window.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isWindowOpen } from "./window.ts";
 *
 * const now = new Date("2026-11-22T12:00:00Z");
 * assert.equal(isWindowOpen(new Date("2026-11-22T08:00:00Z"), now), true);
 * assert.equal(isWindowOpen(new Date("2026-11-21T11:59:59Z"), now), false);
 * assert.equal(isWindowOpen(null, now), false);
 * ```
 */
export function isWindowOpen(
  lastInboundAt: Date | string | null | undefined,
  now: Date,
): boolean {
  if (lastInboundAt === null || lastInboundAt === undefined) return false;
  const last = new Date(lastInboundAt).getTime();
  if (Number.isNaN(last)) return false;
  return now.getTime() - last < WINDOW_MS;
}
