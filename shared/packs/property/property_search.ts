/**
 * `property_search` (seed 000 F): published rentals of the caller's org by
 * monthly price, bedrooms, area (a Kigali sector or cell), pets, parking and
 * when the renter moves in. A result carries its photos as signed Storage
 * URLs, the area and a coarse point (3 decimals, about 100 m), never the
 * exact address: that lives in `property_listing_addresses`, which this tool
 * does not read and the caller could not read anyway until they book a
 * viewing (`schedule_viewing`).
 *
 * @module
 */
import { z } from "zod";
import { int, moneyRwf, text, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool, type ExecutionContext } from "@shared/registry/define_tool.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { member } from "./member.ts";

const input = z.object({
  price_min: moneyRwf({ max: 100_000_000 }).optional().describe("Lowest monthly rent, RWF."),
  price_max: moneyRwf({ max: 100_000_000 }).optional().describe("Highest monthly rent, RWF."),
  bedrooms: int({ min: 0, max: 50 }).optional().describe("Exactly this many bedrooms."),
  area: text({ min: 2, max: 60 }).optional().describe(
    "A Kigali sector or cell, e.g. Kimironko, Bibare, Remera.",
  ),
  pets_allowed: z.boolean().optional().describe("Only listings that allow pets."),
  parking: z.boolean().optional().describe("Only listings with parking."),
  available_from: z.iso.date().optional().describe(
    "The move-in date (YYYY-MM-DD): listings free by then.",
  ),
  limit: int({ min: 1, max: 10 }).default(5),
}).refine(
  (args) =>
    args.price_min === undefined || args.price_max === undefined ||
    args.price_min <= args.price_max,
  { message: "must not be below price_min", path: ["price_max"] },
);

/** One listing as a renter sees it before booking: no address, no contact. */
export const listingCard = z.object({
  id: z.uuid(),
  title: z.string(),
  price: z.int().describe("Monthly rent, whole RWF."),
  bedrooms: z.int(),
  area: z.string().describe("Sector and cell, e.g. 'Kimironko, Bibare'."),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable().describe(
    "A coarse point (3 decimals): the neighbourhood, not the door.",
  ),
  pets_allowed: z.boolean(),
  parking: z.boolean(),
  available_from: z.string().describe("YYYY-MM-DD."),
  photos: z.array(z.string()).describe("Signed links to the photos (valid one day)."),
  photo_count: z.int().describe("How many photos the listing has, linked or not."),
});

const output = z.object({ listings: z.array(listingCard) });

/** A listing card: what a renter sees of a listing before booking. */
export type ListingCard = z.output<typeof listingCard>;

interface Row {
  id: string;
  title: string;
  price: number;
  bedrooms: number;
  sector: string;
  cell: string | null;
  lat: string | null;
  lng: string | null;
  pets_allowed: boolean;
  parking: boolean;
  available_from: string;
  photos: string[];
}

const PHOTO_LINK_SECONDS = 24 * 3600;

/**
 * Signed links to `storage://<bucket>/<path>` photos. Storage that is not
 * configured (a laptop without keys) or a photo gone from the bucket gives
 * no link, and the card still says how many photos there are.
 */
export async function photoLinks(
  ctx: Pick<ExecutionContext, "services">,
  refs: readonly string[],
): Promise<string[]> {
  const files = ctx.services.get(FILE_STORE);
  const links: string[] = [];
  for (const ref of refs) {
    const match = /^storage:\/\/([a-z0-9_-]+)\/(.+)$/.exec(ref);
    if (!match) continue;
    try {
      const { url } = await files.signedUrl({
        bucket: match[1],
        path: match[2],
        expiresInSeconds: PHOTO_LINK_SECONDS,
      });
      links.push(url);
    } catch (error) {
      if (!(error instanceof ToolFailure)) throw error;
    }
  }
  return links;
}

/** A listing row as its card (the photos already signed). */
export function toCard(row: Row, photos: string[]): ListingCard {
  return {
    id: row.id,
    title: row.title,
    price: row.price,
    bedrooms: row.bedrooms,
    area: row.cell ? `${row.sector}, ${row.cell}` : row.sector,
    location: row.lat !== null && row.lng !== null
      ? { lat: Number(row.lat), lng: Number(row.lng) }
      : null,
    pets_allowed: row.pets_allowed,
    parking: row.parking,
    available_from: row.available_from,
    photos,
    photo_count: row.photos.length,
  };
}

/** The columns a card is made of: never an address (it is in another table). */
export const CARD_COLUMNS = `l.id, l.title, l.price, l.bedrooms, l.sector, l.cell,
  l.lat::text as lat, l.lng::text as lng, l.pets_allowed, l.parking,
  to_char(l.available_from, 'YYYY-MM-DD') as available_from, l.photos`;

/** The `property_search` tool. */
export const propertySearch = defineTool({
  name: "property_search",
  title: "Search rentals",
  description: "Search published houses and apartments to rent by monthly price (RWF), " +
    "bedrooms, area (Kigali sector or cell), pets, parking and move-in date. Results show " +
    "photos, the area and a coarse location; the exact address and the landlord's contact " +
    "come only with a booked viewing (schedule_viewing).",
  category: "property",
  input,
  output,
  examples: [{
    input: { price_max: 200000, bedrooms: 2, area: "Kimironko" },
  }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    // `like` patterns: the area is matched as written, its wildcards escaped.
    const area = args.area?.replace(/[\\%_]/g, (c) => `\\${c}`);
    const rows = await ctx.db.query<Row>(
      `select ${CARD_COLUMNS}
       from public.property_listings l
       where l.org_id = $1 and l.status = 'published'
         and ($2::int is null or l.price >= $2)
         and ($3::int is null or l.price <= $3)
         and ($4::int is null or l.bedrooms = $4)
         and ($5::text is null or l.sector ilike '%' || $5 || '%' or l.cell ilike '%' || $5 || '%')
         and ($6::boolean is null or not $6 or l.pets_allowed)
         and ($7::boolean is null or not $7 or l.parking)
         and ($8::date is null or l.available_from <= $8)
       order by l.price, l.available_from, l.id
       limit $9`,
      [
        member(ctx).orgId,
        args.price_min ?? null,
        args.price_max ?? null,
        args.bedrooms ?? null,
        area ?? null,
        args.pets_allowed ?? null,
        args.parking ?? null,
        args.available_from ?? null,
        args.limit,
      ],
    );
    const listings: ListingCard[] = [];
    for (const row of rows) listings.push(toCard(row, await photoLinks(ctx, row.photos)));
    return { listings };
  },
});
