/**
 * Who is writing: a WhatsApp sender becomes (or already is) a user, a
 * customer of the org that owns the business number, with one open
 * conversation. Meta's signature vouches for the number, so the webhook may
 * then act as that user.
 *
 * @module
 */
import type { Database } from "@shared/db/types.ts";

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

/** Finds or creates the user, membership and open conversation for a sender. */
export async function resolveWhatsAppUser(
  db: Database,
  input: { orgId: string; waId: string; profileName?: string },
): Promise<WhatsAppUser> {
  const phone = `+${input.waId}`;
  return await db.transaction(async (tx) => {
    // Serialise first contact per number, so two racing deliveries create one user.
    await tx.query("select pg_advisory_xact_lock(hashtext($1))", [phone]);
    let [profile] = await tx.query<{ id: string; locale: "en" | "rw" | "fr" }>(
      "select id, locale from public.profiles where phone = $1",
      [phone],
    );
    if (!profile) {
      [profile] = await tx.query<{ id: string; locale: "en" | "rw" | "fr" }>(
        `with u as (insert into auth.users (id, phone) values (gen_random_uuid(), $1) returning id)
         insert into public.profiles (id, phone, display_name)
         select id, $2, $3 from u
         returning id, locale`,
        [input.waId, phone, input.profileName?.slice(0, 200) ?? null],
      );
    }
    await tx.query(
      `insert into public.org_members (org_id, user_id, role) values ($1, $2, 'customer')
       on conflict do nothing`,
      [input.orgId, profile.id],
    );
    await tx.query(
      `insert into public.conversations (org_id, user_id, channel)
       values ($1, $2, 'whatsapp')
       on conflict (org_id, user_id) where channel = 'whatsapp' and status <> 'closed' do nothing`,
      [input.orgId, profile.id],
    );
    const [conversation] = await tx.query<
      { id: string; state: Record<string, unknown>; status: string }
    >(
      `select id, state, status from public.conversations
       where org_id = $1 and user_id = $2 and channel = 'whatsapp' and status <> 'closed'`,
      [input.orgId, profile.id],
    );
    return {
      userId: profile.id,
      phone,
      locale: profile.locale,
      conversationId: conversation.id,
      state: conversation.state,
      handedOff: conversation.status === "handoff",
    };
  });
}
