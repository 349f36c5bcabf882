/**
 * Opt-out on WhatsApp: "STOP", "HAGARIKA", "ARRÊT" and their variants take
 * effect the moment they arrive, for every tenant, before any routing. The
 * pack's counterpart claims such a message (the channel offers it every
 * inbound message before the conversation, after the counterparts answering
 * something open, such as a driver's "stop") and `marketing_opt_out`
 * logs it, ends the person's opt-in (whose trigger withdraws their messages
 * still queued, campaigns already sending included) and acknowledges it in
 * the person's language: the words' own, else the one they chose.
 *
 * @module
 */
import { z } from "zod";
import { text, ToolFailure } from "@shared/contract/mod.ts";
import { type Language, languageFromLocale, LANGUAGES } from "@shared/contract/language.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import type { Counterpart } from "@shared/registry/pack.ts";
import { MESSAGING, textOut } from "@shared/capabilities/messaging/mod.ts";
import { readOptOut } from "./opt_out_words.ts";
import { say } from "./texts.ts";

const output = z.object({
  opted_out: z.boolean().describe(
    "False when the sender is no member of the org (nothing to end).",
  ),
  withdrawn: z.number().int().min(0).describe("Their campaign messages withdrawn before leaving."),
  language: z.enum(LANGUAGES).describe("The language they were answered in."),
});

/** The `marketing_opt_out` tool. */
export const marketingOptOut = defineTool({
  name: "marketing_opt_out",
  title: "Record a marketing opt-out",
  description: "Records that a WhatsApp sender asked to stop marketing messages (STOP, " +
    "HAGARIKA, ARRÊT), withdraws their queued campaign messages and acknowledges it in " +
    "their language. Called by the marketing pack's counterpart.",
  category: "marketing",
  input: z.object({
    wa_id: z.string().regex(/^[0-9]{6,15}$/, "must be a WhatsApp id (digits)"),
    said: text({ max: 200 }).describe("What they wrote."),
    language: z.enum(LANGUAGES).optional().describe("The language the words show, if any."),
  }),
  output,
  examples: [{ input: { wa_id: "250788123456", said: "STOP", language: "en" } }],
  sideEffects: "writes.opt_out",
  auth: "service",
  internal: true,
  latencyBudgetMs: 300,
  async execute(args, ctx) {
    const orgId = ctx.org_id;
    if (!orgId) throw new ToolFailure("AUTH_ERROR", "An opt-out belongs to one org");
    const now = ctx.services.now().toISOString();
    const [person] = await ctx.db.query<
      { user_id: string | null; locale: string | null; brand: string }
    >(
      `select m.user_id, p.locale, o.name as brand
       from public.orgs o
       left join public.profiles p on p.phone = '+' || $2::text
       left join public.org_members m on m.org_id = o.id and m.user_id = p.id
       where o.id = $1`,
      [orgId, args.wa_id],
    );
    if (!person) throw new ToolFailure("NOT_FOUND", "Unknown org");
    const language: Language = args.language ?? languageFromLocale(person.locale);
    let withdrawn = 0;
    if (person.user_id) {
      const [queued] = await ctx.db.query<{ n: number }>(
        `select count(*)::int as n from public.broadcast_sends
         where org_id = $1 and user_id = $2 and status = 'queued'`,
        [orgId, person.user_id],
      );
      await ctx.db.query(
        `insert into public.marketing_opt_outs (org_id, user_id, opted_out_at, channel, said)
         values ($1, $2, $3, 'whatsapp', $4)`,
        [orgId, person.user_id, now, args.said],
      );
      // Its trigger withdraws what is still queued for them (private.broadcast_opted_out).
      await ctx.db.query(
        `update public.marketing_opt_ins set opted_out_at = $3
         where org_id = $1 and user_id = $2 and opted_out_at is null`,
        [orgId, person.user_id, now],
      );
      const [left] = await ctx.db.query<{ n: number }>(
        `select count(*)::int as n from public.broadcast_sends
         where org_id = $1 and user_id = $2 and status = 'queued'`,
        [orgId, person.user_id],
      );
      withdrawn = queued.n - left.n;
    }
    await ctx.services.get(MESSAGING).send(ctx.db, {
      orgId,
      to: args.wa_id,
      message: textOut(say("optedOut", language, { brand: person.brand })),
      idempotencyKey: `opt-out:${ctx.idempotency_key}`,
    });
    return { opted_out: person.user_id !== null, withdrawn, language };
  },
});

/**
 * Claims opt-out requests on WhatsApp, before any conversation sees them:
 * "unsubscribe", "désabonner" from anyone; "STOP", "HAGARIKA", "ARRÊT",
 * which also mean "cancel" in conversations, from people whose opt-in to
 * this tenant's marketing is in effect or who have nothing open to cancel
 * (mid-flow, for anyone else, they route as usual).
 */
export const OPT_OUT_COUNTERPART: Counterpart = {
  id: "marketing_opt_out",
  async claims(db, message) {
    const request = message.choice ? null : readOptOut(message.text);
    if (!request) return false;
    if (!request.everyday) return true;
    if (!message.orgId) return false;
    const [optedIn] = await db.query(
      `select 1 from public.marketing_opt_ins i join public.profiles p on p.id = i.user_id
       where i.org_id = $1 and p.phone = '+' || $2::text and i.opted_out_at is null`,
      [message.orgId, message.from],
    );
    // With nothing open to cancel, "STOP" has no everyday meaning left: it is heard as the
    // opt-out it says, never routed as a search ("arret") or a menu ("HAGARIKA" → food).
    return optedIn !== undefined || (await message.idle?.()) === true;
  },
  async handle(message, callTool) {
    const request = readOptOut(message.text);
    await callTool("marketing_opt_out", {
      wa_id: message.from,
      said: message.text.trim().slice(0, 200) || "STOP",
      ...(request?.language ? { language: request.language } : {}),
    }, "opt_out");
  },
};
