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
 * 2. Reminds both of a viewing at its `remind_at`, set when it was booked or
 *    moved (./viewing_reminder.ts: the day before, a couple of hours before
 *    for one booked the same day, never right after the confirmation), once
 *    per time it is at (moving it re-arms the reminder); the renter's
 *    reminder repeats the address, which their booking already revealed.
 * 3. Tells a landlord their listing was published or rejected (with the
 *    reason), once per decision.
 * 4. Sends the renter their viewing confirmation as a PDF, rendered from the
 *    `viewing_confirmation` template (the one `generate_pdf` renders) in
 *    their language and kept in Storage, once per time the viewing is at.
 *    The PDFs are rendered and stored in `prepare`, before the transaction;
 *    without Storage configured (a laptop with no keys) no PDF is sent and
 *    the chat's confirmation stands alone.
 *
 * Renters' tools cannot message anyone (the outbox is the service's), which
 * is why the notices leave from here.
 *
 * @module
 */
import { z } from "zod";
import { ToolFailure } from "@shared/contract/mod.ts";
import { type Language, languageFromLocale } from "@shared/contract/language.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { renderDocument } from "@shared/capabilities/documents/render_document.ts";
import { storeDocument } from "@shared/capabilities/documents/store_document.ts";
import {
  buttonsOut,
  documentOut,
  MESSAGING,
  templateOut,
  textOut,
} from "@shared/capabilities/messaging/port.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import {
  defineTool,
  type ExecutionContext,
  type PrepareContext,
} from "@shared/registry/define_tool.ts";
import { hostChoice } from "./host_counterpart.ts";
import { member } from "./member.ts";
import { listingName, phrase } from "./texts.ts";

interface Change {
  id: string;
  title: string;
  bedrooms: number;
  area: string;
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

const SELECT_VIEWING = `select v.id, l.title, l.bedrooms,
    l.sector || coalesce(', ' || l.cell, '') as area, v.name, v.phone, v.status, v.changed_by, v.starts_at,
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
/** One notice of a change: to whom, what, and for a host, the approved template it falls back to. */
interface Notice {
  to: string;
  side: string;
  text: string;
  language: Language;
  manage?: boolean;
  fallback?: HostTemplate;
}

/**
 * The approved templates a host notice falls back to outside WhatsApp's
 * 24-hour window (a landlord who has not written for a day): the same facts
 * as parameters, in order, and for a booking or a move the same move/cancel
 * quick replies (docs/whatsapp_templates.md).
 */
export const HOST_TEMPLATES = {
  hostBooked: "property_viewing_booked",
  hostMoved: "property_viewing_moved",
  hostCancelled: "property_viewing_cancelled",
} as const;

interface HostTemplate {
  name: typeof HOST_TEMPLATES[keyof typeof HOST_TEMPLATES];
  parameters: string[];
}

function notices(change: Change): Notice[] {
  const host = languageFromLocale(change.host_locale);
  const renter = languageFromLocale(change.renter_locale);
  // The host reads their listing by the title they gave it; the renter by its facts.
  const facts = (language: Language, title = change.title) => ({
    title,
    name: change.name,
    phone: change.phone,
    when: at(change.starts_at, language),
    from: change.previous_starts_at ? at(change.previous_starts_at, language) : "",
  });
  // A booked or moved viewing's notice lets the host move or cancel it with one tap.
  const toHost = (key: keyof typeof HOST_TEMPLATES): Notice[] => {
    if (!change.host_phone) return [];
    const said = facts(host);
    // The template's parameters: the phrase's facts, in the approved body's order.
    const parameters = key === "hostBooked"
      ? [said.title, said.when, said.name, said.phone]
      : key === "hostMoved"
      ? [said.title, said.name, said.from, said.when]
      : [said.title, said.when, said.name];
    return [{
      to: change.host_phone,
      side: "host",
      text: phrase(key, host, said),
      language: host,
      manage: key !== "hostCancelled",
      fallback: { name: HOST_TEMPLATES[key], parameters },
    }];
  };
  const toRenter = (key: "renterMoved" | "renterCancelled") => [
    {
      to: change.phone,
      side: "renter",
      text: phrase(key, renter, facts(renter, listingName(change, renter))),
      language: renter,
    },
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

/** How long a confirmation's link lasts: a week. */
const PDF_LINK_SECONDS = 7 * 86_400;

interface Confirmation {
  id: string;
  bedrooms: number;
  area: string;
  price: number;
  name: string;
  phone: string;
  starts_at: Date | string;
  updated: Date | string;
  renter_locale: string | null;
  address: string | null;
  contact_name: string | null;
  contact_phone: string | null;
}

// Booked viewings still to come whose renter has no PDF for their time yet.
const CONFIRMATIONS_SQL =
  `select v.id, l.bedrooms, l.sector || coalesce(', ' || l.cell, '') as area,
    l.price, v.name, v.phone, v.starts_at, v.created_at as updated, r.locale as renter_locale,
    a.address, a.contact_name, a.contact_phone
  from public.property_viewings v
  join public.property_listings l on l.id = v.listing_id
  left join public.profiles r on r.id = v.renter_id
  left join public.property_listing_addresses a on a.listing_id = v.listing_id
  where v.org_id = $1 and v.status = 'booked' and v.confirmation_sent_at is null
    and v.starts_at > $2
  order by v.created_at limit 20`;

interface StoredPdf {
  startsAt: string;
  url: string;
  size: number;
  language: Language;
  title: string;
}

/** Renders and stores the due confirmations; none when Storage is not configured. */
async function prepareConfirmations(ctx: PrepareContext): Promise<Map<string, StoredPdf>> {
  const { orgId } = member(ctx, { service: true });
  const stored = new Map<string, StoredPdf>();
  const rows = await ctx.read.query<Confirmation>(CONFIRMATIONS_SQL, [
    orgId,
    ctx.services.now().toISOString(),
  ]);
  for (const row of rows) {
    if (!row.address || !row.contact_name || !row.contact_phone) continue;
    const language = languageFromLocale(row.renter_locale);
    const startsAt = new Date(row.starts_at).toISOString();
    const document = await renderDocument({
      templateId: "viewing_confirmation",
      language,
      renderPdf: ctx.services.get(PDF_RENDERER),
      data: {
        booking_ref: row.id.slice(0, 8).toUpperCase(),
        title: listingName(row, language),
        area: row.area,
        price: row.price,
        starts_at: startsAt,
        address: row.address,
        contact: `${row.contact_name}, ${row.contact_phone}`,
        renter_name: row.name,
        renter_phone: row.phone,
        issued_at: ctx.services.now().toISOString(),
      },
    });
    try {
      const link = await storeDocument(ctx.services.get(FILE_STORE), {
        orgId,
        document,
        linkSeconds: PDF_LINK_SECONDS,
      });
      stored.set(row.id, {
        startsAt,
        url: link.url,
        size: document.bytes.byteLength,
        language,
        title: listingName(row, language),
      });
    } catch (error) {
      // No Storage here: nothing to link to, this sweep or the next; the chat has the booking.
      if (error instanceof ToolFailure && error.code === "SERVICE_UNAVAILABLE") break;
      throw error;
    }
  }
  return stored;
}

/** The `property_viewings_sweep` tool. */
export const propertyViewingsSweep = defineTool({
  name: "property_viewings_sweep",
  title: "Viewing notices and reminders",
  description: "Tells each side of a property viewing what the other changed, and reminds " +
    "both before it. Run by the platform's sweep.",
  category: "property",
  input: z.object({}),
  output: z.object({
    told: z.int(),
    reminded: z.int(),
    confirmed: z.int(),
    reviews_told: z.int(),
  }),
  examples: [{ input: {} }],
  sideEffects: "writes.message",
  auth: "service",
  internal: true,
  openWorld: true,
  latencyBudgetMs: 2000,
  prepare: (_args, ctx) => prepareConfirmations(ctx),
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
        const choices = notice.manage
          ? [
            { id: hostChoice(change.id, "move"), title: phrase("moveViewing", notice.language) },
            {
              id: hostChoice(change.id, "cancel"),
              title: phrase("cancelViewing", notice.language),
            },
          ]
          : [];
        await ctx.services.get(MESSAGING).send(ctx.db, {
          orgId,
          to: notice.to,
          message: choices.length ? buttonsOut(notice.text, choices) : textOut(notice.text),
          // A landlord who has not written for a day is outside the window: the approved
          // template says the same, and its quick replies answer like the buttons.
          ...(notice.fallback
            ? {
              fallback: templateOut({
                name: notice.fallback.name,
                language: notice.language,
                parameters: notice.fallback.parameters,
                ...(choices.length ? { choiceIds: choices.map((choice) => choice.id) } : {}),
              }),
            }
            : {}),
          idempotencyKey: `property_viewing:${change.id}:v${change.version}:${notice.side}`,
        });
      }
      await ctx.db.query(
        "update public.property_viewings set told_version = $2 where id = $1",
        [change.id, change.version],
      );
    }
    const due = await ctx.db.query<Change>(
      `${SELECT_VIEWING}
       where v.org_id = $1 and v.status = 'booked' and v.reminded_at is null
         and v.remind_at <= $2 and v.starts_at > $2
       order by v.starts_at limit 100
       for update of v skip locked`,
      [orgId, now.toISOString()],
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
        // The renter reads the home named by its facts in their language.
        phrase("remindRenter", renter, {
          title: listingName(viewing, renter),
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
    // Landlords hear of their listing's review once per decision.
    const reviewed = await ctx.db.query<{
      id: string;
      title: string;
      status: "published" | "rejected";
      reject_reason: string | null;
      phone: string | null;
      locale: string;
    }>(
      `select l.id, l.title, l.status, l.reject_reason, p.phone, p.locale
       from public.property_listings l join public.profiles p on p.id = l.landlord_id
       where l.org_id = $1 and l.status in ('published', 'rejected')
         and l.landlord_told is distinct from l.status
       order by l.reviewed_at nulls first limit 100
       for update of l skip locked`,
      [orgId],
    );
    for (const listing of reviewed) {
      const language = languageFromLocale(listing.locale);
      if (listing.phone) {
        await send(
          ctx,
          listing.phone,
          listing.status === "published"
            ? phrase("landlordPublished", language, { title: listing.title })
            : phrase("landlordRejected", language, {
              title: listing.title,
              reason: listing.reject_reason ?? "",
            }),
          `property_listing:${listing.id}:${listing.status}`,
        );
      }
      await ctx.db.query(
        "update public.property_listings set landlord_told = status where id = $1",
        [listing.id],
      );
    }

    // The PDFs rendered in `prepare`, for viewings still booked at the same time.
    const pdfs = (ctx.prepared ?? new Map()) as Map<string, StoredPdf>;
    let confirmed = 0;
    for (const [id, pdf] of pdfs) {
      const [still] = await ctx.db.query<{ phone: string }>(
        `select phone from public.property_viewings
         where id = $1 and status = 'booked' and confirmation_sent_at is null and starts_at = $2
         for update skip locked`,
        [id, pdf.startsAt],
      );
      if (!still) continue;
      await ctx.services.get(MESSAGING).send(ctx.db, {
        orgId,
        to: still.phone,
        message: documentOut({
          link: pdf.url,
          filename: "viewing-confirmation.pdf",
          caption: phrase("confirmationPdf", pdf.language, { title: pdf.title }),
          file: { mimeType: "application/pdf", size: pdf.size },
        }),
        idempotencyKey: `property_viewing:${id}:pdf:${pdf.startsAt}`,
      });
      await ctx.db.query(
        "update public.property_viewings set confirmation_sent_at = $2 where id = $1",
        [id, now.toISOString()],
      );
      confirmed++;
    }
    return { told: changes.length, reminded: due.length, confirmed, reviews_told: reviewed.length };
  },
});
