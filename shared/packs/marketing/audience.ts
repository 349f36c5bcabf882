/**
 * Who a campaign reaches: the org's people with opt-in proof (when, how,
 * the text they agreed to) and no opt-out since, who have a phone, narrowed
 * by the audience's filters. `broadcast_schedule` counts them
 * (`estimated_reach`) and the sender queues exactly them, from one query.
 *
 * @module
 */
import { z } from "zod";
import { LANGUAGES } from "@shared/contract/language.ts";

/** A campaign's audience, as staff give it. */
export const audienceSchema = z.strictObject({
  segment: z.enum(["opted_in"]).default("opted_in").describe(
    "Who may be reached: only people with opt-in proof and no opt-out (the only segment).",
  ),
  filters: z.strictObject({
    language: z.enum(LANGUAGES).optional().describe("Only people whose language is this one."),
  }).optional().describe("Narrows the segment."),
}).describe("Who receives it.");

/** An audience after parsing. */
export type Audience = z.output<typeof audienceSchema>;

/**
 * The eligible people of org `$1` for the language filter `$2` (null: any):
 * columns `user_id`, `phone`. Join or count it; it reads under RLS as staff.
 */
export const ELIGIBLE_SQL = `
  select i.user_id, p.phone
  from public.marketing_opt_ins i
  join public.profiles p on p.id = i.user_id
  where i.org_id = $1 and i.opted_out_at is null and p.phone is not null
    and ($2::text is null or p.locale = $2::text)
    and not exists (
      select 1 from public.marketing_opt_outs o
      where o.org_id = i.org_id and o.user_id = i.user_id and o.opted_out_at >= i.opted_in_at)`;

/** The language filter of an audience, as `$2` of {@link ELIGIBLE_SQL}. */
export function languageFilter(audience: Audience): string | null {
  return audience.filters?.language ?? null;
}
