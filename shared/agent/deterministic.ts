/**
 * The deterministic mode: menus, buttons and keyword intents that drive the
 * same graph and the same tools as the model, so every agent can be reached
 * offline, without any key. Each agent is a small step function over the
 * conversation's memory.
 *
 * @module
 */
import type { ToolResult } from "@shared/contract/mod.ts";
import { type Language, phraseBook } from "@shared/contract/language.ts";
import type { AgentReply, OfflineStep, OfflineTurn, PendingCall } from "@shared/registry/pack.ts";

type Update = OfflineStep;
type Call = (tool: string, args: unknown, step: string) => Promise<ToolResult>;

const T = {
  welcome: {
    en: "Hi! I'm EasyMO. What do you need today?",
    rw: "Muraho! Ndi EasyMO. Ukeneye iki uyu munsi?",
    fr: "Bonjour ! Je suis EasyMO. De quoi avez-vous besoin aujourd'hui ?",
  },
  choose: { en: "Choose", rw: "Hitamo", fr: "Choisir" },
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
    en: "✅ Order placed: {total} RWF. It will be ready in about 20 minutes.",
    rw: "✅ Itumiza ryakiriwe: {total} RWF. Rizaba ryiteguye mu minota 20.",
    fr: "✅ Commande passée : {total} RWF. Prête dans environ 20 minutes.",
  },
  cancelled: { en: "OK, I cancelled that.", rw: "Byakuweho.", fr: "D'accord, c'est annulé." },
  failed: {
    en: "Sorry, that did not work: {msg}",
    rw: "Mutwihanganire, ntibyakunze: {msg}",
    fr: "Désolé, cela n'a pas marché : {msg}",
  },
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
  buySell: {
    en: "Tell me what you are looking for and I will ask nearby vendors.",
    rw: "Mbwira icyo ushaka, mbaze abacuruzi bakwegereye.",
    fr: "Dites-moi ce que vous cherchez, je demanderai aux vendeurs proches.",
  },
} as const;

const say = phraseBook(T);

const AGENT_MENU: Array<{ id: string; title: Record<Language, string> }> = [
  {
    id: "waiter_ai",
    title: { en: "Food & drinks", rw: "Ibiryo n'ibinyobwa", fr: "Repas et boissons" },
  },
  { id: "pharmacy", title: { en: "Pharmacy", rw: "Farumasi", fr: "Pharmacie" } },
  {
    id: "buy_and_sell",
    title: { en: "Buy & sell", rw: "Kugura no kugurisha", fr: "Acheter et vendre" },
  },
  {
    id: "support_handoff",
    title: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
  },
];

function rows<T>(result: ToolResult): T[] {
  return result.ok ? (result.data as { items: T[] }).items : [];
}

/** One step of the current agent, without a model. */
export async function deterministicAct(state: OfflineTurn, call: Call): Promise<Update> {
  const lang = state.language;
  const memory = state.memory as {
    venue?: string;
    venueName?: string;
    lastResult?: ToolResult | { ok: false; error: { code: "CANCELLED"; msg: string } } | null;
    lastTool?: string;
  };
  // Just back from a confirmation: say how it went.
  if (memory.lastResult) {
    const result = memory.lastResult;
    const text = result.ok
      ? say("ordered", lang, { total: (result.data as { total: number }).total })
      : result.error.code === "CANCELLED"
      ? say("cancelled", lang)
      : say("failed", lang, { msg: result.error.msg });
    return { replies: [{ text }], memory: { lastResult: null, lastTool: undefined } };
  }
  const choice = state.input.choice ?? "";

  switch (state.agent) {
    case "waiter_ai": {
      if (choice.startsWith("item:") && memory.venue) {
        return await orderOne(state, call, memory.venue, choice.slice(5));
      }
      if (choice.startsWith("venue:")) {
        const venue = choice.slice(6);
        const items = rows<{ sku: string; name: string; price: number }>(
          await call("search_supabase", {
            table: "products",
            columns: ["sku", "name", "price"],
            filters: [{ column: "business_id", op: "eq", value: venue }, {
              column: "is_available",
              op: "eq",
              value: true,
            }],
            order: { column: "name", ascending: true },
            limit: 10,
          }, "menu"),
        );
        return {
          memory: { venue, venueName: state.input.text },
          replies: [{
            text: say("menu", lang, { venue: state.input.text }),
            rows: items.map((item) => ({
              id: `item:${item.sku}`,
              title: item.name.slice(0, 24),
              description: `${item.price} RWF`,
            })),
          }],
        };
      }
      const venues = rows<{ id: string; name: string; area: string }>(
        await call("search_supabase", {
          table: "businesses",
          columns: ["id", "name", "area"],
          filters: [{ column: "category", op: "eq", value: "restaurant" }],
          limit: 10,
        }, "venues"),
      );
      return {
        replies: [{
          text: say("venues", lang),
          rows: venues.map((venue) => ({
            id: `venue:${venue.id}`,
            title: venue.name.slice(0, 24),
            description: venue.area ?? undefined,
          })),
        }],
      };
    }
    case "pharmacy": {
      if (choice.startsWith("item:") && memory.venue) {
        return await orderOne(state, call, memory.venue, choice.slice(5));
      }
      const query = state.input.text.replace(/[^\p{L}\p{N}\s-]/gu, " ").replace(
        /\b(pharmacy|pharmacie|farumasi|medicine|i need|need|do you have|nde|imiti|umuti)\b/gi,
        "",
      ).replace(/\s+/g, " ").trim();
      if (query.length < 3) return { replies: [{ text: say("askItem", lang) }] };
      const stock = await call("inventory_check", { items: [{ name: query }] }, "stock");
      const [item] = stock.ok
        ? (stock.data as {
          items: Array<
            { sku: string; name: string; price: number; available: boolean; venue_id: string }
          >;
        }).items
        : [];
      if (!item) return { replies: [{ text: say("notFound", lang, { q: query }) }] };
      const [venue] = rows<{ name: string }>(
        await call("search_supabase", {
          table: "businesses",
          columns: ["name"],
          filters: [{ column: "id", op: "eq", value: item.venue_id }],
          limit: 1,
        }, "venue"),
      );
      return {
        memory: { venue: item.venue_id, venueName: venue?.name },
        replies: [{
          text: say("found", lang, {
            name: item.name,
            price: item.price,
            venue: venue?.name ?? "",
            stock: item.available ? T.inStock[lang] : T.outOfStock[lang],
          }),
          buttons: item.available
            ? [{ id: `item:${item.sku}`, title: T.orderIt[lang] }]
            : undefined,
        }],
      };
    }
    case "buy_and_sell":
      return { replies: [{ text: say("buySell", lang) }], memory: { delegate: "buy_and_sell" } };
    default:
      return {
        replies: [{
          text: say("welcome", lang),
          rows: AGENT_MENU.map((entry) => ({ id: `agent:${entry.id}`, title: entry.title[lang] })),
        }],
      };
  }
}

async function orderOne(
  state: OfflineTurn,
  call: Call,
  venue: string,
  sku: string,
): Promise<Update> {
  const args = { venue_id: venue, items: [{ sku, qty: 1 }] };
  const key = `${state.input.wamid}:order`;
  const result = await call("order_create", args, "order");
  if (!result.ok && result.error.code === "CONFIRMATION_REQUIRED") {
    const pending: PendingCall = {
      tool: "order_create",
      args,
      key,
      summary: result.error.confirmation?.summary ?? result.error.msg,
      callId: "order",
    };
    return { pending };
  }
  return { memory: { lastResult: result }, replies: [] as AgentReply[] };
}
