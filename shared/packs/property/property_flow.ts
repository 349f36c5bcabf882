/**
 * The Property agent offline: a renter says what they want in their own
 * words ("ndashaka inzu yo gukodesha i Kimironko, ibyumba 2, munsi ya
 * 200000"), sees matching homes with their photos, picks one, picks a free
 * viewing time, confirms, and only then sees the address and the contact
 * (`schedule_viewing`'s answer, which row-level security allows only after
 * the booking). A booked viewing can be cancelled or moved from here.
 *
 * @module
 */
import { z } from "zod";
import { shortenTitle, TITLE_LIMITS } from "@shared/contract/titles.ts";
import { type Language, typedAnswer } from "@shared/contract/language.ts";
import { formatKigaliDate, formatMoney } from "@shared/capabilities/format/mod.ts";
import {
  type AgentReply,
  type OfflineStep,
  type OfflineToolCaller,
  openWorkToMove,
} from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import { saysDone } from "@shared/contract/done_words.ts";
import { type ListingCard, propertySearch } from "./property_search.ts";
import { scheduleViewing } from "./schedule_viewing.ts";
import { listingName, phrase } from "./texts.ts";
import {
  propertyViewings,
  propertyViewingSlots,
  viewingCancel,
  viewingMove,
} from "./viewing_manage.ts";
import { propertyListingSubmit } from "./listing_submit.ts";
import { wantsToListHome } from "./landlord_wish.ts";

/** Kigali sectors and cells renters name (the listings' `sector` and `cell`). */
export const KIGALI_AREAS: readonly string[] = [
  "Kimironko",
  "Bibare",
  "Kibagabaga",
  "Nyagatovu",
  "Remera",
  "Rukiri",
  "Nyabisindu",
  "Nyarutarama",
  "Kicukiro",
  "Niboye",
  "Kagarama",
  "Gatenga",
  "Kanombe",
  "Kacyiru",
  "Kamatamu",
  "Kimihurura",
  "Gisozi",
  "Kinyinya",
  "Gikondo",
  "Nyamirambo",
  "Rebero",
  "Kiyovu",
  "Muhima",
];

/** Search filters read from a renter's words. */
export interface SearchWords {
  area?: string;
  bedrooms?: number;
  price_max?: number;
  pets_allowed?: boolean;
  parking?: boolean;
}

function amount(written: string): number | undefined {
  const match = /^(\d[\d\s.,]*)(k)?$/i.exec(written.trim());
  if (!match) return undefined;
  const value = Number(match[1].replace(/[\s.,]/g, "")) * (match[2] ? 1000 : 1);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * The filters a message names, in en, rw or fr: an area of Kigali, a number
 * of bedrooms, a most the renter pays a month, pets, parking.
 *
 * @example
 * ```ts
 * import { searchWords } from "./property_flow.ts";
 * searchWords("ndashaka inzu yo gukodesha i Kimironko, ibyumba 2, munsi ya 200000");
 * // { area: "Kimironko", bedrooms: 2, price_max: 200000 }
 * ```
 */
export function searchWords(text: string): SearchWords {
  const found: SearchWords = {};
  const lower = text.toLowerCase();
  const area = KIGALI_AREAS.find((name) => new RegExp(`\\b${name.toLowerCase()}\\b`).test(lower));
  if (area) found.area = area;
  const rooms =
    /\b(\d{1,2})\s*-?\s*(?:bed(?:room)?s?|br|rooms?|chambres?|pi[eè]ces?)\b/.exec(lower) ??
      /\b(?:ibyumba|icyumba|chambres?)\s*(?:bi|bibiri)?\s*(\d{1,2})\b/.exec(lower);
  if (rooms) found.bedrooms = Number(rooms[1]);
  const most =
    /\b(?:under|below|less than|max(?:imum)?|up to|munsi ya|ntarenze|moins de|jusqu'?[àa]|au plus)\s*(\d[\d\s.,]*k?)/
      .exec(lower) ?? /\b(\d[\d.,]*k|\d{5,9})\s*(?:rwf|frw|frs?)?\b/.exec(lower);
  const price = most ? amount(most[1]) : undefined;
  if (price && price >= 10_000) found.price_max = price;
  if (/\b(pets?|dogs?|cats?|imbwa|injangwe|animaux|chiens?|chats?)\b/.test(lower)) {
    found.pets_allowed = true;
  }
  if (/\b(parking|garage|parikingi)\b/.test(lower)) found.parking = true;
  return found;
}

const memory = z.object({
  stage: z.enum([
    "ask",
    "pick",
    "slot",
    "confirm",
    "booked",
    "move",
    "l_photos",
    "l_price",
    "l_rooms",
    "l_area",
    "l_address",
    "l_confirm",
  ]).optional(),
  // A home a landlord is listing, as they answer.
  draft: z.object({
    photos: z.array(z.string()).max(10),
    price: z.int().optional(),
    bedrooms: z.int().optional(),
    sector: z.string().optional(),
    cell: z.string().optional(),
    address: z.string().optional(),
  }).optional(),
  listings: z.array(z.object({ id: z.string(), title: z.string() })).optional(),
  listingId: z.string().optional(),
  title: z.string().optional(),
  slots: z.array(z.string()).optional(),
  slot: z.string().optional(),
  viewingId: z.string().optional(),
});

type Memory = z.output<typeof memory>;
type Turn = TypedTurn<Memory>;

function when(iso: string, language: Language): string {
  return formatKigaliDate(iso, language, { time: true });
}

// A listing's name opens the line or question it leads.
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function cardText(card: ListingCard, index: number, turn: Turn): string {
  const { language } = turn;
  const price = phrase("perMonth", language, {
    price: formatMoney(card.price, language, { currency: turn.currency }),
  });
  const name = listingName(card, language);
  const lines = [`${index + 1}. ${sentence(name)}: ${price}`];
  if (card.photos.length) lines.push(`${phrase("photos", language)}: ${card.photos.join(" ")}`);
  else if (card.photo_count) lines.push(phrase("noPhotoLinks", language, { n: card.photo_count }));
  return lines.join("\n");
}

/**
 * The viewing times as a list: each row's title is the time as it fits a row;
 * its description the day in full, only where the title shortens it (rw's
 * "30/11, 09:00"): in en and fr both read "Mon 30 Nov, 09:00", and a phone
 * shows a row's description under its title.
 */
export function slotRows(slots: readonly string[], prefix: string, language: Language): AgentReply {
  return {
    text: "",
    // The compact day keeps the time inside a row's 24 characters ("30/11, 09:00" in rw).
    rows: slots.map((slot) => {
      const title = shortenTitle(
        formatKigaliDate(slot, language, { time: true, compact: true }),
        TITLE_LIMITS.row,
      );
      const full = shortenTitle(when(slot, language), TITLE_LIMITS.description);
      return { id: `${prefix}:${slot}`, title, ...(full === title ? {} : { description: full }) };
    }),
    list: {
      button: phrase("slotButton", language),
      section: phrase("slotSection", language),
    },
  };
}

async function search(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const words = searchWords(turn.input.text);
  if (!Object.keys(words).length && turn.memory.stage !== "ask") {
    return {
      replies: [{
        text: phrase("askWhat", turn.language),
        buttons: [{ id: "property:list", title: phrase("listMyHome", turn.language) }],
      }],
      memory: { stage: "ask" },
    };
  }
  const found = await callTyped(callTool, propertySearch, { ...words, limit: 5 }, "search");
  if (!found.ok) throw new Error(`property_search failed: ${found.error.code}`);
  const listings = found.data.listings;
  if (!listings.length) {
    // Nothing listed there yet: a person from the team may know of a home.
    return {
      replies: [{
        text: phrase("noneFound", turn.language),
        ...(turn.handoff
          ? { buttons: [{ id: `agent:${turn.handoff}`, title: phrase("person", turn.language) }] }
          : {}),
      }],
      memory: { stage: "ask" },
    };
  }
  const language = turn.language;
  return {
    replies: [
      {
        text: [phrase("results", language), ...listings.map((c, i) => cardText(c, i, turn))]
          .join("\n\n"),
      },
      {
        text: phrase("pickListing", language),
        rows: listings.map((card) => ({
          id: `listing:${card.id}`,
          // The row's title is the listing's facts, in the reader's language: bedrooms and
          // its most precise place (the cell), so two homes of one sector differ; the description
          // the price and the full area.
          title: shortenTitle(
            `${phrase("bedrooms", language, { n: card.bedrooms })}, ${
              card.area.split(", ").at(-1)
            }`,
            TITLE_LIMITS.row,
          ),
          description: shortenTitle(
            `${formatMoney(card.price, language, { currency: turn.currency })} · ${card.area}`,
            TITLE_LIMITS.description,
          ),
        })),
        list: {
          button: phrase("listButton", language),
          section: phrase("listSection", language),
        },
      },
    ],
    memory: {
      stage: "pick",
      listings: listings.map((card) => ({ id: card.id, title: listingName(card, language) })),
    },
  };
}

/** The listing a turn picks: a tapped row, or its number in the list. */
function pickedListing(turn: Turn): { id: string; title: string } | undefined {
  const offered = turn.memory.listings ?? [];
  const choice = turn.input.choice ?? "";
  if (choice.startsWith("listing:")) {
    return offered.find((l) => l.id === choice.slice(8)) ??
      { id: choice.slice(8), title: choice.slice(8) };
  }
  const n = /^\s*(\d{1,2})\s*$/.exec(turn.input.text);
  return n ? offered[Number(n[1]) - 1] : undefined;
}

async function offerSlots(
  turn: Turn,
  callTool: OfflineToolCaller,
  listingId: string,
  prefix: "slot" | "move",
  lead?: string,
  shown?: string,
): Promise<OfflineStep> {
  const free = await callTyped(callTool, propertyViewingSlots, { listing_id: listingId }, prefix);
  if (!free.ok) {
    if (free.error.code === "NOT_FOUND") {
      return { replies: [{ text: phrase("gone", turn.language) }], memory: { stage: "ask" } };
    }
    throw new Error(`property_viewing_slots failed: ${free.error.code}`);
  }
  if (!free.data.slots.length) {
    return { replies: [{ text: phrase("noSlots", turn.language) }], memory: { stage: "pick" } };
  }
  // The name the person was shown (in their language) when they picked the listing.
  const title = shown ??
    (turn.memory.listingId === listingId ? turn.memory.title : undefined) ??
    free.data.title;
  // The question opens with the listing's name: a sentence starts with a capital.
  const ask = lead ?? sentence(phrase("pickSlot", turn.language, { title }));
  return {
    replies: [{ ...slotRows(free.data.slots, prefix, turn.language), text: ask }],
    memory: {
      stage: prefix === "slot" ? "slot" : "move",
      listingId,
      title,
      slots: free.data.slots,
    },
  };
}

/** The slot a turn picks: a tapped row, or its number in the list. */
function pickedSlot(turn: Turn, prefix: string): string | undefined {
  const choice = turn.input.choice ?? "";
  if (choice.startsWith(`${prefix}:`)) return choice.slice(prefix.length + 1);
  const n = /^\s*(\d{1,2})\s*$/.exec(turn.input.text);
  return n ? turn.memory.slots?.[Number(n[1]) - 1] : undefined;
}

function askConfirm(turn: Turn, slot: string): OfflineStep {
  const { language } = turn;
  return {
    replies: [{
      text: phrase("confirmViewing", language, {
        title: turn.memory.title ?? "",
        when: when(slot, language),
        name: turn.input.name ?? "",
        phone: turn.input.phone ?? "",
      }),
      buttons: [
        { id: "viewing:yes", title: phrase("yes", language) },
        { id: "viewing:no", title: phrase("no", language) },
      ],
    }],
    memory: { stage: "confirm", slot },
  };
}

async function book(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const { language } = turn;
  const booked = await callTyped(callTool, scheduleViewing, {
    listing_id: turn.memory.listingId,
    when: turn.memory.slot,
    name: turn.input.name ?? "",
    phone: turn.input.phone ?? "",
  }, "book");
  if (!booked.ok) {
    if (booked.error.code === "NOT_FOUND") {
      return { replies: [{ text: phrase("gone", language) }], memory: { stage: "ask" } };
    }
    const suggestions = z.object({ suggestions: z.array(z.string()) })
      .safeParse(booked.error.details);
    if (
      (booked.error.code === "CONFLICT" || booked.error.code === "VALIDATION_ERROR") &&
      suggestions.success && suggestions.data.suggestions.length
    ) {
      return {
        replies: [{
          ...slotRows(suggestions.data.suggestions, "slot", language),
          text: phrase("slotTaken", language),
        }],
        memory: { stage: "slot", slots: suggestions.data.suggestions },
      };
    }
    throw new Error(`schedule_viewing failed: ${booked.error.code}`);
  }
  const viewing = booked.data;
  return {
    replies: [{
      text: phrase("booked", language, {
        title: turn.memory.title ?? viewing.title,
        when: when(viewing.when, language),
        address: viewing.address,
        contact: viewing.contact,
      }),
      buttons: [
        { id: "viewing:move", title: phrase("moveViewing", language) },
        { id: "viewing:cancel", title: phrase("cancelViewing", language) },
      ],
    }],
    memory: {
      stage: "booked",
      viewingId: viewing.event_id,
      title: turn.memory.title ?? viewing.title,
    },
  };
}

async function manage(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep | null> {
  const { language } = turn;
  const choice = turn.input.choice;
  if (choice === "viewing:cancel") {
    const cancelled = await callTyped(callTool, viewingCancel, {
      event_id: turn.memory.viewingId,
    }, "cancel");
    if (!cancelled.ok) throw new Error(`viewing_cancel failed: ${cancelled.error.code}`);
    return {
      replies: [{
        text: phrase("cancelled", language, {
          title: turn.memory.title ?? cancelled.data.title,
          when: when(cancelled.data.when, language),
        }),
      }],
      done: true,
    };
  }
  if (choice === "viewing:move" && turn.memory.listingId) {
    return await offerSlots(turn, callTool, turn.memory.listingId, "move");
  }
  return null;
}

/** One answer of a landlord listing a home: photos, rent, rooms, area, address, yes. */
async function listStep(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const { language } = turn;
  const draft = turn.memory.draft ?? { photos: [] };
  const ask = (stage: NonNullable<Memory["stage"]>, key: Parameters<typeof phrase>[0]) => ({
    replies: [{ text: phrase(key, language) }],
    memory: { stage, draft },
  });
  switch (turn.memory.stage) {
    case "l_photos": {
      const ref = turn.input.media?.ref;
      if (ref && turn.input.media?.type.startsWith("image") && draft.photos.length < 10) {
        draft.photos = [...draft.photos, ref];
        return {
          replies: [{
            text: phrase("photoReceived", language, { n: draft.photos.length }),
            buttons: [{ id: "property:done", title: phrase("done", language) }],
          }],
          memory: { stage: "l_photos", draft },
        };
      }
      if (turn.input.choice === "property:done" || saysDone(turn.input.text)) {
        return ask("l_price", "askPrice");
      }
      // The rent typed instead of tapping Done ends the photos and answers the next question.
      const rent = amount(turn.input.text.replace(/\s*(rwf|frw)\s*$/i, ""));
      if (rent) {
        draft.price = rent;
        return ask("l_rooms", "askRooms");
      }
      return {
        replies: [{
          text: draft.photos.length
            ? phrase("photoReceived", language, { n: draft.photos.length })
            : phrase("askPhotos", language),
          buttons: [{ id: "property:done", title: phrase("done", language) }],
        }],
        memory: { stage: "l_photos", draft },
      };
    }
    case "l_price": {
      const price = amount(turn.input.text.replace(/\s*(rwf|frw)\s*$/i, ""));
      if (!price) return ask("l_price", "askPrice");
      draft.price = price;
      return ask("l_rooms", "askRooms");
    }
    case "l_rooms": {
      const rooms = /\d{1,2}/.exec(turn.input.text);
      if (!rooms) return ask("l_rooms", "askRooms");
      draft.bedrooms = Number(rooms[0]);
      return ask("l_area", "askArea");
    }
    case "l_area": {
      const [sector, cell] = turn.input.text.split(/[,/]/).map((part) => part.trim());
      if (!sector || sector.length < 2) return ask("l_area", "askArea");
      draft.sector = sector;
      draft.cell = cell || undefined;
      return ask("l_address", "askAddress");
    }
    case "l_address": {
      if (turn.input.text.trim().length < 3) return ask("l_address", "askAddress");
      draft.address = turn.input.text.trim();
      const area = draft.cell ? `${draft.sector}, ${draft.cell}` : draft.sector ?? "";
      return {
        replies: [{
          text: phrase("confirmListing", language, {
            price: formatMoney(draft.price ?? 0, language, { currency: turn.currency }),
            n: draft.bedrooms ?? 0,
            area,
            photos: draft.photos.length,
          }),
          buttons: [
            { id: "listing:yes", title: phrase("listYes", language) },
            { id: "listing:no", title: phrase("no", language) },
          ],
        }],
        memory: { stage: "l_confirm", draft },
      };
    }
    case "l_confirm": {
      // A typed "yes" / "yego" / "oui" is the button's answer too.
      if (turn.input.choice !== "listing:yes" && typedAnswer(turn.input.text) !== true) {
        return { replies: [{ text: phrase("notListed", language) }], done: true };
      }
      const listed = await callTyped(callTool, propertyListingSubmit, {
        price: draft.price,
        bedrooms: draft.bedrooms,
        sector: draft.sector,
        cell: draft.cell,
        address: draft.address,
        contact_name: turn.input.name ?? "",
        contact_phone: turn.input.phone ?? "",
        photos: draft.photos,
        language,
      }, "list");
      if (!listed.ok) throw new Error(`property_listing_submit failed: ${listed.error.code}`);
      return {
        replies: [{ text: phrase("listed", language, { title: listed.data.title }) }],
        done: true,
      };
    }
    default:
      return {
        replies: [{
          text: phrase("askPhotos", language),
          buttons: [{ id: "property:done", title: phrase("done", language) }],
        }],
        memory: { stage: "l_photos", draft: { photos: [] } },
      };
  }
}

/**
 * "Move it" with the renter's one viewing open (the kernel's {@linkcode openWorkToMove}): that
 * viewing's free slots, asked by its name and time; the pick moves it as the "Move viewing"
 * button does. A viewing no longer booked starts the flow afresh.
 */
async function moveOpenViewing(
  turn: Turn,
  callTool: OfflineToolCaller,
  eventId: string,
): Promise<OfflineStep | null> {
  const mine = await callTyped(callTool, propertyViewings, { mine: true, limit: 100 }, "mine");
  const viewing = mine.ok
    ? mine.data.viewings.find((row) => row.event_id === eventId && row.status === "booked")
    : undefined;
  if (!viewing) return null;
  const lead = phrase("moveWhen", turn.language, {
    title: viewing.title,
    when: when(viewing.when, turn.language),
  });
  const step = await offerSlots(turn, callTool, viewing.listing_id, "move", lead);
  return step.memory?.stage === "move"
    ? { ...step, memory: { ...step.memory, viewingId: viewing.event_id } }
    : step;
}

async function propertyStep(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const moving = openWorkToMove(turn.input);
  if (moving !== null) {
    const step = await moveOpenViewing(turn, callTool, moving);
    if (step) return step;
    return await propertyStep({ ...turn, input: { ...turn.input, choice: undefined } }, callTool);
  }
  const { stage } = turn.memory;
  if (stage?.startsWith("l_")) return await listStep(turn, callTool);
  if (turn.input.choice === "property:list" || wantsToListHome(turn.input.text)) {
    return await listStep({ ...turn, memory: {} }, callTool);
  }
  if (stage === "booked") {
    const managed = await manage(turn, callTool);
    if (managed) return managed;
  }
  if (stage === "move") {
    const slot = pickedSlot(turn, "move");
    if (slot) {
      const moved = await callTyped(callTool, viewingMove, {
        event_id: turn.memory.viewingId,
        when: slot,
      }, `move:${slot}`);
      if (!moved.ok) {
        return await offerSlots(
          turn,
          callTool,
          turn.memory.listingId ?? "",
          "move",
          moved.error.msg,
        );
      }
      return {
        replies: [{
          text: phrase("moved", turn.language, {
            title: turn.memory.title ?? moved.data.title,
            when: when(moved.data.when, turn.language),
          }),
          buttons: [
            { id: "viewing:move", title: phrase("moveViewing", turn.language) },
            { id: "viewing:cancel", title: phrase("cancelViewing", turn.language) },
          ],
        }],
        memory: { stage: "booked" },
      };
    }
  }
  // A typed "yes" / "yego" / "oui" (or "no") is the button's answer too.
  const typed = stage === "confirm" && !turn.input.choice ? typedAnswer(turn.input.text) : null;
  if (stage === "confirm") {
    if (turn.input.choice === "viewing:yes" || typed === true) return await book(turn, callTool);
    if (turn.input.choice === "viewing:no" || typed === false) {
      return { replies: [{ text: phrase("notBooked", turn.language) }], memory: { stage: "pick" } };
    }
  }
  if (stage === "slot" || stage === "confirm") {
    const slot = pickedSlot(turn, "slot");
    if (slot) return askConfirm(turn, slot);
  }
  if (stage === "pick" || stage === "slot" || stage === "confirm") {
    const listing = pickedListing(turn);
    // A row of an older list is known by its id alone: the tool's title names it then.
    const shown = listing && listing.title !== listing.id ? listing.title : undefined;
    if (listing) return await offerSlots(turn, callTool, listing.id, "slot", undefined, shown);
  }
  // Anything else while the booking waits for its yes ("Aline", a question) asks it again: the
  // time the renter picked is not dropped for a new search.
  if (
    stage === "confirm" && turn.memory.slot && !Object.keys(searchWords(turn.input.text)).length
  ) {
    return askConfirm(turn, turn.memory.slot);
  }
  return await search(turn, callTool);
}

const flow = typedFlow({ version: 1, memory, step: propertyStep });

/** The Property agent's offline flow. */
export const propertyFlow = flow.offlineFlow;

/** What the flow keeps between turns, typed and versioned. */
export const propertyFlowMemory = flow.memory;
