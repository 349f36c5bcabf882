/**
 * Landlords and agents as the property pack's counterparts: the notice of a
 * new viewing carries "Move viewing" and "Cancel viewing" buttons. The host
 * tapping Cancel cancels that viewing (`property_host_cancel`); Move answers
 * the listing's free times as a list, and the time tapped moves the viewing
 * (`property_host_move`). Both run as the service and check the sender is
 * the viewing's host by their phone; the sweep then tells the renter, and the
 * host is answered in their language.
 *
 * Narrow on purpose: only that button, from the host of the viewing it
 * names. A landlord who is also looking for a home still reaches the
 * Property agent.
 *
 * @module
 */
import { z } from "zod";
import { e164Phone, id, ToolFailure } from "@shared/contract/mod.ts";
import { languageFromLocale } from "@shared/contract/language.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { listOut, MESSAGING, textOut } from "@shared/capabilities/messaging/port.ts";
import { shortenTitle, TITLE_LIMITS } from "@shared/contract/titles.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import type { Counterpart, CounterpartMessage } from "@shared/registry/pack.ts";
import { member } from "./member.ts";
import { listingSlots, SLOT_DAYS } from "./schedule_viewing.ts";
import { checkSlot, freeSlots } from "./viewing_slots.ts";
import { reminderAt } from "./viewing_reminder.ts";
import { phrase } from "./texts.ts";

const TAP =
  /^pviewing:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(cancel|move|to:(\S{20,40}))$/;

/** The choice id of a host's button: cancel, move, or move to a time (ISO). */
export function hostChoice(viewingId: string, action: "cancel" | "move" | `to:${string}`): string {
  return `pviewing:${viewingId}:${action}`;
}

/** The viewing a host's tap names and what it asks, if the message is one. */
function tapped(
  message: CounterpartMessage,
): { viewingId: string; action: "cancel" | "move" | "to"; when?: string } | null {
  const match = TAP.exec(message.choice ?? "");
  if (!match) return null;
  const action = match[2].startsWith("to:") ? "to" : match[2] as "cancel" | "move";
  return { viewingId: match[1], action, when: match[3] };
}

/** The viewing a host's tap names, if the message is one. */
function tappedViewing(message: CounterpartMessage): string | null {
  return tapped(message)?.viewingId ?? null;
}

/** Whether a message is a host's tap on a viewing of theirs. */
export async function isHostTap(db: Queryable, message: CounterpartMessage): Promise<boolean> {
  const viewingId = tappedViewing(message);
  if (!viewingId) return false;
  const [row] = await db.query(
    `select 1 from public.property_viewings v join public.profiles h on h.id = v.host_id
     where v.id = $1 and h.phone = '+' || $2`,
    [viewingId, message.from],
  );
  return Boolean(row);
}

/** The host counterpart. */
export const HOST_COUNTERPART: Counterpart = {
  id: "property_host",
  claims: isHostTap,
  async handle(message, callTool) {
    const tap = tapped(message);
    if (!tap) return;
    const common = {
      event_id: tap.viewingId,
      host_phone: `+${message.from}`,
      reply_key: message.wamid,
    };
    if (tap.action === "cancel") {
      await callTool(propertyHostCancel.name, common, "property_host_cancel");
    } else {
      await callTool(propertyHostMove.name, { ...common, when: tap.when }, "property_host_move");
    }
  },
};

/** The `property_host_cancel` tool (service only: the host's WhatsApp tap). */
export const propertyHostCancel = defineTool({
  name: "property_host_cancel",
  title: "Host cancels a viewing",
  description: "A landlord or agent cancels a viewing of their listing from WhatsApp; the " +
    "renter is told by the sweep. Service only: the sender's phone must be the host's.",
  category: "property",
  input: z.object({
    event_id: id(),
    host_phone: e164Phone().describe("The host's WhatsApp number."),
    reply_key: z.string().min(1).max(200),
  }),
  output: z.object({ event_id: z.uuid(), status: z.enum(["cancelled", "already_cancelled"]) }),
  examples: [{
    input: {
      event_id: "c1000000-0000-4000-8000-000000000001",
      host_phone: "+250788000201",
      reply_key: "wamid.1",
    },
  }],
  sideEffects: "writes.property_viewing",
  auth: "service",
  internal: true,
  openWorld: true,
  async execute(args, ctx) {
    const { orgId } = member(ctx, { service: true });
    const [viewing] = await ctx.db.query<
      { id: string; status: string; title: string; starts_at: Date | string; locale: string }
    >(
      `select v.id, v.status, l.title, v.starts_at, h.locale
       from public.property_viewings v
       join public.property_listings l on l.id = v.listing_id
       join public.profiles h on h.id = v.host_id
       where v.id = $1 and v.org_id = $2 and h.phone = $3
       for update of v`,
      [args.event_id, orgId, args.host_phone],
    );
    if (!viewing) throw new ToolFailure("NOT_FOUND", "No such viewing of yours");
    const already = viewing.status === "cancelled";
    if (!already) {
      await ctx.db.query(
        `update public.property_viewings
         set status = 'cancelled', cancelled_by = 'host', changed_by = 'host' where id = $1`,
        [viewing.id],
      );
    }
    const language = languageFromLocale(viewing.locale);
    await ctx.services.get(MESSAGING).send(ctx.db, {
      orgId,
      to: args.host_phone,
      message: textOut(phrase(already ? "hostAlreadyCancelled" : "hostYouCancelled", language, {
        title: viewing.title,
        when: formatKigaliDate(new Date(viewing.starts_at), language, { time: true }),
      })),
      idempotencyKey: `property_host_cancel:${args.reply_key}`,
    });
    return {
      event_id: viewing.id,
      status: already ? "already_cancelled" as const : "cancelled" as const,
    };
  },
});

/** The `property_host_move` tool (service only: the host's WhatsApp taps). */
export const propertyHostMove = defineTool({
  name: "property_host_move",
  title: "Host moves a viewing",
  description: "A landlord or agent moves a viewing of their listing from WhatsApp: without " +
    "`when`, they are sent the free times to tap; with it, the viewing moves there and the " +
    "sweep tells the renter. Service only: the sender's phone must be the host's.",
  category: "property",
  input: z.object({
    event_id: id(),
    host_phone: e164Phone().describe("The host's WhatsApp number."),
    when: z.iso.datetime({ offset: true }).optional(),
    reply_key: z.string().min(1).max(200),
  }),
  output: z.object({
    event_id: z.uuid(),
    status: z.enum(["offered", "moved", "refused", "cancelled"]),
    when: z.string().optional(),
  }),
  examples: [{
    input: {
      event_id: "c1000000-0000-4000-8000-000000000001",
      host_phone: "+250788000201",
      reply_key: "wamid.1",
    },
  }],
  sideEffects: "writes.property_viewing",
  auth: "service",
  internal: true,
  openWorld: true,
  async execute(args, ctx) {
    const { orgId } = member(ctx, { service: true });
    const [viewing] = await ctx.db.query<{
      id: string;
      listing_id: string;
      status: string;
      title: string;
      locale: string;
      starts_at: Date | string;
    }>(
      `select v.id, v.listing_id, v.status, l.title, h.locale, v.starts_at
       from public.property_viewings v
       join public.property_listings l on l.id = v.listing_id
       join public.profiles h on h.id = v.host_id
       where v.id = $1 and v.org_id = $2 and h.phone = $3
       for update of v`,
      [args.event_id, orgId, args.host_phone],
    );
    if (!viewing) throw new ToolFailure("NOT_FOUND", "No such viewing of yours");
    const language = languageFromLocale(viewing.locale);
    const messaging = ctx.services.get(MESSAGING);
    const say = (text: string) =>
      messaging.send(ctx.db, {
        orgId,
        to: args.host_phone,
        message: textOut(text),
        idempotencyKey: `property_host_move:${args.reply_key}`,
      });
    if (viewing.status === "cancelled") {
      await say(phrase("hostAlreadyCancelled", language, {
        title: viewing.title,
        when: formatKigaliDate(new Date(viewing.starts_at), language, { time: true }),
      }));
      return { event_id: viewing.id, status: "cancelled" as const };
    }
    const { listing, slots } = await listingSlots(
      ctx.db,
      viewing.listing_id,
      orgId,
      ctx.services.now(),
    );
    const offer = async (lead: string) => {
      const free = freeSlots(slots, { limit: 10, days: SLOT_DAYS });
      await messaging.send(ctx.db, {
        orgId,
        to: args.host_phone,
        message: free.length
          ? listOut({
            text: lead,
            button: phrase("slotButton", language),
            sections: [{
              title: phrase("slotSection", language),
              rows: free.map((slot) => ({
                id: hostChoice(viewing.id, `to:${slot}`),
                title: shortenTitle(
                  formatKigaliDate(slot, language, { time: true, compact: true }),
                  TITLE_LIMITS.row,
                ),
              })),
            }],
          })
          : textOut(phrase("noSlots", language)),
        idempotencyKey: `property_host_move:${args.reply_key}`,
      });
    };
    if (!args.when) {
      await offer(phrase("hostPickTime", language, { title: viewing.title }));
      return { event_id: viewing.id, status: "offered" as const };
    }
    const when = new Date(args.when);
    if (checkSlot(when, slots)) {
      await offer(phrase("slotTaken", language));
      return { event_id: viewing.id, status: "refused" as const };
    }
    await ctx.db.query(
      `update public.property_viewings
       set starts_at = $2, ends_at = $3, reminded_at = null, confirmation_sent_at = null,
           changed_by = 'host', remind_at = $4
       where id = $1`,
      [
        viewing.id,
        when.toISOString(),
        new Date(when.getTime() + listing.viewing_minutes * 60_000).toISOString(),
        reminderAt({ startsAt: when, timedAt: ctx.services.now() })?.toISOString() ?? null,
      ],
    );
    await say(phrase("hostYouMoved", language, {
      title: viewing.title,
      when: formatKigaliDate(when, language, { time: true }),
    }));
    return { event_id: viewing.id, status: "moved" as const, when: when.toISOString() };
  },
});
