/**
 * Opening hours answered from a tenant's data (`venue_hours`): the front desk answers for the
 * tenant's places, an ordering flow for the place being ordered from (or the places of its kind).
 * Read as the customer through `search_supabase`, so RLS keeps them to their tenant's places.
 *
 * @module
 */
import { hoursAnswer, kigaliClock } from "@shared/contract/opening_hours.ts";
import type { Language } from "@shared/contract/language.ts";
import type { OfflineToolCaller, PackTables } from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { z } from "zod";
import { placeFilters, type PlaceScope } from "@shared/contract/place_scope.ts";

/** The table the hours answer reads (spread into a pack's `tables`). */
export const HOURS_TABLES: PackTables = {
  venue_hours: { business_id: "uuid", weekday: "number", opens: "text", closes: "text" },
};

const placeRows = z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) });
const hourRows = z.object({
  items: z.array(z.object({
    business_id: z.string(),
    weekday: z.number(),
    opens: z.string(),
    closes: z.string(),
  })),
});

// How many places an hours answer lists (a WhatsApp message, not a directory).
const HOURS_PLACES = 5;

/** Options for {@link readHoursAnswer}. */
export interface HoursAnswerOptions extends PlaceScope {
  /** The question ("are you open on Sunday?"), for the day it asks. */
  text: string;
  language: Language;
  /** The platform's clock. */
  now: Date;
}

/**
 * The answer to an opening-hours question for the places asked (those with hours first, else
 * said to have none), in the person's language; null when the places cannot be read or there
 * are none.
 */
export async function readHoursAnswer(
  callTool: OfflineToolCaller,
  options: HoursAnswerOptions,
): Promise<string | null> {
  const filters = placeFilters(options);
  const places = await callTyped(callTool, { name: "search_supabase", output: placeRows }, {
    table: "businesses",
    columns: ["id", "name"],
    filters,
    order: { column: "name", ascending: true },
    limit: 50,
  }, "opening_places");
  if (!places.ok || !places.data.items.length) return null;
  const ids = places.data.items.map((place) => place.id);
  const hours = await callTyped(callTool, { name: "search_supabase", output: hourRows }, {
    table: "venue_hours",
    columns: ["business_id", "weekday", "opens", "closes"],
    filters: [{ column: "business_id", op: "in", value: ids }],
    limit: 100,
  }, "opening_hours");
  if (!hours.ok) return null;
  const withHours = places.data.items.filter((place) =>
    hours.data.items.some((row) => row.business_id === place.id)
  );
  const listed = (withHours.length ? withHours : places.data.items).slice(0, HOURS_PLACES);
  const { weekday, minute } = kigaliClock(options.now);
  return hoursAnswer({
    places: listed.map((place) => ({
      name: place.name,
      hours: hours.data.items.filter((row) => row.business_id === place.id),
    })),
    language: options.language,
    now: { weekday, minutes: minute },
    text: options.text,
  });
}
