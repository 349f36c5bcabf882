/**
 * `property_listing_submit`: a landlord (or agent) lists a home from their
 * own conversation: photos they sent (Storage paths), monthly rent, bedrooms,
 * the area, and the exact address, which goes to the secret half of the
 * listing. The listing waits for staff approval (`pending`); the database
 * refuses a landlord publishing their own. The contact renters get after
 * booking is the landlord, by the name and phone they list with. Viewing
 * hours start as Monday to Saturday, 09:00 to 17:00.
 *
 * @module
 */
import { z } from "zod";
import { e164Phone, int, moneyRwf, text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { member } from "./member.ts";

const input = z.object({
  title: text({ min: 3, max: 120 }).optional().describe(
    "A short title; made from the rooms and area when absent.",
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
    const title = args.title ??
      `${args.bedrooms}-bedroom home in ${args.cell ?? args.sector}`;
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
