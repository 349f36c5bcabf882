/**
 * The buy & sell concierge as a deterministic WhatsApp flow (seed 000 H):
 * the buyer says what they want (and may share a location), sees nearby
 * vendors, consents with a button, and the vendors are asked on their
 * behalf; "updates" shows the answers ranked. English, Kinyarwanda, French.
 *
 * @module
 */
import type {
  ConversationHandler,
  ConversationTurn,
} from "@shared/channels/whatsapp/conversation.ts";
import { messageText } from "@shared/channels/whatsapp/inbound.ts";
import {
  buttonsMessage,
  textMessage,
  type WhatsAppMessage,
} from "@shared/channels/whatsapp/mod.ts";
import { asksForPerson, type Language, languageOf, phraseBook } from "@shared/contract/language.ts";

/** The flow's saved state. */
export interface ConciergeState {
  step?: "idle" | "await_consent" | "await_replies";
  language?: Language;
  query?: string;
  business_ids?: string[];
  inquiry_id?: string;
  lat?: number;
  lng?: number;
}

const WORDS = {
  updates: /^(updates?|status|amakuru|infos?|nouvelles|\?)$/i,
  cancel: /^(cancel|stop|reka|oya reka|annuler|arrête|arrete)$/i,
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
} as const;

const say = phraseBook(CONCIERGE_TEXTS);

interface Vendor {
  id: string;
  name: string;
  distance_km?: number;
  response_rate?: number;
}

interface Updates {
  status: string;
  vendor_count: number;
  replied_count: number;
  replies: Array<{
    business_name: string;
    status: string;
    price?: number;
    quantity?: number;
    distance_km?: number;
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
  const head = {
    en: `Answers: ${updates.replied_count} of ${updates.vendor_count} (${updates.status})`,
    rw: `Ibisubizo: ${updates.replied_count} kuri ${updates.vendor_count} (${updates.status})`,
    fr: `Réponses : ${updates.replied_count} sur ${updates.vendor_count} (${updates.status})`,
  }[language];
  const icon = { yes: "✅", no: "❌", other: "💬", pending: "⏳" } as Record<string, string>;
  const lines = updates.replies.map((reply) => {
    const price = reply.price !== undefined ? ` — ${reply.price} RWF` : "";
    const qty = reply.quantity !== undefined ? ` × ${reply.quantity}` : "";
    const km = reply.distance_km !== undefined ? ` · ${reply.distance_km.toFixed(1)} km` : "";
    return `${icon[reply.status] ?? "•"} ${reply.business_name}${price}${qty}${km}`;
  });
  return [head, ...lines].join("\n");
}

/** The concierge flow as a conversation handler. */
export const conciergeFlow: ConversationHandler = async (turn) => {
  const state = { step: "idle", ...turn.user.state } as ConciergeState;
  const content = turn.message.content;
  const text = messageText(content).trim();
  // The router's choice when it ran (per message, sticky preference), else the words.
  const language: Language = turn.language ??
    (text ? languageOf(text, state.language ?? turn.user.locale) : state.language ??
      turn.user.locale);
  const reply = (...replies: WhatsAppMessage[]) => ({ replies, state: { ...state, language } });

  if (content.kind === "location") {
    state.lat = content.latitude;
    state.lng = content.longitude;
    if (state.step === "await_consent" && state.query) {
      return await search(turn, state, state.query, language);
    }
    return reply(textMessage(say("gotLocation", language)));
  }
  if (content.kind === "media") return reply(textMessage(say("media", language)));

  const button = content.kind === "button_reply" ? content.id : undefined;
  if (button === "concierge_ask" && state.step === "await_consent" && state.business_ids?.length) {
    const result = await turn.callTool("create_vendor_inquiries_and_message_vendors", {
      user_phone: turn.user.phone,
      business_ids: state.business_ids,
      request_type: "product",
      request_summary: state.query,
      structured_payload: { item: state.query },
      user_lat: state.lat,
      user_lng: state.lng,
      language,
      consent: true,
    }, { step: "inquiry" });
    if (!result.ok) return reply(textMessage(say("sorry", language)));
    const data = result.data as { inquiry_id: string; messages_sent: number };
    Object.assign(state, { step: "await_replies", inquiry_id: data.inquiry_id, business_ids: [] });
    return reply(textMessage(say("asked", language, { n: data.messages_sent })));
  }
  if (button === "concierge_cancel" || WORDS.cancel.test(text)) {
    Object.assign(state, {
      step: "idle",
      query: undefined,
      business_ids: [],
      inquiry_id: undefined,
    });
    return reply(textMessage(say("cancelled", language)));
  }
  if (asksForPerson(text)) {
    const result = await turn.callTool("notify_staff", {
      channel: "inbox",
      payload: {
        convo_id: turn.user.conversationId,
        reason: "asked for a person",
        summary: text.slice(0, 2000),
        priority: "medium",
      },
    }, { step: "handoff" });
    if (!result.ok) return reply(textMessage(say("sorry", language)));
    const eta = humanDuration(
      (result.data as { estimated_response_time: string })
        .estimated_response_time,
    );
    return { ...reply(textMessage(say("handedOff", language, { eta }))), handoff: true };
  }
  if (WORDS.updates.test(text)) {
    if (!state.inquiry_id) return reply(textMessage(say("noInquiry", language)));
    const result = await turn.callTool("get_vendor_inquiry_updates", {
      inquiry_id: state.inquiry_id,
    });
    if (!result.ok) return reply(textMessage(say("sorry", language)));
    return reply(textMessage(formatUpdates(result.data as Updates, language)));
  }
  if (!text || WORDS.greeting.test(text)) return reply(textMessage(say("welcome", language)));
  return await search(turn, state, text, language);
};

async function search(
  turn: ConversationTurn,
  state: ConciergeState,
  query: string,
  language: Language,
) {
  const result = await turn.callTool("search_businesses_with_tags", {
    query_text: query,
    user_lat: state.lat,
    user_lng: state.lng,
    limit: 5,
  });
  if (!result.ok) {
    return { replies: [textMessage(say("sorry", language))], state: { ...state, language } };
  }
  const vendors = result.data as Vendor[];
  if (!vendors.length) {
    return {
      replies: [textMessage(say("none", language, { q: query }))],
      state: { ...state, step: "idle", language },
    };
  }
  const list = vendors.map((vendor, index) =>
    `${index + 1}. ${vendor.name}${
      vendor.distance_km !== undefined ? ` (${vendor.distance_km.toFixed(1)} km)` : ""
    }`
  ).join("\n");
  return {
    replies: [buttonsMessage({
      body: say("found", language, { n: vendors.length, q: query, list }),
      buttons: [
        { id: "concierge_ask", title: CONCIERGE_TEXTS.ask[language] },
        { id: "concierge_cancel", title: CONCIERGE_TEXTS.cancelButton[language] },
      ],
    })],
    state: {
      ...state,
      step: "await_consent",
      query,
      business_ids: vendors.map((vendor) => vendor.id),
      language,
    },
  };
}
