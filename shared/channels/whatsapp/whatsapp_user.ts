/**
 * Who is writing: a WhatsApp sender becomes (or already is) a user, a
 * customer of the org that owns the business number, with one open
 * conversation. Meta's signature vouches for the number, so the webhook may
 * then act as that user.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";

/** A WhatsApp sender as the platform knows them. */
export interface WhatsAppUser {
  /** The user id. */
  userId: string;
  /** E.164 phone. */
  phone: string;
  /** Preferred language. */
  locale: "en" | "rw" | "fr";
  /** Their open conversation. */
  conversationId: string;
  /** The conversation's saved state. */
  state: Record<string, unknown>;
  /** Whether staff own the conversation (handlers stay silent). */
  handedOff: boolean;
  /**
   * Whether the sender is one of the org's staff, writing from a number the
   * org registered for them: they act as themselves and reach the staff
   * agents. @default false (a customer)
   */
  staff?: boolean;
}

/**
 * Finds or creates the user, membership and open conversation for a sender,
 * in one statement (`private.resolve_whatsapp_user`): first contact is
 * serialised per number, so two racing deliveries create one user.
 */
export function resolveWhatsAppUser(
  db: Queryable,
  input: { orgId: string; waId: string; profileName?: string },
): Promise<WhatsAppUser> {
  return resolveWith(
    db,
    `select user_id, locale, conversation_id, state, status, false as is_staff
     from private.resolve_whatsapp_user($1, $2, $3)`,
    input,
  );
}

/**
 * Who is writing, in one statement (`private.resolve_whatsapp_sender`): the
 * org's staff member when the number is one the org registered for them and
 * its member is still staff there (they act as themselves, `staff: true`,
 * never handed off), else the customer {@link resolveWhatsAppUser} finds or
 * creates. The same number at another org's business number is a customer
 * there.
 */
export function resolveWhatsAppSender(
  db: Queryable,
  input: { orgId: string; waId: string; profileName?: string },
): Promise<WhatsAppUser> {
  return resolveWith(
    db,
    `select user_id, locale, conversation_id, state, status, is_staff
     from private.resolve_whatsapp_sender($1, $2, $3)`,
    input,
  );
}

// Both resolvers' one row, read the same way.
async function resolveWith(
  db: Queryable,
  sql: string,
  input: { orgId: string; waId: string; profileName?: string },
): Promise<WhatsAppUser> {
  const [row] = await db.query<{
    user_id: string;
    locale: "en" | "rw" | "fr";
    conversation_id: string;
    state: Record<string, unknown>;
    status: string;
    is_staff: boolean;
  }>(sql, [input.orgId, input.waId, input.profileName ?? null]);
  return {
    userId: row.user_id,
    phone: `+${input.waId}`,
    locale: row.locale,
    conversationId: row.conversation_id,
    state: row.state,
    // Staff are never in their own org's queue: a staff conversation is never handed off.
    handedOff: !row.is_staff && row.status === "handoff",
    ...(row.is_staff ? { staff: true } : {}),
  };
}
