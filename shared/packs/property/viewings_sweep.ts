/**
 * `property_viewings_sweep`: the property pack's periodic work, called by the
 * platform's sweep as the service of each tenant (`Pack.sweeps`), on the
 * injected clock.
 *
 * 1. Tells the other side of every viewing change not yet told, in their
 *    language: the host of a booking, a move or a cancellation by the renter;
 *    the renter of a move or a cancellation by the host or staff. A change
 *    bumps the viewing's `version`; a notice is keyed by it, so a retried
 *    sweep sends nothing twice.
 * 2. Reminds both of a viewing starting within {@link REMINDER_HOURS} hours,
 *    once per time it is at (moving it re-arms the reminder); the renter's
 *    reminder repeats the address, which their booking already revealed.
 *
 * Renters' tools cannot message anyone (the outbox is the service's), which
 * is why the notices leave from here.
 *
 * @module
 */
import { z } from "zod";
import { type Language, languageFromLocale } from "@shared/contract/language.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { MESSAGING, textOut } from "@shared/capabilities/messaging/port.ts";
import { defineTool, type ExecutionContext } from "@shared/registry/define_tool.ts";
import { member } from "./member.ts";
import { phrase } from "./texts.ts";

/** How long before a viewing its reminder goes out. */
export const REMINDER_HOURS = 24;

interface Change {
  id: string;
  title: string;
  name: string;
  phone: string;
  status: "booked" | "cancelled";
  changed_by: "renter" | "host" | "staff";
  starts_at: Date | string;
  previous_starts_at: Date | string | null;
  version: number;
  host_phone: string | null;
  host_locale: string;
  renter_locale: string | null;
  address: string | null;
  contact_name: string | null;
  contact_phone: string | null;
}

const SELECT_VIEWING = `select v.id, l.title, v.name, v.phone, v.status, v.changed_by, v.starts_at,
    v.previous_starts_at, v.version, h.phone as host_phone, h.locale as host_locale,
    r.locale as renter_locale, a.address, a.contact_name, a.contact_phone
  from public.property_viewings v
  join public.property_listings l on l.id = v.listing_id
  join public.profiles h on h.id = v.host_id
  left join public.profiles r on r.id = v.renter_id
  left join public.property_listing_addresses a on a.listing_id = v.listing_id`;

function at(value: Date | string, language: Language): string {
  return formatKigaliDate(new Date(value), language, { time: true });
}

/** The notices one change gives: to whom, and what, in their language. */
function notices(change: Change): Array<{ to: string; side: string; text: string }> {
  const host = languageFromLocale(change.host_locale);
  const renter = languageFromLocale(change.renter_locale);
  const facts = (language: Language) => ({
    title: change.title,
    name: change.name,
    phone: change.phone,
    when: at(change.starts_at, language),
    from: change.previous_starts_at ? at(change.previous_starts_at, language) : "",
  });
  const toHost = (key: "hostBooked" | "hostMoved" | "hostCancelled") =>
    change.host_phone
      ? [{ to: change.host_phone, side: "host", text: phrase(key, host, facts(host)) }]
      : [];
  const toRenter = (key: "renterMoved" | "renterCancelled") => [
    { to: change.phone, side: "renter", text: phrase(key, renter, facts(renter)) },
  ];
  const byRenter = change.changed_by === "renter";
  if (change.status === "cancelled") {
    return byRenter ? toHost("hostCancelled") : [
      ...toRenter("renterCancelled"),
      ...(change.changed_by === "staff" ? toHost("hostCancelled") : []),
    ];
  }
  if (change.previous_starts_at) {
    return byRenter ? toHost("hostMoved") : [
      ...toRenter("renterMoved"),
      ...(change.changed_by === "staff" ? toHost("hostMoved") : []),
    ];
  }
  return toHost("hostBooked");
}

async function send(ctx: ExecutionContext, to: string, text: string, key: string): Promise<void> {
  await ctx.services.get(MESSAGING).send(ctx.db, {
    orgId: member(ctx, { service: true }).orgId,
    to,
    message: textOut(text),
    idempotencyKey: key,
  });
}

/** The `property_viewings_sweep` tool. */
export const propertyViewingsSweep = defineTool({
  name: "property_viewings_sweep",
  title: "Viewing notices and reminders",
  description: "Tells each side of a property viewing what the other changed, and reminds " +
    "both the day before. Run by the platform's sweep.",
  category: "property",
  input: z.object({}),
  output: z.object({ told: z.int(), reminded: z.int() }),
  examples: [{ input: {} }],
  sideEffects: "writes.message",
  auth: "service",
  internal: true,
  openWorld: true,
  async execute(_args, ctx) {
    const { orgId } = member(ctx, { service: true });
    const now = ctx.services.now();
    const changes = await ctx.db.query<Change>(
      `${SELECT_VIEWING}
       where v.org_id = $1 and v.told_version < v.version
       order by v.created_at limit 100
       for update of v skip locked`,
      [orgId],
    );
    for (const change of changes) {
      for (const notice of notices(change)) {
        await send(
          ctx,
          notice.to,
          notice.text,
          `property_viewing:${change.id}:v${change.version}:${notice.side}`,
        );
      }
      await ctx.db.query(
        "update public.property_viewings set told_version = $2 where id = $1",
        [change.id, change.version],
      );
    }
    const due = await ctx.db.query<Change>(
      `${SELECT_VIEWING}
       where v.org_id = $1 and v.status = 'booked' and v.reminded_at is null
         and v.starts_at > $2 and v.starts_at <= $3
       order by v.starts_at limit 100
       for update of v skip locked`,
      [orgId, now.toISOString(), new Date(now.getTime() + REMINDER_HOURS * 3_600_000)],
    );
    for (const viewing of due) {
      const renter = languageFromLocale(viewing.renter_locale);
      const host = languageFromLocale(viewing.host_locale);
      const key = `property_viewing:${viewing.id}:remind:${
        new Date(viewing.starts_at).toISOString()
      }`;
      await send(
        ctx,
        viewing.phone,
        phrase("remindRenter", renter, {
          title: viewing.title,
          when: at(viewing.starts_at, renter),
          address: viewing.address ?? "",
          contact: `${viewing.contact_name ?? ""}, ${viewing.contact_phone ?? ""}`,
        }),
        `${key}:renter`,
      );
      if (viewing.host_phone) {
        await send(
          ctx,
          viewing.host_phone,
          phrase("remindHost", host, {
            title: viewing.title,
            when: at(viewing.starts_at, host),
            name: viewing.name,
            phone: viewing.phone,
          }),
          `${key}:host`,
        );
      }
      await ctx.db.query(
        "update public.property_viewings set reminded_at = $2 where id = $1",
        [viewing.id, now.toISOString()],
      );
    }
    return { told: changes.length, reminded: due.length };
  },
});
