/**
 * `notify_staff`: raises a staff ticket in the Admin Inbox and, for the
 * `slack` and `sms` channels (and every urgent ticket), sends it there too.
 *
 * @module
 */
import { z } from "zod";
import { id, isoDuration, slug, text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool, type ExecutionContext } from "@shared/registry/define_tool.ts";
import { languageFromLocale, phraseBook } from "@shared/contract/language.ts";
import { STAFF_NOTIFIER } from "./staff_notifier.ts";
import { queueWaitSeconds } from "@shared/capabilities/staff_queue/mod.ts";

const PRIORITIES = ["low", "medium", "high", "urgent"] as const;
type Priority = typeof PRIORITIES[number];

const input = z.object({
  channel: z.enum(["inbox", "slack", "sms"]).describe(
    "Where staff are told: the Admin Inbox always; slack or sms as well.",
  ),
  payload: z.object({
    convo_id: id().optional().describe(
      "The conversation to hand over; defaults to the call's.",
    ),
    reason: text({ min: 1, max: 200 }).describe(
      "Short reason, e.g. 'user asked for a person'.",
    ),
    summary: text({ min: 1, max: 2000, multiline: true }).describe(
      "What staff need to know, in a few lines.",
    ),
    priority: z.enum(PRIORITIES).default("medium"),
    agent_id: slug({ max: 100 }).optional().describe(
      "The agent the person was with; defaults to the calling agent.",
    ),
    language: z.enum(["en", "rw", "fr"]).optional().describe(
      "The language the person writes in; defaults to their profile's.",
    ),
  }),
});

const emergencyNumber = z.object({
  service: z.string().describe("e.g. police, ambulance, fire"),
  number: z.string().describe("What to dial, e.g. 112"),
});

const output = z.object({
  ticket_id: z.uuid(),
  estimated_response_time: isoDuration().describe("ISO 8601 duration, e.g. PT15M."),
  queue_position: z.number().int().min(1).optional().describe(
    "The ticket's place in the org's queue (1 = next), while it waits.",
  ),
  emergency_numbers: z.array(emergencyNumber).optional().describe(
    "For an urgent ticket: the org's emergency numbers, to give the person now.",
  ),
});

// What staff read on a ticket, in the org's own language (its first), whoever raised it.
const sayToStaff = phraseBook({
  earlier: { en: "Earlier: {said}", rw: "Mbere yaho: {said}", fr: "Auparavant : {said}" },
});

/** ISO 8601 duration in whole minutes (at least one). */
export function isoMinutes(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `PT${hours ? `${hours}H` : ""}${rest || !hours ? `${rest}M` : ""}`;
}

/** The `notify_staff` tool. */
export const notifyStaff = defineTool({
  name: "notify_staff",
  title: "Notify staff",
  description:
    "Hand the conversation to a person: creates a ticket in the Admin Inbox (and Slack/SMS when " +
    "asked, or when urgent) and says how soon staff usually answer.",
  category: "messaging",
  input,
  output,
  examples: [{
    description: "The user asked to talk to a person",
    input: {
      channel: "inbox",
      payload: { reason: "user asked for a person", summary: "Wants to change an order" },
    },
    output: { ticket_id: "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d", estimated_response_time: "PT15M" },
  }],
  sideEffects: "writes.ticket",
  auth: "user",
  openWorld: true,
  latencyBudgetMs: 400,
  // Staff are people: a customer raises a few tickets, not one a minute.
  rateLimit: { perUser: { limit: 10, windowSec: 600 } },
  async execute(args, ctx) {
    const convoId = args.payload.convo_id ?? ctx.convo_id;
    if (convoId) {
      // Read as the caller: a customer sees only their own conversations, staff their org's.
      // Another org's, another customer's and a missing one answer alike, revealing nothing.
      const [visible] = await ctx.db.query(
        "select 1 from public.conversations where id = $1 and org_id = $2",
        [convoId, ctx.org_id],
      );
      if (!visible) {
        const field = args.payload.convo_id ? "payload.convo_id" : "context.convo_id";
        throw new ToolFailure("NOT_FOUND", `${field}: no such conversation`);
      }
    }
    // One request is one ticket: more said about a request staff have not resolved (the name
    // for a proforma asked just before) is added to its ticket. Urgent tickets, and those sent
    // beyond the Inbox, are always raised anew, so nobody is told of a danger once too few.
    if (convoId && args.channel === "inbox" && args.payload.priority !== "urgent") {
      const [added] = await ctx.db.query<{ id: string | null }>(
        "select private.add_to_open_ticket($1, $2, $3) as id",
        [convoId, args.payload.reason, args.payload.summary],
      );
      if (added?.id) return await queueAnswer(ctx, added.id, args.payload.priority, false);
    }
    // What the person said before this turn (the current message is not stored yet): staff
    // read what they need without opening the transcript.
    const earlier = convoId
      ? await ctx.db.query<{ body: string }>(
        `select body from public.messages
         where conversation_id = $1 and direction = 'inbound' and sender = 'user'
           and coalesce(body, '') <> ''
         order by created_at desc, seq desc limit 3`,
        [convoId],
      )
      : [];
    const said = earlier.reverse().map((row) => `«${row.body.slice(0, 300)}»`).join(" ");
    let summary = args.payload.summary;
    if (said && !summary.includes(earlier.at(-1)!.body)) {
      const [org] = await ctx.db.query<{ language: string | null }>(
        "select languages[1] as language from public.orgs where id = $1",
        [ctx.org_id],
      );
      const staffLanguage = languageFromLocale(org?.language);
      summary = `${summary}\n${sayToStaff("earlier", staffLanguage, { said })}`.slice(0, 2000);
    }
    const [ticket] = await ctx.db.query<{ id: string }>(
      `insert into public.staff_tickets
         (org_id, convo_id, requester_user_id, channel, reason, summary, priority, trace_id,
          agent_id, language)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9,
               coalesce($10, (select locale from public.profiles where id = $3)))
       returning id`,
      [
        ctx.org_id,
        convoId,
        ctx.user_id,
        args.channel,
        args.payload.reason,
        summary,
        args.payload.priority,
        ctx.trace_id,
        args.payload.agent_id ?? ctx.agent_id ?? null,
        args.payload.language ?? null,
      ],
    );
    if (!ticket) throw new ToolFailure("AUTH_ERROR");
    const urgent = args.payload.priority === "urgent";
    const text = `[${args.payload.priority}] ${args.payload.reason}: ${summary}`;
    const message = { org_id: ctx.org_id!, ticket_id: ticket.id, text, urgent };
    const notifier = ctx.services.get(STAFF_NOTIFIER);
    if (args.channel === "slack" || urgent) await notifier.send("slack", message, ctx.db);
    if (args.channel === "sms" || urgent) await notifier.send("sms", message, ctx.db);

    return await queueAnswer(ctx, ticket.id, args.payload.priority, urgent);
  },
});

// The ticket, with the wait before staff answer it and, when urgent, the org's emergency numbers.
async function queueAnswer(
  ctx: Pick<ExecutionContext, "db" | "org_id">,
  ticketId: string,
  priority: Priority,
  urgent: boolean,
): Promise<z.input<typeof output>> {
  const [stats] = await ctx.db.query<
    { open_ahead: number; median_handling_sec: number; staff_count: number }
  >("select * from private.ticket_queue_stats($1, $2)", [ctx.org_id, priority]);
  const [place] = await ctx.db.query<{ position: number | null }>(
    "select private.ticket_queue_position($1) as position",
    [ticketId],
  );
  // The queue's own rule: what is said now is what the queue repeats while they wait.
  const wait = queueWaitSeconds({
    position: place?.position,
    medianHandlingSec: stats?.median_handling_sec,
    staffCount: stats?.staff_count,
    priority,
  });
  // Tenants are data: the numbers are the org's own (none set, none said).
  const [org] = urgent
    ? await ctx.db.query<{ emergency_numbers: { service: string; number: string }[] }>(
      "select emergency_numbers from public.orgs where id = $1",
      [ctx.org_id],
    )
    : [];
  return {
    ticket_id: ticketId,
    estimated_response_time: isoMinutes(wait),
    ...(place?.position ? { queue_position: place.position } : {}),
    ...(org?.emergency_numbers?.length ? { emergency_numbers: org.emergency_numbers } : {}),
  };
}
