/**
 * Fixtures for the marketing pack's tests: approved templates, customers
 * with (or without) opt-in proof, and a confirmed call helper.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";

/**
 * Removes the seed's broadcast templates and opt-in proofs (the dev demo's), so a test's
 * audience and templates are only those it adds.
 */
export async function withoutSeededBroadcasts(db: Queryable): Promise<void> {
  await db.query("delete from public.marketing_opt_ins");
  await db.query("delete from public.broadcast_templates");
}

/** Records a template of `org` with Meta's `status`; returns its id. */
export async function addTemplate(
  db: Queryable,
  org: string,
  template: { name: string; language?: string; variables?: string[]; status?: string },
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `insert into public.broadcast_templates (org_id, name, language, variables, body, meta_status)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [
      org,
      template.name,
      template.language ?? "en",
      template.variables ?? [],
      `Hello {{1}}, ${template.name}`,
      template.status ?? "approved",
    ],
  );
  return row.id;
}

/** One customer of a test audience. */
export interface AudienceMember {
  user: string;
  /** Digits, as WhatsApp writes the number. */
  waId: string;
}

/**
 * Adds `count` customers to `org`, numbered from `first` (+25072…), with
 * opt-in proof when `optedIn` (default true); returns them in id order.
 */
export async function addCustomers(
  db: Queryable,
  org: string,
  options: { count: number; first?: number; optedIn?: boolean; locale?: string; at?: Date },
): Promise<AudienceMember[]> {
  const members: AudienceMember[] = [];
  const first = options.first ?? 1;
  for (let i = first; i < first + options.count; i++) {
    const n = String(i).padStart(4, "0");
    const user = `0b000000-0000-4000-8000-00000000${n}`;
    const waId = `25072000${n}`;
    await db.query("insert into auth.users (id, phone) values ($1, $2)", [user, waId]);
    await db.query(
      "insert into public.profiles (id, phone, display_name, locale) values ($1, $2, $3, $4)",
      [user, `+${waId}`, `Customer ${n}`, options.locale ?? "en"],
    );
    await db.query(
      "insert into public.org_members (org_id, user_id, role) values ($1, $2, 'customer')",
      [org, user],
    );
    if (options.optedIn ?? true) {
      await db.query(
        `insert into public.marketing_opt_ins (org_id, user_id, opted_in_at, channel, agreed_text)
         values ($1, $2, $3, 'whatsapp', 'Yes, send me offers from EasyMO on WhatsApp')`,
        [org, user, (options.at ?? new Date("2026-11-01T10:00:00Z")).toISOString()],
      );
    }
    members.push({ user, waId });
  }
  return members;
}
