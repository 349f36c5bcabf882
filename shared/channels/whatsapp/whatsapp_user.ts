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
