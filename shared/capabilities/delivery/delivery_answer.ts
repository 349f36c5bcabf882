/**
 * Delivery answered from the tenant's own data: where each place delivers and for how much
 * (`delivery_areas`), or that it does not deliver and its customers collect
 * (`businesses.pickup_only`). A place with neither has no delivery data: the answer says so and
 * asks for a person, never guesses. Read as the customer through `search_supabase`, so RLS keeps
 * it to their tenant's places; worded in their language and the tenant's currency.
 *
 * @module
 */
import { formatMoney } from "@shared/capabilities/format/mod.ts";
import { deliveryPlaceAsked } from "@shared/contract/delivery_question.ts";
import { type Language, phraseBook } from "@shared/contract/language.ts";
import { normalizeText } from "@shared/contract/normalize_text.ts";
import type { OfflineToolCaller, PackTables } from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { z } from "zod";
import { placeFilters, type PlaceScope } from "@shared/contract/place_scope.ts";

/** The tables and columns the delivery answer reads (spread into a pack's `tables`). */
export const DELIVERY_TABLES: PackTables = {
  businesses: {
    id: "uuid",
    name: "text",
    address: "text",
    area: "text",
    category: "text",
    pickup_only: "boolean",
  },
  delivery_areas: { business_id: "uuid", area: "text", fee: "number" },
};

const TEXTS = {
  delivers: {
    en:
      "Yes, {venue} delivers to {area}: {fee}. Tell me what you need, and ask for delivery when you order.",
    rw:
      "Yego, {venue} igeza ibicuruzwa i {area}: {fee}. Mbwira icyo ukeneye, maze usabe ko bakikuzanira igihe utumiza.",
    fr:
      "Oui, {venue} livre à {area} : {fee}. Dites-moi ce qu'il vous faut, et demandez la livraison en commandant.",
  },
  free: { en: "free", rw: "ku buntu", fr: "gratuit" },
  notThere: {
    en: "{venue} does not deliver to {asked}. It delivers to: {list}.",
    rw: "{venue} ntigeza ibicuruzwa i {asked}. Ibigeza aha: {list}.",
    fr: "{venue} ne livre pas à {asked}. Livraisons possibles : {list}.",
  },
  areas: {
    en: "{venue} delivers to: {list}. Tell me what you need, and ask for delivery when you order.",
    rw:
      "{venue} igeza ibicuruzwa aha: {list}. Mbwira icyo ukeneye, maze usabe ko bakikuzanira igihe utumiza.",
    fr:
      "{venue} livre à : {list}. Dites-moi ce qu'il vous faut, et demandez la livraison en commandant.",
  },
  pickupToo: {
    en: "You can also collect your order at {address}.",
    rw: "Ushobora no kwifatira itumiza ryawe kuri {address}.",
    fr: "Vous pouvez aussi retirer votre commande à {address}.",
  },
  pickupOnly: {
    en: "{venue} does not deliver: you collect your order at {address}.",
    rw: "{venue} ntigeza ibicuruzwa ku bakiriya: wifatira itumiza ryawe kuri {address}.",
    fr: "{venue} ne livre pas : vous retirez votre commande à {address}.",
  },
  unknown: {
    en: "I do not have {venue}'s delivery details. A person from our team can tell you.",
    rw:
      "Nta makuru mfite ku buryo {venue} igeza ibicuruzwa ku bakiriya. Umuntu wo mu itsinda ryacu arabikubwira.",
    fr:
      "Je n'ai pas les informations de livraison de {venue}. Une personne de notre équipe peut vous renseigner.",
  },
  ourPlaces: { en: "our places", rw: "amaduka yacu", fr: "nos points de vente" },
} as const;

const say = phraseBook(TEXTS);

/** One place's delivery, as its data says. */
export interface DeliveryPlace {
  id: string;
  name: string;
  /** Where it is, for collecting ("Kigali Special Economic Zone, Masoro"). */
  address: string | null;
  /** It does not deliver: its customers collect. */
  pickupOnly: boolean;
  /** Where it delivers, each with its fee (0: free). */
  areas: Array<{ area: string; fee: number }>;
}

const placeRows = z.object({
  items: z.array(z.object({
    id: z.string(),
    name: z.string(),
    address: z.string().nullish(),
    area: z.string().nullish(),
    pickup_only: z.boolean().nullish(),
  })),
});
const areaRows = z.object({
  items: z.array(z.object({ business_id: z.string(), area: z.string(), fee: z.number() })),
});

/** Which places to read: these ids, or the tenant's places of a category, or all of them. */
export type DeliveryReadOptions = PlaceScope;

// How many places one answer covers (a WhatsApp message, not a directory).
const MAX_PLACES = 3;

/**
 * The delivery data of the tenant's places (as the caller may read them), or null when it cannot
 * be read (the caller then says plainly that it cannot answer).
 */
export async function readDeliveryPlaces(
  callTool: OfflineToolCaller,
  options: DeliveryReadOptions = {},
): Promise<DeliveryPlace[] | null> {
  const filters = placeFilters(options);
  const places = await callTyped(callTool, { name: "search_supabase", output: placeRows }, {
    table: "businesses",
    columns: ["id", "name", "address", "area", "pickup_only"],
    filters,
    order: { column: "name", ascending: true },
    limit: 50,
  }, "delivery_places");
  if (!places.ok) return null;
  const ids = places.data.items.map((place) => place.id);
  if (!ids.length) return [];
  const areas = await callTyped(callTool, { name: "search_supabase", output: areaRows }, {
    table: "delivery_areas",
    columns: ["business_id", "area", "fee"],
    filters: [{ column: "business_id", op: "in", value: ids }],
    order: { column: "fee", ascending: true },
    limit: 100,
  }, "delivery_areas");
  if (!areas.ok) return null;
  return places.data.items.map((place) => ({
    id: place.id,
    name: place.name,
    address: [place.address, place.area].filter(Boolean).join(", ") || null,
    pickupOnly: place.pickup_only ?? false,
    areas: areas.data.items
      .filter((row) => row.business_id === place.id)
      .map((row) => ({ area: row.area, fee: row.fee })),
  }));
}

/** What to tell the customer, and whether a person should be offered (no data to answer from). */
export interface DeliveryAnswer {
  text: string;
  askPerson: boolean;
}

/** Options for {@link deliveryAnswer}. */
export interface DeliveryAnswerOptions {
  places: readonly DeliveryPlace[];
  /** The customer's question, for the place it names. */
  text: string;
  language: Language;
  /** The tenant's currency. */
  currency?: string;
}

function words(text: string): string {
  return ` ${normalizeText(text)} `;
}

/**
 * The answer to a delivery question from the places' data: whether and for how much they deliver
 * where asked, where they do deliver, that they do not deliver (collect at the address), or that
 * nothing is on record (ask a person). Places with data come first; at most three are told.
 */
export function deliveryAnswer(options: DeliveryAnswerOptions): DeliveryAnswer {
  const { language } = options;
  const fee = (amount: number) =>
    amount === 0 ? say("free", language) : formatMoney(amount, language, {
      currency: options.currency,
    });
  const asked = words(options.text);
  const named = deliveryPlaceAsked(options.text);
  const known = options.places.filter((place) => place.pickupOnly || place.areas.length);
  if (!known.length) {
    const venue = options.places.length === 1 ? options.places[0].name : say("ourPlaces", language);
    return { text: say("unknown", language, { venue }), askPerson: true };
  }
  const texts = known.slice(0, MAX_PLACES).map((place) => {
    const venue = place.name;
    const address = place.address ?? venue;
    if (place.pickupOnly) {
      return say("pickupOnly", language, { venue, address });
    }
    const served = place.areas.find((row) => asked.includes(words(row.area)));
    if (served) {
      return say("delivers", language, { venue, area: served.area, fee: fee(served.fee) });
    }
    const list = place.areas.map((row) => `${row.area} (${fee(row.fee)})`).join(", ");
    // Not served where asked: collecting is the other way to get the order.
    const pickup = named && place.address ? ` ${say("pickupToo", language, { address })}` : "";
    return (named
      ? say("notThere", language, { venue, asked: capitalised(named), list })
      : say("areas", language, { venue, list })) + pickup;
  });
  return { text: texts.join("\n\n"), askPerson: false };
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
