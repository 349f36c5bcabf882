/**
 * The pharmacy agent offline: a medicine by name, where it is and at what
 * price, one box ordered after the user confirms.
 *
 * @module
 */
import type { ToolResult } from "@shared/contract/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import { confirmTappedChoice, type OfflineCall } from "@shared/registry/offline_steps.ts";
import type { OfflineFlow } from "@shared/registry/pack.ts";

/** What the pharmacy agent says offline. */
export const PHARMACY_TEXTS = {
  askItem: {
    en: "Which medicine are you looking for?",
    rw: "Urashaka uwuhe muti?",
    fr: "Quel médicament cherchez-vous ?",
  },
  found: {
    en: "{name}: {price} RWF at {venue} ({stock}).",
    rw: "{name}: {price} RWF kuri {venue} ({stock}).",
    fr: "{name} : {price} RWF chez {venue} ({stock}).",
  },
  inStock: { en: "in stock", rw: "birahari", fr: "en stock" },
  outOfStock: { en: "out of stock", rw: "byashize", fr: "en rupture" },
  notFound: {
    en: "I could not find “{q}”. Try another name, or ask to talk to a pharmacist.",
    rw: "Sinabonye “{q}”. Gerageza irindi zina, cyangwa usabe kuvugana n'umufarumasiye.",
    fr: "Je n'ai pas trouvé « {q} ». Essayez un autre nom, ou demandez à parler à un pharmacien.",
  },
  orderIt: { en: "Order 1", rw: "Tumiza 1", fr: "Commander 1" },
  ordered: {
    en: "✅ Order placed: {total} RWF. The venue has been told on WhatsApp.",
    rw: "✅ Itumiza ryakiriwe: {total} RWF. Aho watumije bamenyeshejwe kuri WhatsApp.",
    fr: "✅ Commande passée : {total} RWF. L'établissement a été prévenu sur WhatsApp.",
  },
} as const;

const say = phraseBook(PHARMACY_TEXTS);

// Words around a medicine's name that are not the name.
const NOT_THE_NAME =
  /\b(pharmacy|pharmacie|farumasi|medicine|i need|need|do you have|nde|imiti|umuti)\b/gi;

interface StockItem {
  sku: string;
  name: string;
  price: number;
  available: boolean;
  venue_id: string;
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

/** One offline step of the pharmacy agent. */
export const pharmacyFlow: OfflineFlow = async (turn, callTool) => {
  const lang = turn.language;
  const ordered = await confirmTappedChoice(turn, callTool, {
    prefix: "item:",
    call: (sku) => orderOne(turn.memory.venue, sku),
    describe: (data) => say("ordered", lang, { total: (data as { total: number }).total }),
  });
  if (ordered) return ordered;
  const query = turn.input.text.replace(/[^\p{L}\p{N}\s-]/gu, " ").replace(NOT_THE_NAME, "")
    .replace(/\s+/g, " ").trim();
  if (query.length < 3) return { replies: [{ text: say("askItem", lang) }] };
  const stock = await callTool("inventory_check", { items: [{ name: query }] }, "stock");
  const [item] = stock.ok ? (stock.data as { items: StockItem[] }).items : [];
  if (!item) return { replies: [{ text: say("notFound", lang, { q: query }) }] };
  const found: ToolResult = await callTool("search_supabase", {
    table: "businesses",
    columns: ["name"],
    filters: [{ column: "id", op: "eq", value: item.venue_id }],
    limit: 1,
  }, "venue");
  const [place] = found.ok ? (found.data as { items: Array<{ name: string }> }).items : [];
  return {
    memory: { venue: item.venue_id, venueName: place?.name },
    replies: [{
      text: say("found", lang, {
        name: item.name,
        price: item.price,
        venue: place?.name ?? "",
        stock: say(item.available ? "inStock" : "outOfStock", lang),
      }),
      buttons: item.available
        ? [{ id: `item:${item.sku}`, title: say("orderIt", lang) }]
        : undefined,
    }],
  };
};
