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
export async function resolveWhatsAppUser(
  db: Queryable,
  input: { orgId: string; waId: string; profileName?: string },
): Promise<WhatsAppUser> {
  const [row] = await db.query<{
    user_id: string;
    locale: "en" | "rw" | "fr";
    conversation_id: string;
    state: Record<string, unknown>;
    status: string;
  }>(
    "select user_id, locale, conversation_id, state, status from private.resolve_whatsapp_user($1, $2, $3)",
    [input.orgId, input.waId, input.profileName ?? null],
  );
  return {
    userId: row.user_id,
    phone: `+${input.waId}`,
    locale: row.locale,
    conversationId: row.conversation_id,
    state: row.state,
    handedOff: row.status === "handoff",
  };
}

/**
 * The org's staff member writing from a number the org registered for them
 * (`private.resolve_whatsapp_staff`), with their open conversation; null
 * when the number is not registered in this org, or its member is no longer
 * staff there (then the sender is a customer, as anyone else).
 */
export async function resolveWhatsAppStaff(
  db: Queryable,
  input: { orgId: string; waId: string },
): Promise<WhatsAppUser | null> {
  const [row] = await db.query<{
    user_id: string;
    locale: "en" | "rw" | "fr";
    conversation_id: string;
    state: Record<string, unknown>;
  }>(
    "select user_id, locale, conversation_id, state from private.resolve_whatsapp_staff($1, $2)",
    [input.orgId, input.waId],
  );
  if (!row) return null;
  return {
    userId: row.user_id,
    phone: `+${input.waId}`,
    locale: row.locale,
    conversationId: row.conversation_id,
    state: row.state,
    // Staff are never in their own org's queue: a staff conversation is never handed off.
    handedOff: false,
    staff: true,
  };
}
