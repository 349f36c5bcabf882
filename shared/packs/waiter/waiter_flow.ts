/**
 * Waiter AI offline: the restaurants, a venue's menu, one item ordered
 * after the user confirms.
 *
 * @module
 */
import type { ToolResult } from "@shared/contract/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { confirmTappedChoice, type OfflineCall } from "@shared/registry/offline_steps.ts";
import type { OfflineFlow } from "@shared/registry/pack.ts";

/** What Waiter AI says offline. */
export const WAITER_TEXTS = {
  venues: {
    en: "Where would you like to order from?",
    rw: "Urashaka gutumiza he?",
    fr: "Où voulez-vous commander ?",
  },
  menu: {
    en: "Here is the menu of {venue}:",
    rw: "Dore ibiri kuri menu ya {venue}:",
    fr: "Voici la carte de {venue} :",
  },
  ordered: {
    en: "✅ Order placed: {total} RWF. The venue has been told on WhatsApp.",
    rw: "✅ Itumiza ryakiriwe: {total} RWF. Aho watumije bamenyeshejwe kuri WhatsApp.",
    fr: "✅ Commande passée : {total} RWF. L'établissement a été prévenu sur WhatsApp.",
  },
} as const;

const say = phraseBook(WAITER_TEXTS);

function rows<T>(result: ToolResult): T[] {
  return result.ok ? (result.data as { items: T[] }).items : [];
}

/** One of `sku` from the chosen venue, once one is chosen. */
function orderOne(venue: unknown, sku: string): OfflineCall | null {
  if (typeof venue !== "string") return null;
  return {
    tool: "order_create",
    args: { venue_id: venue, items: [{ sku, qty: 1 }] },
    step: "order",
  };
}

/** One offline step of Waiter AI. */
export const waiterFlow: OfflineFlow = async (turn, callTool) => {
  const lang = turn.language;
  const ordered = await confirmTappedChoice(turn, callTool, {
    prefix: "item:",
    call: (sku) => orderOne(turn.memory.venue, sku),
    describe: (data) => say("ordered", lang, { total: (data as { total: number }).total }),
  });
  if (ordered) return ordered;
  const choice = turn.input.choice ?? "";
  if (choice.startsWith("venue:")) {
    const chosen = choice.slice(6);
    const items = rows<{ sku: string; name: string; price: number }>(
      await callTool("search_supabase", {
        table: "products",
        columns: ["sku", "name", "price"],
        filters: [{ column: "business_id", op: "eq", value: chosen }, {
          column: "is_available",
          op: "eq",
          value: true,
        }],
        order: { column: "name", ascending: true },
        limit: 10,
      }, "menu"),
    );
    return {
      memory: { venue: chosen, venueName: turn.input.text },
      replies: [{
        text: say("menu", lang, { venue: turn.input.text }),
        rows: items.map((item) => ({
          id: `item:${item.sku}`,
          title: item.name.slice(0, 24),
          description: `${item.price} RWF`,
        })),
      }],
    };
  }
  const venues = rows<{ id: string; name: string; area: string }>(
    await callTool("search_supabase", {
      table: "businesses",
      columns: ["id", "name", "area"],
      filters: [{ column: "category", op: "eq", value: "restaurant" }],
      limit: 10,
    }, "venues"),
  );
  return {
    replies: [{
      text: say("venues", lang),
      rows: venues.map((entry) => ({
        id: `venue:${entry.id}`,
        title: entry.name.slice(0, 24),
        description: entry.area ?? undefined,
      })),
    }],
  };
};
