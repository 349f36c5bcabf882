/**
 * `property_listing_submit`: a landlord (or agent) lists a home from their
 * own conversation: photos they sent (Storage paths), monthly rent, bedrooms,
 * the area, and the exact address (the title, when they give none, is made
 * in their language from the rooms, kind and area), which goes to the secret half of the
 * listing. The listing waits for staff approval (`pending`); the database
 * refuses a landlord publishing their own. The contact renters get after
 * booking is the landlord, by the name and phone they list with. Viewing
 * hours start as Monday to Saturday, 09:00 to 17:00.
 *
 * @module
 */
import { z } from "zod";
import { e164Phone, int, moneyRwf, text, ToolFailure } from "@shared/contract/mod.ts";
import { type Language, languageFromLocale, LANGUAGES } from "@shared/contract/language.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { member } from "./member.ts";

/** What kind of home a listing is, for its title. */
export const HOME_KINDS = ["home", "house", "apartment", "studio", "room"] as const;

/** A kind of home. */
export type HomeKind = typeof HOME_KINDS[number];

const KIND_WORDS: Record<HomeKind, Record<Language, string>> = {
  home: { en: "home", rw: "Inzu", fr: "Logement" },
  house: { en: "house", rw: "Inzu", fr: "Maison" },
  apartment: { en: "apartment", rw: "Apartema", fr: "Appartement" },
  studio: { en: "Studio", rw: "Sitidiyo", fr: "Studio" },
  room: { en: "Room", rw: "Icyumba", fr: "Chambre" },
};

/**
 * A listing's title in the landlord's language, from its rooms, kind and
 * area: "2-bedroom apartment in Bibare", "Apartema y'ibyumba 2 i Bibare",
 * "Appartement 2 chambres à Bibare". A studio or a single room names no
 * bedrooms. Renters see it as the landlord wrote it (it is their listing).
 */
export function listingTitle(
  options: { bedrooms: number; kind?: HomeKind; area: string; language: Language },
): string {
  const { bedrooms, area, language } = options;
  const kind = options.kind ?? (bedrooms === 0 ? "studio" : "home");
  const word = KIND_WORDS[kind][language];
  if (kind === "studio" || kind === "room") {
    return { en: `${word} in ${area}`, rw: `${word} i ${area}`, fr: `${word} à ${area}` }[language];
  }
  switch (language) {
    case "en":
      return `${bedrooms}-bedroom ${word} in ${area}`;
    case "rw":
      return `${word} y'ibyumba ${bedrooms} i ${area}`;
    case "fr":
      return `${word} ${bedrooms} chambre${bedrooms === 1 ? "" : "s"} à ${area}`;
  }
}

const input = z.object({
  title: text({ min: 3, max: 120 }).optional().describe(
    "A short title; made from the rooms, kind and area, in the landlord's language, when absent.",
  ),
  kind: z.enum(HOME_KINDS).optional().describe(
    "house, apartment, studio or room, for the title; a home with its bedrooms when absent.",
  ),
  language: z.enum(LANGUAGES).optional().describe(
    "The landlord's language, for the title; their profile's when absent.",
  ),
  price: moneyRwf({ max: 100_000_000 }).describe("Monthly rent, whole RWF."),
  bedrooms: int({ min: 0, max: 50 }),
  sector: text({ min: 2, max: 60 }).describe("Kigali sector, e.g. Kimironko."),
  cell: text({ min: 2, max: 60 }).optional().describe("Cell, e.g. Bibare."),
  address: text({ min: 3, max: 300 }).describe("The exact address, shown only after booking."),
  contact_name: text({ min: 1, max: 120 }),
  contact_phone: e164Phone(),
  pets_allowed: z.boolean().default(false),
  parking: z.boolean().default(false),
  available_from: z.iso.date().optional().describe("YYYY-MM-DD; today when absent."),
  photos: z.array(
    z.string().regex(
      /^storage:\/\/media\/[0-9a-f-]{36}\/[^\s]{1,300}$/,
      "must be a photo sent in the chat (storage://media/<org>/…)",
    ),
  ).max(10).default([]),
});

const output = z.object({
  listing_id: z.uuid(),
  status: z.literal("pending"),
  title: z.string(),
});

/** The `property_listing_submit` tool. */
export const propertyListingSubmit = defineTool({
  name: "property_listing_submit",
  title: "List a home to rent",
  description: "A landlord or agent lists a home to rent: rent, bedrooms, area, exact " +
    "address, contact and photos sent in the chat. It waits for staff approval before " +
    "renters can find it; the address is shown only to renters who book a viewing.",
  category: "property",
  input,
  output,
  examples: [{
    input: {
      price: 180000,
      bedrooms: 2,
      sector: "Kimironko",
      cell: "Bibare",
      address: "KG 15 Ave, house 23",
      contact_name: "Jeanne",
      contact_phone: "+250788000201",
    },
  }],
  sideEffects: "writes.property_listing",
  auth: "user",
  async execute(args, ctx) {
    const { orgId, userId } = member(ctx);
    // Photos are the org's own media: another tenant's path is refused as if absent.
    for (const [index, photo] of args.photos.entries()) {
      if (!photo.startsWith(`storage://media/${orgId}/`)) {
        throw new ToolFailure("VALIDATION_ERROR", "Invalid request: check photos", {
          fields: [{ path: `photos.${index}`, message: "must be a photo sent in this chat" }],
        });
      }
    }
    const [profile] = await ctx.db.query<{ locale: string | null }>(
      "select locale from public.profiles where id = $1",
      [userId],
    );
    const title = args.title ?? listingTitle({
      bedrooms: args.bedrooms,
      kind: args.kind,
      area: args.cell ?? args.sector,
      language: args.language ?? languageFromLocale(profile?.locale),
    });
    const [listing] = await ctx.db.query<{ id: string }>(
      `insert into public.property_listings
         (org_id, landlord_id, title, price, bedrooms, sector, cell, pets_allowed, parking,
          available_from, status, photos, trace_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $12)
       returning id`,
      [
        orgId,
        userId,
        title,
        args.price,
        args.bedrooms,
        args.sector,
        args.cell ?? null,
        args.pets_allowed,
        args.parking,
        args.available_from ?? ctx.services.now().toISOString().slice(0, 10),
        args.photos,
        ctx.trace_id,
      ],
    );
    await ctx.db.query(
      `insert into public.property_listing_addresses
         (listing_id, org_id, address, contact_name, contact_phone)
       values ($1, $2, $3, $4, $5)`,
      [listing.id, orgId, args.address, args.contact_name, args.contact_phone],
    );
    await ctx.db.query(
      `insert into public.property_viewing_hours (org_id, listing_id, weekday, opens, closes)
       select $1, $2, d, '09:00', '17:00' from generate_series(1, 6) as d`,
      [orgId, listing.id],
    );
    return { listing_id: listing.id, status: "pending" as const, title };
  },
});
