/**
 * Landlords and agents as the property pack's counterparts: the notice of a
 * new viewing carries a "Cancel viewing" button, and the host tapping it
 * cancels that viewing (`property_host_cancel`, as the service, which checks
 * the sender is the viewing's host by their phone); the sweep then tells the
 * renter, and the host is answered in their language.
 *
 * Narrow on purpose: only that button, from the host of the viewing it
 * names. A landlord who is also looking for a home still reaches the
 * Property agent.
 *
 * @module
 */
import { z } from "zod";
import { id, ToolFailure } from "@shared/contract/mod.ts";
import { languageFromLocale } from "@shared/contract/language.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { MESSAGING, textOut } from "@shared/capabilities/messaging/port.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import type { Counterpart, CounterpartMessage } from "@shared/registry/pack.ts";
import { member } from "./member.ts";
import { phrase } from "./texts.ts";

const CANCEL = /^pviewing:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):cancel$/;

/** The choice id of a host's "Cancel viewing" button. */
export function hostCancelChoice(viewingId: string): string {
  return `pviewing:${viewingId}:cancel`;
}

/** The viewing a host's tap names, if the message is one. */
function tappedViewing(message: CounterpartMessage): string | null {
  return CANCEL.exec(message.choice ?? "")?.[1] ?? null;
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
    const viewingId = tappedViewing(message);
    if (!viewingId) return;
    await callTool(propertyHostCancel.name, {
      event_id: viewingId,
      host_phone: `+${message.from}`,
      reply_key: message.wamid,
    }, "property_host_cancel");
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
    host_phone: z.string().regex(/^\+[1-9][0-9]{7,14}$/),
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
