/**
 * Known places: a rider may type "Nyabugogo" or "ku kibuga cy'indege"
 * instead of sharing a location. `place_lookup` finds the place a text names
 * in the gazetteer (`public.places`, coarse coordinates); an unknown place is
 * `found: false`, and the flow asks for a location share.
 *
 * @module
 */
import { z } from "zod";
import { latitude, longitude, text } from "@shared/contract/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

/** A point the rider named or shared. */
export interface NamedPoint {
  /** Latitude. */
  lat: number;
  /** Longitude. */
  lng: number;
  /** Its name, when known. */
  name?: string;
}

/**
 * Lower-case words without accents or punctuation (apostrophes kept, as in
 * "cy'indege"), single-spaced: how aliases are stored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizePlaceText } from "./places.ts";
 *
 * assert.equal(normalizePlaceText("  Aéroport, KGL!"), "aeroport kgl");
 * assert.equal(normalizePlaceText("Ku Kibuga cy’indege"), "ku kibuga cy'indege");
 * ```
 */
export function normalizePlaceText(value: string): string {
  return value.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[\u2018\u2019`]/g, "'").replace(/[^a-z0-9']+/g, " ").trim().replace(/\s+/g, " ");
}

/**
 * Whether two trip ends are one place: the same known place, or within
 * 200 m. A trip between them is no trip.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { samePlace } from "./places.ts";
 *
 * assert.equal(samePlace({ lat: -1.944, lng: 30.129 }, { lat: -1.9445, lng: 30.1292 }), true);
 * assert.equal(samePlace({ lat: -1.944, lng: 30.129 }, { lat: -1.939, lng: 30.045 }), false);
 * ```
 */
export function samePlace(a: NamedPoint, b: NamedPoint): boolean {
  if (a.name && b.name && a.name === b.name) return true;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  return Math.hypot(dLat, dLng) * 6_371_000 < 200;
}

/** The known place a text names, or null. */
export async function placeNamed(
  db: Queryable,
  value: string,
): Promise<{ slug: string; name: string; lat: number; lng: number } | null> {
  const normalized = normalizePlaceText(value);
  if (!normalized) return null;
  const [row] = await db.query<{ slug: string; name: string; lat: number; lng: number }>(
    "select slug, name, lat, lng from private.place_named($1)",
    [normalized],
  );
  return row ?? null;
}

/** The name of the known place within 3 km of a point, or null. */
export async function placeNear(db: Queryable, lat: number, lng: number): Promise<string | null> {
  const [row] = await db.query<{ name: string }>(
    "select name from private.place_near($1, $2)",
    [lat, lng],
  );
  return row?.name ?? null;
}

/** The `place_lookup` tool. */
export const placeLookup = defineTool({
  name: "place_lookup",
  title: "Find a known place",
  description: "Find the known Kigali place (market, neighbourhood, airport…) a text names, with " +
    "its rough coordinates, so a rider can type a place instead of sharing a location. " +
    "found=false means ask the user to share their location.",
  category: "mobility",
  input: z.strictObject({
    text: text({ min: 1, max: 200 }).describe("What the user typed, e.g. 'Kimironko market'."),
  }),
  output: z.object({
    found: z.boolean(),
    place: z.object({
      slug: z.string(),
      name: z.string(),
      lat: latitude(),
      lng: longitude(),
    }).optional(),
  }),
  examples: [{
    input: { text: "Nyabugogo" },
    output: {
      found: true,
      place: { slug: "nyabugogo", name: "Nyabugogo", lat: -1.939, lng: 30.045 },
    },
  }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 150,
  async execute(args, ctx) {
    const place = await placeNamed(ctx.db, args.text);
    return place ? { found: true, place } : { found: false };
  },
});
