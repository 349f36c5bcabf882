/**
 * The buy & sell concierge as a deterministic WhatsApp flow (the tool catalog's buy & sell section):
 * the buyer says what they want (and may share a location), sees nearby
 * vendors, consents with a button, and the vendors are asked on their
 * behalf; "updates" shows the answers ranked. English, Kinyarwanda, French.
 *
 * @module
 */
import { shortenTitle, TITLE_LIMITS } from "@shared/contract/titles.ts";
import type {
  ConversationHandler,
  ConversationTurn,
} from "@shared/channels/whatsapp/conversation.ts";
import { messageText } from "@shared/channels/whatsapp/inbound.ts";
import {
  buttonsMessage,
  listMessage,
  textMessage,
  type WhatsAppMessage,
} from "@shared/channels/whatsapp/mod.ts";
import { asksForPerson, type Language, languageOf, phraseBook } from "@shared/contract/language.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import { formatKigaliTime, formatRwf } from "@shared/capabilities/format/mod.ts";
import { z } from "zod";
import { callTyped, readData } from "@shared/registry/tool_call.ts";
import { itemLine, requestedItem } from "./request_item.ts";
import { chooseVendorForInquiry, vendorNotConfirmed } from "./choose_vendor.ts";
import { orderCreate } from "./orders.ts";
import { searchBusinessesWithTags } from "./search_businesses.ts";
import { createVendorInquiries, getVendorInquiryUpdates } from "./vendor_inquiries.ts";

// Tools of other packs, as this flow reads them: the fields it uses of their outputs, parsed on
// reading (a pack does not import another pack's definitions).
const notifyStaff = {
  name: "notify_staff",
  output: z.object({ estimated_response_time: z.string() }),
};
const momoCharge = {
  name: "momo_charge",
  output: z.object({
    payment_link: z.string(),
    ussd_code: z.string(),
    momo_ref: z.string(),
    amount: z.number(),
    expires_at: z.string(),
    payee: z.string(),
  }),
};
import { PICK_PREFIX, UPDATES_BUTTON } from "./texts.ts";

/** The vendor the buyer chose, as `choose_vendor_for_inquiry` answered. */
export interface ChosenVendor {
  business_id: string;
  business_name: string;
  vendor_phone: string;
  whatsapp_link: string;
  item: string;
  quantity?: number;
  price?: number;
  total?: number;
  product?: { sku: string; name: string; price: number; available: boolean };
}

/** A tool call waiting for the buyer's Confirm. */
interface PendingCall {
  tool: string;
  args: Record<string, unknown>;
  key: string;
  token: string;
}

/** The flow's saved state. */
export type ConciergeState = {
  step?: "idle" | "await_consent" | "await_replies" | "chosen" | "await_confirm";
  language?: Language;
  query?: string;
  business_ids?: string[];
  inquiry_id?: string;
  lat?: number;
  lng?: number;
  /** The ids of the buttons or rows of the last interactive message this flow sent, in order. */
  choices?: string[];
  /** Vendors who had said YES when those choices were sent (a newer YES message supersedes them). */
  choices_yes?: number;
  /** The vendor the buyer chose. */
  chosen?: ChosenVendor;
  /** A call waiting for the buyer's Confirm. */
  pending?: PendingCall;
};

/** The flow's own buttons. */
const BUTTON = {
  ask: "concierge_ask",
  cancel: "concierge_cancel",
  order: "concierge_order",
  noOrder: "concierge_no_order",
  confirm: "concierge_confirm",
  decline: "concierge_decline",
  person: "concierge_person",
} as const;

const WORDS = {
  updates: /^(updates?|status|amakuru|infos?|nouvelles|\?)$/i,
  cancel: /^(cancel|stop|reka|oya reka|annuler|arrête|arrete)$/i,
  // Someone selling, not buying: "I want to sell my Toyota RAV4", "ndashaka kugurisha imodoka",
  // "je veux vendre ma voiture". No listing exists for sellers yet.
  sell:
    /\b(sell(ing)? my|i (want|would like|need) to sell|i'?m selling|i am selling|for sale|kugurisha|ndagurisha|ndashaka kugurisha|je (veux |voudrais |souhaite )?vendre|je vends|à vendre|a vendre)\b/i,
  // Only a greeting on its own: "hello, I need paracetamol" is a request.
  greeting:
    /^(hi|hello|hey|menu|help|start|muraho|mwaramutse|mwiriwe|bonjour|salut|aide)[\s!.,?]*$/i,
  rw: /\b(muraho|ndashaka|nshaka|amakuru|mwaramutse|mwiriwe|murakoze|yego|reka|ese|mufite)\b/i,
  fr: /\b(bonjour|je|cherche|voudrais|besoin|salut|merci|avez|oui|annuler)\b/i,
};

/** What the concierge flow says. */
export const CONCIERGE_TEXTS = {
  welcome: {
    en: "Hi! Tell me what you are looking for (e.g. “paracetamol” or “used HP laptop”). " +
      "Share your location 📍 to find vendors near you.",
    rw: "Muraho! Mbwira icyo ushaka (urugero: “paracetamol” cyangwa “mudasobwa HP”). " +
      "Ohereza aho uri 📍 tubone abacuruzi bakwegereye.",
    fr: "Bonjour ! Dites-moi ce que vous cherchez (ex. « paracétamol » ou « PC HP d'occasion »). " +
      "Partagez votre position 📍 pour trouver des vendeurs proches.",
  },
  gotLocation: {
    en: "Got your location. What are you looking for?",
    rw: "Twabonye aho uri. Urashaka iki?",
    fr: "Position reçue. Que cherchez-vous ?",
  },
  none: {
    en: "I found no vendor for “{q}”. Try other words, or share your location 📍.",
    rw: "Nta mucuruzi nabonye wa “{q}”. Gerageza andi magambo, cyangwa ohereza aho uri 📍.",
    fr: "Aucun vendeur trouvé pour « {q} ». Essayez d'autres mots, ou partagez votre position 📍.",
  },
  found: {
    en:
      "I found {n} vendor(s) for “{q}”:\n{list}\nShall I ask them for you? They will see your request, not your number.",
    rw:
      "Nabonye abacuruzi {n} ba “{q}”:\n{list}\nMbabaze mu izina ryawe? Bazabona icyo ushaka, ntibazabona nimero yawe.",
    fr:
      "J'ai trouvé {n} vendeur(s) pour « {q} » :\n{list}\nJe leur demande pour vous ? Ils verront votre demande, pas votre numéro.",
  },
  ask: { en: "Ask them", rw: "Babaze", fr: "Demander" },
  cancelButton: { en: "Cancel", rw: "Reka", fr: "Annuler" },
  asked: {
    en:
      "I asked {n} vendor(s). I will tell you as they answer (about 2 minutes). Reply UPDATES any time.",
    rw:
      "Nabajije abacuruzi {n}. Nzakubwira uko basubiza (nk'iminota 2). Andika AMAKURU igihe cyose.",
    fr:
      "J'ai demandé à {n} vendeur(s). Je vous préviens dès qu'ils répondent (environ 2 minutes). Répondez INFOS à tout moment.",
  },
  cancelled: {
    en: "OK, cancelled. Tell me what else you need.",
    rw: "Byakuweho. Mbwira ikindi ukeneye.",
    fr: "D'accord, annulé. Dites-moi ce dont vous avez besoin.",
  },
  noInquiry: {
    en: "You have no open request. Tell me what you are looking for.",
    rw: "Nta cyifuzo ufite. Mbwira icyo ushaka.",
    fr: "Vous n'avez pas de demande en cours. Dites-moi ce que vous cherchez.",
  },
  sorry: {
    en: "Sorry, something went wrong. Please try again in a moment.",
    rw: "Mutwihanganire, habaye ikibazo. Ongera ugerageze nyuma gato.",
    fr: "Désolé, un problème est survenu. Réessayez dans un instant.",
  },
  selling: {
    en:
      "I can only help you buy here: I find vendors who have what you need. Listing something for sale is not available yet. A person from our team can advise you on selling it.",
    rw:
      "Hano nshobora kugufasha kugura gusa: nshakira abacuruzi bafite icyo ukeneye. Gushyira ikintu ku isoko ngo kigurishwe ntibirashoboka. Umukozi wacu ashobora kukugira inama yo kukigurisha.",
    fr:
      "Ici, je peux seulement vous aider à acheter : je trouve les vendeurs qui ont ce qu'il vous faut. Mettre un article en vente n'est pas encore possible. Une personne de notre équipe peut vous conseiller pour le vendre.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
  handedOff: {
    en:
      "I have asked a person from our team to help you. They will answer here (usually within {eta}).",
    rw: "Nasabye umukozi wacu kugufasha. Azagusubiza hano (akenshi mu {eta}).",
    fr:
      "J'ai demandé à une personne de notre équipe de vous aider. Elle répondra ici (en général sous {eta}).",
  },
  media: {
    en: "Thanks! I can't read pictures or files yet: please type what you are looking for.",
    rw: "Murakoze! Sinshobora gusoma amafoto cyangwa amadosiye: andika icyo ushaka.",
    fr: "Merci ! Je ne lis pas encore les images ou fichiers : écrivez ce que vous cherchez.",
  },
  pickNumber: {
    en: "Please choose a number from 1 to {n}, or tap an option. Type 0 for the main menu.",
    rw:
      "Hitamo nimero kuva kuri 1 kugeza kuri {n}, cyangwa ukande ku cyo wahisemo. Andika 0 usubire ahabanza.",
    fr: "Choisissez un numéro de 1 à {n}, ou touchez une option. Tapez 0 pour le menu principal.",
  },
  noChoices: {
    en:
      "There is nothing to choose right now. Tell me what you are looking for by name, or type 0 for the main menu.",
    rw:
      "Nta cyo guhitamo gihari ubu. Mbwira izina ry'icyo ushaka, cyangwa wandike 0 usubire ahabanza.",
    fr:
      "Il n'y a rien à choisir pour l'instant. Dites-moi ce que vous cherchez par son nom, ou tapez 0 pour le menu principal.",
  },
  chooseVendor: { en: "Choose a vendor", rw: "Hitamo umucuruzi", fr: "Choisir un vendeur" },
  vendors: { en: "Vendors", rw: "Abacuruzi", fr: "Vendeurs" },
  chosen: {
    en: "You chose {name}. Because you picked them, we shared your name and number with them, " +
      "and theirs with you:\n📞 {phone}\n💬 {link}\nAgreed: {deal}\nShall I create the order and a MoMo payment?",
    rw: "Wahisemo {name}. Kubera ko ari wowe wabahisemo, twabahaye izina ryawe na nimero yawe, " +
      "natwe tuguha izabo:\n📞 {phone}\n💬 {link}\nIbyo mwumvikanyeho: {deal}\nNkore komande n'ubwishyu bwa MoMo?",
    fr:
      "Vous avez choisi {name}. Comme vous l'avez choisi, nous lui avons transmis votre nom et votre numéro, " +
      "et voici les siens :\n📞 {phone}\n💬 {link}\nConvenu : {deal}\nJe crée la commande et un paiement MoMo ?",
  },
  orderButton: { en: "Order & pay", rw: "Tumiza wishyure", fr: "Commander, payer" },
  noOrderButton: { en: "No, thanks", rw: "Oya, murakoze", fr: "Non merci" },
  noOrder: {
    en: "OK. Contact {name} directly: {phone}. Type 0 for the main menu.",
    rw: "Ni byiza. Vugana na {name} ubwawe: {phone}. Andika 0 usubire ahabanza.",
    fr: "D'accord. Contactez {name} directement : {phone}. Tapez 0 pour le menu principal.",
  },
  notConfirmed: {
    en: "{name} has not confirmed they have it yet. Reply UPDATES to see who has.",
    rw: "{name} ntiremeza ko ibifite. Andika AMAKURU urebe abafite.",
    fr: "{name} n'a pas encore confirmé l'avoir. Répondez INFOS pour voir qui l'a.",
  },
  confirmOrder: {
    en: "Please confirm: order {deal} from {name}.",
    rw: "Emeza: gutumiza {deal} kwa {name}.",
    fr: "Veuillez confirmer : commander {deal} chez {name}.",
  },
  confirmPay: {
    en: "Please confirm: pay {amount} to {name} for {deal} with MoMo from {phone}.",
    rw: "Emeza: kwishyura {amount} {name} kuri {deal} ukoresheje MoMo ya {phone}.",
    fr: "Veuillez confirmer : payer {amount} à {name} pour {deal} par MoMo depuis {phone}.",
  },
  confirmButton: { en: "Confirm", rw: "Emeza", fr: "Confirmer" },
  ordered: {
    en: "Order {order} placed with {name}: {total}.",
    rw: "Komande {order} yoherejwe kwa {name}: {total}.",
    fr: "Commande {order} passée chez {name} : {total}.",
  },
  pay: {
    en:
      "To pay {amount} to {payee} with MoMo, dial {code} (or tap {link}). Reference {ref}, valid until {until}. " +
      "I will tell you when the payment arrives.",
    rw:
      "Kwishyura {amount} kuri {payee} na MoMo, kanda {code} (cyangwa ukande kuri {link}). Nimero y'ubwishyu {ref}, " +
      "kugeza {until}. Nzakubwira ubwishyu nibugera.",
    fr:
      "Pour payer {amount} à {payee} par MoMo, composez {code} (ou touchez {link}). Référence {ref}, valable jusqu'à {until}. " +
      "Je vous préviens dès que le paiement arrive.",
  },
  payUnavailable: {
    en: "Payment isn't available here yet: pay {name} directly ({phone}) when you collect it.",
    rw: "Kwishyura hano ntibirashoboka: wishyure {name} ubwawe ({phone}) igihe ubifata.",
    fr:
      "Le paiement n'est pas encore disponible ici : payez {name} directement ({phone}) au retrait.",
  },
  noPrice: {
    en: "{name} gave no price, so I can't prepare a payment: agree it with them at {phone}.",
    rw: "{name} ntiyatanze igiciro, sinshobora gutegura ubwishyu: mwumvikane kuri {phone}.",
    fr:
      "{name} n'a pas donné de prix, je ne peux pas préparer le paiement : convenez-en au {phone}.",
  },
  orderFailed: {
    en: "I could not place the order ({reason}). You can still contact {name}: {phone}.",
    rw: "Sinashoboye gutumiza ({reason}). Ushobora kuvugana na {name}: {phone}.",
    fr: "Je n'ai pas pu passer la commande ({reason}). Vous pouvez contacter {name} : {phone}.",
  },
  declined: {
    en:
      "OK, nothing was ordered or charged. Contact {name} at {phone}, or type 0 for the main menu.",
    rw:
      "Ni byiza, nta komande cyangwa ubwishyu byakozwe. Vugana na {name} kuri {phone}, cyangwa wandike 0.",
    fr: "D'accord, rien n'a été commandé ni débité. Contactez {name} au {phone}, ou tapez 0.",
  },
} as const;

const say = phraseBook(CONCIERGE_TEXTS);

interface Updates {
  status: string;
  vendor_count: number;
  replied_count: number;
  confirmed_count?: number;
  replies: Array<{
    business_id?: string;
    business_name: string;
    status: string;
    price?: number;
    quantity?: number;
    distance_km?: number;
    replied_at?: string;
  }>;
}

/** "PT1H30M" → "1 h 30 min", for people. */
export function humanDuration(iso: string): string {
  const match = /^PT(?:(\d+)H)?(?:(\d+)M)?$/.exec(iso);
  if (!match) return iso;
  const [hours, minutes] = [Number(match[1] ?? 0), Number(match[2] ?? 0)];
  return [hours ? `${hours} h` : "", minutes ? `${minutes} min` : ""].filter(Boolean).join(" ") ||
    "1 min";
}

/** The WhatsApp text for an inquiry's answers. */
export function formatUpdates(updates: Updates, language: Language): string {
  // The inquiry's status in the reader's words, not the database's English.
  const status = {
    pending: { en: "waiting", rw: "turacyategereje", fr: "en attente" },
    partial: { en: "in progress", rw: "biracyaza", fr: "en cours" },
    complete: { en: "complete", rw: "byuzuye", fr: "terminé" },
    expired: { en: "expired", rw: "byarangiye", fr: "expiré" },
    cancelled: { en: "withdrawn", rw: "byahagaritswe", fr: "retirée" },
  }[updates.status]?.[language] ?? updates.status;
  const head = {
    en: `Answers: ${updates.replied_count} of ${updates.vendor_count} (${status})`,
    rw: `Ibisubizo: ${updates.replied_count} kuri ${updates.vendor_count} (${status})`,
    fr: `Réponses : ${updates.replied_count} sur ${updates.vendor_count} (${status})`,
  }[language];
  const icon = { yes: "✅", no: "❌", other: "💬", pending: "⏳" } as Record<string, string>;
  const lines = updates.replies.map((reply) => {
    const price = reply.price !== undefined ? ` — ${formatRwf(reply.price, language)}` : "";
    const qty = reply.quantity !== undefined ? ` × ${reply.quantity}` : "";
    const km = reply.distance_km !== undefined ? ` · ${reply.distance_km.toFixed(1)} km` : "";
    return `${icon[reply.status] ?? "•"} ${reply.business_name}${price}${qty}${km}`;
  });
  return [head, ...lines].join("\n");
}

// "2", "2.", "option 2", "n°2", "2️⃣": a number typed to pick an option, or null.
function typedNumber(text: string): number | null {
  const match =
    /^\s*(?:option|choice|choix|no|n°|nº|#|numero|nimero)?\s*(\d{1,2})\s*(?:\uFE0F?\u20E3)?\s*[.)!]?\s*$/i
      .exec(text);
  return match === null ? null : Number(match[1]);
}

type Outcome = { replies: WhatsAppMessage[]; state: ConciergeState; handoff?: boolean };

/** The concierge flow as a conversation handler. */
export const conciergeFlow: ConversationHandler = async (turn) => {
  const state = { step: "idle", ...turn.user.state } as ConciergeState;
  const content = turn.message.content;
  const text = messageText(content).trim();
  // The router's choice when it ran (per message, sticky preference), else the words.
  const language: Language = turn.language ??
    (text ? languageOf(text, state.language ?? turn.user.locale) : state.language ??
      turn.user.locale);
  // A text reply supersedes the buttons shown before it: only the latest choices count.
  const reply = (...replies: WhatsAppMessage[]): Outcome => ({
    replies,
    state: {
      ...state,
      language,
      ...(replies.some((message) => message.kind !== "text") ? {} : { choices: [] }),
    },
  });

  if (content.kind === "location") {
    state.lat = content.latitude;
    state.lng = content.longitude;
    if (state.step === "await_consent" && state.query) {
      return await search(turn, state, state.query, language);
    }
    return reply(textMessage(say("gotLocation", language)));
  }
  if (content.kind === "media") return reply(textMessage(say("media", language)));

  let button = content.kind === "button_reply" || content.kind === "list_reply"
    ? content.id
    : undefined;
  // A number typed at a menu picks that option of the latest one; it is never a product.
  const number = content.kind === "text" ? typedNumber(text) : null;
  if (number !== null) {
    const choices = await latestChoices(turn, state);
    if (!choices.length) return reply(textMessage(say("noChoices", language)));
    if (number < 1 || number > choices.length) {
      return { replies: [textMessage(say("pickNumber", language, { n: choices.length }))], state };
    }
    button = choices[number - 1];
  }

  if (button === BUTTON.ask && state.step === "await_consent" && state.business_ids?.length) {
    const asked = requestedItem(state.query ?? "");
    const result = await callTyped(turn.callTool, createVendorInquiries, {
      user_phone: turn.user.phone,
      business_ids: state.business_ids,
      request_type: "product",
      request_summary: state.query,
      structured_payload: {
        item: asked.item,
        ...(asked.quantity ? { quantity: asked.quantity } : {}),
      },
      user_lat: state.lat,
      user_lng: state.lng,
      language,
      consent: true,
    }, { step: "inquiry" });
    if (!result.ok) return reply(textMessage(say("sorry", language)));
    const data = result.data;
    Object.assign(state, {
      step: "await_replies",
      inquiry_id: data.inquiry_id,
      business_ids: [],
      chosen: undefined,
      pending: undefined,
    });
    return reply(textMessage(say("asked", language, { n: data.messages_sent })));
  }
  if (button === BUTTON.cancel || WORDS.cancel.test(text)) {
    Object.assign(state, {
      step: "idle",
      query: undefined,
      business_ids: [],
      inquiry_id: undefined,
      chosen: undefined,
      pending: undefined,
    });
    return reply(textMessage(say("cancelled", language)));
  }
  if (button?.startsWith(PICK_PREFIX) && state.inquiry_id) {
    return await choose(turn, state, button.slice(PICK_PREFIX.length), language);
  }
  if (button === BUTTON.order && state.chosen) return await orderAndPay(turn, state, language);
  if (button === BUTTON.noOrder && state.chosen) {
    const { business_name: name, vendor_phone: phone } = state.chosen;
    return reply(textMessage(say("noOrder", language, { name, phone })));
  }
  if (button === BUTTON.confirm && state.pending) return await confirmed(turn, state, language);
  if (button === BUTTON.decline && state.pending) {
    state.pending = undefined;
    state.step = state.chosen ? "chosen" : "idle";
    const name = state.chosen?.business_name ?? "";
    const phone = state.chosen?.vendor_phone ?? "";
    return reply(textMessage(say("declined", language, { name, phone })));
  }
  if (button === BUTTON.person || asksForPerson(text)) {
    const result = await callTyped(turn.callTool, notifyStaff, {
      channel: "inbox",
      payload: {
        convo_id: turn.user.conversationId,
        reason: "asked for a person",
        summary: text.slice(0, 2000),
        priority: "medium",
      },
    }, { step: "handoff" });
    if (!result.ok) return reply(textMessage(say("sorry", language)));
    const eta = humanDuration(result.data.estimated_response_time);
    return { ...reply(textMessage(say("handedOff", language, { eta }))), handoff: true };
  }
  if (button === UPDATES_BUTTON || WORDS.updates.test(text)) {
    if (!state.inquiry_id) return reply(textMessage(say("noInquiry", language)));
    const result = await callTyped(turn.callTool, getVendorInquiryUpdates, {
      inquiry_id: state.inquiry_id,
    });
    if (!result.ok) return reply(textMessage(say("sorry", language)));
    return showUpdates(state, result.data, language);
  }
  // A tap on a button of an earlier message that no longer applies: say what can be done now.
  if (button !== undefined) return reply(textMessage(say("noChoices", language)));
  if (!text || WORDS.greeting.test(text)) return reply(textMessage(say("welcome", language)));
  // Never searched as an item to buy: the seller is told plainly, and offered a person.
  if (WORDS.sell.test(text)) {
    return reply(buttonsMessage({
      body: say("selling", language),
      buttons: [{ id: BUTTON.person, title: say("person", language) }],
    }));
  }
  return await search(turn, state, text, language);
};

/**
 * The choices of the latest interactive message the buyer got from us: the
 * flow's own (saved with its state), unless a vendor said YES since — then
 * it is that vendor's message ("Choose this one", "All answers").
 */
async function latestChoices(turn: ConversationTurn, state: ConciergeState): Promise<string[]> {
  const own = state.choices ?? [];
  if (!state.inquiry_id || (state.step !== "await_replies" && state.step !== "chosen")) return own;
  const result = await callTyped(turn.callTool, getVendorInquiryUpdates, {
    inquiry_id: state.inquiry_id,
  }, { step: "choices" });
  if (!result.ok) return own;
  const updates = result.data;
  if ((updates.confirmed_count ?? 0) <= (state.choices_yes ?? 0)) return own;
  const newest = updates.replies
    .filter((answer) => answer.status === "yes" && answer.business_id)
    .sort((a, b) => (b.replied_at ?? "").localeCompare(a.replied_at ?? ""))[0];
  return newest ? [`${PICK_PREFIX}${newest.business_id}`, UPDATES_BUTTON] : own;
}

function showUpdates(state: ConciergeState, updates: Updates, language: Language): Outcome {
  const body = formatUpdates(updates, language).slice(0, 1024);
  const yes = updates.replies.filter((answer) => answer.status === "yes" && answer.business_id)
    .slice(0, 10);
  const confirmedYes = updates.confirmed_count ?? yes.length;
  if (!yes.length) {
    return {
      replies: [textMessage(body)],
      state: { ...state, language, choices: [], choices_yes: confirmedYes },
    };
  }
  const rows = yes.map((answer) => ({
    id: `${PICK_PREFIX}${answer.business_id}`,
    title: shortenTitle(answer.business_name, TITLE_LIMITS.row),
    description: shortenTitle(
      [
        answer.price !== undefined
          ? `${formatRwf(answer.price, language)}${
            answer.quantity !== undefined ? ` × ${answer.quantity}` : ""
          }`
          : "",
        answer.distance_km !== undefined ? `${answer.distance_km.toFixed(1)} km` : "",
      ].filter(Boolean).join(" · "),
      TITLE_LIMITS.description,
    ) || undefined,
  }));
  return {
    replies: [listMessage({
      body,
      button: shortenTitle(say("chooseVendor", language), TITLE_LIMITS.button),
      sections: [{
        title: shortenTitle(say("vendors", language), TITLE_LIMITS.section),
        rows: rows.map(({ description, ...row }) => description ? { ...row, description } : row),
      }],
    })],
    state: {
      ...state,
      language,
      choices: rows.map((row) => row.id),
      choices_yes: confirmedYes,
    },
  };
}

function deal(chosen: ChosenVendor, language: Language): string {
  const line = itemLine({ item: chosen.item, quantity: chosen.quantity });
  return chosen.price !== undefined
    ? `${line} — ${formatRwf(chosen.price, language)}${
      chosen.quantity && chosen.quantity > 1
        ? ` × ${chosen.quantity} = ${formatRwf(chosen.total!, language)}`
        : ""
    }`
    : line;
}

async function choose(
  turn: ConversationTurn,
  state: ConciergeState,
  businessId: string,
  language: Language,
): Promise<Outcome> {
  const result = await callTyped(turn.callTool, chooseVendorForInquiry, {
    inquiry_id: state.inquiry_id,
    business_id: businessId,
  }, { step: "choose" });
  if (!result.ok) {
    const text = result.error.code === "CONFLICT"
      ? say("notConfirmed", language, { name: vendorNotConfirmed(result.error) ?? "" })
      : result.error.code === "NOT_FOUND"
      ? say("noInquiry", language)
      : say("sorry", language);
    return { replies: [textMessage(text)], state: { ...state, language, choices: [] } };
  }
  const chosen = result.data;
  return {
    replies: [buttonsMessage({
      body: say("chosen", language, {
        name: chosen.business_name,
        phone: chosen.vendor_phone,
        link: chosen.whatsapp_link,
        deal: deal(chosen, language),
      }).slice(0, 1024),
      buttons: [
        { id: BUTTON.order, title: say("orderButton", language) },
        { id: BUTTON.noOrder, title: say("noOrderButton", language) },
      ],
    })],
    state: {
      ...state,
      language,
      step: "chosen",
      chosen,
      pending: undefined,
      choices: [BUTTON.order, BUTTON.noOrder],
    },
  };
}

/** Places the order (when the vendor stocks the item), then asks for the MoMo payment. */
async function orderAndPay(
  turn: ConversationTurn,
  state: ConciergeState,
  language: Language,
): Promise<Outcome> {
  const chosen = state.chosen!;
  const base = `concierge:${state.inquiry_id}:${chosen.business_id}`;
  if (chosen.product?.available) {
    const args = {
      venue_id: chosen.business_id,
      items: [{
        sku: chosen.product.sku,
        qty: chosen.quantity ?? 1,
        name: chosen.product.name,
        ...(chosen.price !== undefined ? { price: chosen.price } : {}),
      }],
      notes: `Buy & sell: ${itemLine({ item: chosen.item, quantity: chosen.quantity })}`,
    };
    return await callOrConfirm(turn, state, language, "order_create", args, `${base}:order`);
  }
  return await charge(turn, state, language, {});
}

/** A call that may need the buyer's confirmation: asks for it, or goes on with the result. */
async function callOrConfirm(
  turn: ConversationTurn,
  state: ConciergeState,
  language: Language,
  tool: string,
  args: Record<string, unknown>,
  key: string,
  token?: string,
): Promise<Outcome> {
  const result = await turn.callTool(tool, args, { key, confirmation: token });
  if (!result.ok && result.error.code === "CONFIRMATION_REQUIRED" && result.error.confirmation) {
    const chosen = state.chosen!;
    const facts = {
      name: chosen.business_name,
      deal: deal(chosen, language),
      amount: formatRwf(Number(args.amount ?? chosen.total ?? 0), language),
      phone: turn.user.phone,
    };
    return {
      replies: [buttonsMessage({
        body: say(tool === "order_create" ? "confirmOrder" : "confirmPay", language, facts),
        buttons: [
          { id: BUTTON.confirm, title: say("confirmButton", language) },
          { id: BUTTON.decline, title: CONCIERGE_TEXTS.cancelButton[language] },
        ],
      })],
      state: {
        ...state,
        language,
        step: "await_confirm",
        pending: { tool, args, key, token: result.error.confirmation.token },
        choices: [BUTTON.confirm, BUTTON.decline],
      },
    };
  }
  return await after(
    turn,
    { ...state, pending: undefined, step: "chosen" },
    language,
    tool,
    result,
  );
}

async function confirmed(
  turn: ConversationTurn,
  state: ConciergeState,
  language: Language,
): Promise<Outcome> {
  const pending = state.pending!;
  return await callOrConfirm(
    turn,
    state,
    language,
    pending.tool,
    pending.args,
    pending.key,
    pending.token,
  );
}

/** What follows a call: after the order, the payment; after the payment, how to pay. */
async function after(
  turn: ConversationTurn,
  state: ConciergeState,
  language: Language,
  tool: string,
  result: ToolResult,
): Promise<Outcome> {
  const chosen = state.chosen!;
  const contact = { name: chosen.business_name, phone: chosen.vendor_phone };
  if (tool === "order_create") {
    if (!result.ok) {
      return {
        replies: [
          textMessage(say("orderFailed", language, { ...contact, reason: result.error.msg })),
        ],
        state: { ...state, language, choices: [] },
      };
    }
    const order = readData(orderCreate, result.data);
    const placed = textMessage(
      say("ordered", language, {
        order: order.order_no ?? "",
        name: chosen.business_name,
        total: formatRwf(order.total, language),
      }).replace("  ", " "),
    );
    const next = await charge(turn, state, language, {
      order_id: order.order_id,
      amount: order.total,
    });
    return { ...next, replies: [placed, ...next.replies] };
  }
  if (!result.ok) {
    // No payment tool here (yet): say so, and how to pay instead.
    if (result.error.code === "NOT_FOUND" && /^Unknown tool/.test(result.error.msg)) {
      return {
        replies: [textMessage(say("payUnavailable", language, contact))],
        state: { ...state, language, choices: [] },
      };
    }
    return {
      replies: [
        textMessage(say("orderFailed", language, { ...contact, reason: result.error.msg })),
      ],
      state: { ...state, language, choices: [] },
    };
  }
  const payment = readData(momoCharge, result.data);
  return {
    replies: [textMessage(say("pay", language, {
      amount: formatRwf(payment.amount, language),
      // Who is paid, by name beside the number: a bare number reads like a scam.
      payee: payment.payee,
      code: payment.ussd_code,
      link: payment.payment_link,
      ref: payment.momo_ref,
      until: formatKigaliTime(payment.expires_at),
    }))],
    state: { ...state, language, choices: [] },
  };
}

/** Asks `momo_charge` for the agreed amount: for the order, else to the vendor's number. */
async function charge(
  turn: ConversationTurn,
  state: ConciergeState,
  language: Language,
  order: { order_id?: string; amount?: number },
): Promise<Outcome> {
  const chosen = state.chosen!;
  const amount = order.amount ?? chosen.total;
  if (amount === undefined || amount <= 0) {
    return {
      replies: [textMessage(say("noPrice", language, {
        name: chosen.business_name,
        phone: chosen.vendor_phone,
      }))],
      state: { ...state, language, choices: [] },
    };
  }
  const key = `concierge:${state.inquiry_id}:${chosen.business_id}:charge`;
  const args = {
    amount,
    currency: "RWF",
    phone: turn.user.phone,
    memo: `${itemLine({ item: chosen.item, quantity: chosen.quantity })} — ${chosen.business_name}`
      .slice(0, 140),
    idempotency_key: key,
    ...(order.order_id ? { order_id: order.order_id } : { payee_phone: chosen.vendor_phone }),
    metadata: { inquiry_id: state.inquiry_id, business_id: chosen.business_id },
  };
  return await callOrConfirm(turn, state, language, "momo_charge", args, key);
}

async function search(
  turn: ConversationTurn,
  state: ConciergeState,
  query: string,
  language: Language,
): Promise<Outcome> {
  // Searched by the item itself, not the greeting and "I am looking for" around it.
  const asked = requestedItem(query);
  const result = await callTyped(turn.callTool, searchBusinessesWithTags, {
    query_text: asked.item,
    user_lat: state.lat,
    user_lng: state.lng,
    limit: 5,
  });
  if (!result.ok) {
    return { replies: [textMessage(say("sorry", language))], state: { ...state, language } };
  }
  const vendors = result.data;
  if (!vendors.length) {
    return {
      replies: [textMessage(say("none", language, { q: itemLine(asked) }))],
      state: { ...state, step: "idle", language, choices: [] },
    };
  }
  const list = vendors.map((vendor, index) =>
    `${index + 1}. ${vendor.name}${
      vendor.distance_km !== undefined ? ` (${vendor.distance_km.toFixed(1)} km)` : ""
    }`
  ).join("\n");
  return {
    replies: [buttonsMessage({
      body: say("found", language, { n: vendors.length, q: itemLine(asked), list }),
      buttons: [
        { id: BUTTON.ask, title: CONCIERGE_TEXTS.ask[language] },
        { id: BUTTON.cancel, title: CONCIERGE_TEXTS.cancelButton[language] },
      ],
    })],
    state: {
      ...state,
      step: "await_consent",
      query,
      business_ids: vendors.map((vendor) => vendor.id),
      language,
      choices: [BUTTON.ask, BUTTON.cancel],
      choices_yes: 0,
    },
  };
}
