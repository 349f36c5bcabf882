/**
 * `maps_geosearch` (the tool catalog's mobility section): drivers, venues, pharmacies or shops near a
 * point, nearest first, with distances in metres. One spatial query per kind
 * that the GiST indexes answer (`businesses_earth_idx` through a box test
 * `earth_point(lat, lng) <@ cube_enlarge(...)`, drivers through
 * `private.drivers_near`), under the caller's row-level security. Positions
 * are rounded to 3 decimals (about 110 m) IN the database and distances are
 * measured from the rounded position, so no answer is finer than that.
 * Properties have no table yet: `kind: "property"` is refused plainly.
 *
 * @module
 */
import { z } from "zod";
import { int, latitude, longitude, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";

/** The kinds of places, and the business categories each covers. */
export const KIND_CATEGORIES = {
  venue: ["restaurant", "cafe", "bar"],
  pharmacy: ["pharmacy"],
  shop: ["shop", "hardware", "grocery", "electronics", "supermarket"],
} as const;

/** Largest radius, metres (the drivers' function caps at the same). */
export const MAX_RADIUS_M = 50_000;

const filters = z.strictObject({
  vehicle_type: z.enum(["moto", "cab"]).optional().describe("kind driver only"),
  category: z.enum(["restaurant", "cafe", "bar", "hardware", "shop", "grocery", "electronics"])
    .optional().describe("kind venue or shop: one of its categories"),
  open_now: z.boolean().optional().describe("kind venue only: open now, Kigali time"),
});

const input = z.strictObject({
  lat: latitude(),
  lng: longitude(),
  radius: z.number("must be a radius in metres").positive("must be above 0")
    .max(MAX_RADIUS_M, `must be at most ${MAX_RADIUS_M} metres`).describe("Metres."),
  kind: z.enum(["driver", "venue", "pharmacy", "shop", "property"]),
  filters: filters.optional(),
  limit: int({ min: 1, max: 50 }).default(10),
}).superRefine((args, ctx) => {
  const f = args.filters ?? {};
  if (f.vehicle_type !== undefined && args.kind !== "driver") {
    ctx.addIssue({
      code: "custom",
      path: ["filters", "vehicle_type"],
      message: "only for kind driver",
    });
  }
  if (f.open_now !== undefined && args.kind !== "venue") {
    ctx.addIssue({ code: "custom", path: ["filters", "open_now"], message: "only for kind venue" });
  }
  if (f.category !== undefined) {
    const allowed: readonly string[] = args.kind === "venue" || args.kind === "shop"
      ? KIND_CATEGORIES[args.kind]
      : [];
    if (!allowed.includes(f.category)) {
      ctx.addIssue({
        code: "custom",
        path: ["filters", "category"],
        message: allowed.length
          ? `must be one of ${allowed.join(", ")} for kind ${args.kind}`
          : `only for kind venue or shop`,
      });
    }
  }
});

const result = z.object({
  id: z.uuid(),
  name: z.string(),
  distance: z.int().nonnegative().describe("Metres, from the rounded position."),
  lat: z.number().refine((x) => Number(x.toFixed(3)) === x, "at most 3 decimals"),
  lng: z.number().refine((x) => Number(x.toFixed(3)) === x, "at most 3 decimals"),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The bare indexed query over businesses (the benchmark runs the same text).
 * The centre is a scalar subquery, evaluated once per search: as a bare
 * call of the non-inlinable `earth_point` on parameters it ran once a row.
 */
export const BUSINESSES_NEAR_SQL = `
  select b.id, b.name, b.category, b.area,
         round(b.lat::numeric, 3)::float8 as lat, round(b.lng::numeric, 3)::float8 as lng,
         round(private.earth_metres((select private.earth_point($1, $2)),
           private.earth_point(round(b.lat::numeric, 3)::float8, round(b.lng::numeric, 3)::float8)))::int
           as distance
  from public.businesses b
  where private.earth_point(b.lat, b.lng) operator(extensions.<@)
          extensions.cube_enlarge((select private.earth_point($1, $2)), $3, 3)
    and extensions.cube_distance(private.earth_point(b.lat, b.lng), (select private.earth_point($1, $2)))
        <= 2 * 6378168 * sin($3 / (2 * 6378168.0))
    and b.org_id = $4 and b.is_active and b.category = any($5::text[])
    and (not $6::boolean or exists (
      select 1 from public.venue_hours h
      where h.business_id = b.id and h.org_id = b.org_id
        and h.weekday = extract(isodow from private.kigali_local(now()))
        and h.opens <= private.kigali_local(now())::time
        and (private.kigali_local(now())::time < h.closes or h.closes = '24:00'::time)))
  order by distance, b.id
  limit $7`;

/** The bare drivers query (the benchmark runs the same text). */
export const DRIVERS_NEAR_SQL = `
  select driver_id as id, display_name as name, vehicle_type, vehicle_desc, lat, lng,
         distance_m as distance, available_until
  from private.drivers_near($4, $1, $2, $3, $5, $6)`;

/** The `maps_geosearch` tool. */
export const mapsGeosearch = defineTool({
  name: "maps_geosearch",
  title: "Find places nearby",
  description: "Find available drivers, venues (restaurants, cafés), pharmacies or shops near a " +
    "point, nearest first, distances in metres. Positions are coarse (3 decimals). " +
    "Properties are not searchable yet.",
  category: "mobility",
  input,
  output: z.object({ results: z.array(result) }),
  examples: [{
    description: "Motos within 2 km of Remera",
    input: {
      lat: -1.9557,
      lng: 30.1123,
      radius: 2000,
      kind: "driver",
      filters: { vehicle_type: "moto" },
    },
  }, {
    description: "Pharmacies within 3 km of Kimihurura",
    input: { lat: -1.9536, lng: 30.0925, radius: 3000, kind: "pharmacy", limit: 5 },
  }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 100,
  async execute(args, ctx) {
    const f = args.filters ?? {};
    if (args.kind === "property") {
      throw new ToolFailure(
        "VALIDATION_ERROR",
        "Searching properties by distance is not available yet",
        { fields: [{ path: "kind", message: "property search is not available yet" }] },
      );
    }
    if (args.kind === "driver") {
      const rows = await ctx.db.query<{
        id: string;
        name: string;
        vehicle_type: string;
        vehicle_desc: string | null;
        lat: number;
        lng: number;
        distance: number;
        available_until: string;
      }>(DRIVERS_NEAR_SQL, [
        args.lat,
        args.lng,
        args.radius,
        ctx.org_id,
        f.vehicle_type ?? null,
        args.limit,
      ]);
      return {
        results: rows.map((row) => ({
          id: row.id,
          name: row.name,
          distance: row.distance,
          lat: row.lat,
          lng: row.lng,
          metadata: {
            vehicle_type: row.vehicle_type,
            ...(row.vehicle_desc ? { vehicle: row.vehicle_desc } : {}),
            available_until: new Date(row.available_until).toISOString(),
          },
        })),
      };
    }
    const categories = f.category ? [f.category] : [...KIND_CATEGORIES[args.kind]];
    const rows = await ctx.db.query<{
      id: string;
      name: string;
      category: string;
      area: string | null;
      lat: number;
      lng: number;
      distance: number;
    }>(BUSINESSES_NEAR_SQL, [
      args.lat,
      args.lng,
      args.radius,
      ctx.org_id,
      categories,
      f.open_now ?? false,
      args.limit,
    ]);
    return {
      results: rows.map((row) => ({
        id: row.id,
        name: row.name,
        distance: row.distance,
        lat: row.lat,
        lng: row.lng,
        metadata: { category: row.category, ...(row.area ? { area: row.area } : {}) },
      })),
    };
  },
});
