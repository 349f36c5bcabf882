/**
 * The buy & sell concierge as the agent's typed offline flow (the tool
 * catalog's buy & sell section): the buyer says what they want (and may
 * share a location), sees nearby vendors, consents with a button, and the
 * vendors are asked on their behalf; "updates" shows the answers ranked, a
 * vendor who said YES can be chosen, and the order and its MoMo payment are
 * made after the agent's own Confirm / Cancel. English, Kinyarwanda, French.
 *
 * @module
 */
import { shortenTitle, TITLE_LIMITS } from "@shared/contract/titles.ts";
import { asksForPerson, type Language, phraseBook } from "@shared/contract/language.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import { formatKigaliTime, formatRwf } from "@shared/capabilities/format/mod.ts";
import { z } from "zod";
import { keptCallMemory, typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import type { AgentReply, OfflineStep, OfflineToolCaller } from "@shared/registry/pack.ts";
import { callTyped, isToolResult, readData } from "@shared/registry/tool_call.ts";
import { itemLine, placeNamed, requestedItem, withoutPlace } from "./request_item.ts";
import { chooseVendorForInquiry, vendorNotConfirmed } from "./choose_vendor.ts";
import { orderCreate } from "./orders.ts";
import { searchBusinessesWithTags } from "./search_businesses.ts";
import { createVendorInquiries, getVendorInquiryUpdates } from "./vendor_inquiries.ts";
import { PICK_PREFIX, UPDATES_BUTTON } from "./texts.ts";
import { wantsToSell } from "./selling_wish.ts";

// Tools of other packs, as this flow reads them: the fields it uses of their outputs, parsed on
// reading (a pack does not import another pack's definitions).
const notifyStaff = {
  name: "notify_staff",
  output: z.object({ estimated_response_time: z.string() }),
};
const placeLookup = {
  name: "place_lookup",
  output: z.object({
    found: z.boolean(),
    place: z.object({ name: z.string(), lat: z.number(), lng: z.number() }).optional(),
  }),
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

/** Where the buyer is in the flow. */
const STEPS = ["idle", "await_consent", "await_replies", "chosen"] as const;

/** What the flow remembers of the buyer's request between turns. */
const requestMemory = z.object({
  /** What the buyer asked for, as they wrote it. */
  query: z.string().optional(),
  /** The vendors found for it, asked once the buyer consents. */
  business_ids: z.array(z.string()).optional(),
  /** The inquiry the vendors were asked in. */
  inquiry_id: z.string().optional(),
  /** The location the buyer shared. */
  lat: z.number().optional(),
  lng: z.number().optional(),
  /** The ids of the buttons or rows of the last interactive message this flow sent, in order. */
  choices: z.array(z.string()).optional(),
  /** Vendors who had said YES when those choices were sent (a newer YES message supersedes them). */
  choices_yes: z.number().optional(),
  /** The vendor the buyer chose, as `choose_vendor_for_inquiry` answered. */
  chosen: chooseVendorForInquiry.output.optional(),
  /** The order placed with the chosen vendor (its stocked item), while it may be unpaid. */
  order_id: z.string().optional(),
  /** The MoMo charge asked for it (for the order, or to the vendor's number). */
  momo_ref: z.string().optional(),
});

/**
 * The metadata purpose of the MoMo charge the concierge asks for a chosen
 * vendor: the open work the buyer is asked about on leaving
 * (purchase_pending.ts) is found by it.
 */
export const PURCHASE_PURPOSE = "buy_sell_purchase";

/**
 * The concierge's memory, version 1. `step` is absent when the buyer has just
 * come (the router clears it on every arrival): what `request` holds then is
 * from an earlier visit and is not read.
 */
export const conciergeMemory = z.object({
  step: z.enum(STEPS).optional(),
  request: requestMemory.optional(),
  // The place the router found in the first message ("à Remera"): where, never what is asked.
  place: z.string().optional(),
  // Before version 1 the whole state was kept here, untyped: present, it is migrated.
  channelFlow: z.never().optional(),
  ...keptCallMemory,
});

/** The concierge's memory as the flow reads it. */
export type ConciergeMemory = z.output<typeof conciergeMemory>;

/** The buyer's request as the flow keeps it. */
type Request = z.output<typeof requestMemory>;

/** The vendor the buyer chose. */
export type ChosenVendor = NonNullable<Request["chosen"]>;

/** What version 0 kept under `channelFlow` (the same fields, plus its own confirmation). */
const legacyState = requestMemory.extend({
  step: z.enum([...STEPS, "await_confirm"]).optional(),
});

/**
 * Reads memory kept before version 1: the request as it was, at the step it
 * was at. A confirmation it was waiting for is dropped (its token was bound to
 * the old flow's key): the buyer is back at the chosen vendor, and taps
 * "Order & pay" again to be asked anew. Null (a restart) when unreadable.
 */
export function migrateConcierge(
  old: Record<string, unknown>,
  fromVersion: number,
): z.input<typeof conciergeMemory> | null {
  if (fromVersion !== 0) return null;
  const parsed = legacyState.safeParse(old.channelFlow);
  if (!parsed.success) return null;
  const { step, ...request } = parsed.data;
  return { step: step === "await_confirm" ? "chosen" : step ?? "idle", request };
}

/** The flow's own buttons. */
const BUTTON = {
  ask: "concierge_ask",
  cancel: "concierge_cancel",
  order: "concierge_order",
  noOrder: "concierge_no_order",
  person: "concierge_person",
} as const;

const WORDS = {
  updates: /^(updates?|status|amakuru|infos?|nouvelles|\?)$/i,
  cancel: /^(cancel|stop|reka|oya reka|annuler|arrête|arrete)$/i,
  // Only a greeting on its own: "hello, I need paracetamol" is a request.
  greeting:
    /^(hi|hello|hey|menu|help|start|muraho|mwaramutse|mwiriwe|bonjour|salut|aide)[\s!.,?]*$/i,
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
      "I found {n|# vendor|# vendors} for “{q}”:\n{list}\nShall I ask them for you? They will see your request, not your number.",
    rw:
      "Nabonye {n|umucuruzi # wa|abacuruzi # ba} “{q}”:\n{list}\nMbabaze mu izina ryawe? Bazabona icyo ushaka, ntibazabona nimero yawe.",
    fr:
      "J'ai trouvé {n|# vendeur|# vendeurs} pour « {q} » :\n{list}\n{n|Je lui demande pour vous ? Il verra votre demande, pas votre numéro.|Je leur demande pour vous ? Ils verront votre demande, pas votre numéro.}",
  },
  ask: { en: "Ask them", rw: "Babaze", fr: "Demander" },
  cancelButton: { en: "Cancel", rw: "Reka", fr: "Annuler" },
  asked: {
    en:
      "I asked {n|# vendor|# vendors}. I will tell you as they answer (about 2 minutes). Reply UPDATES any time.",
    rw:
      "Nabajije {n|umucuruzi #. Nzakubwira uko asubiza|abacuruzi #. Nzakubwira uko basubiza} (nk'iminota 2). Andika AMAKURU igihe cyose.",
    fr:
      "J'ai demandé à {n|# vendeur. Je vous préviens dès qu'il répond|# vendeurs. Je vous préviens dès qu'ils répondent} (environ 2 minutes). Répondez INFOS à tout moment.",
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
  // What the Confirm / Cancel question reads back, after the agent's "Please confirm: ".
  orderSummary: {
    en: "order {deal} from {name}.",
    rw: "gutumiza {deal} kwa {name}.",
    fr: "commander {deal} chez {name}.",
  },
  paySummary: {
    en: "pay {amount} to {name} for {deal} with MoMo from {phone}.",
    rw: "kwishyura {amount} {name} kuri {deal} ukoresheje MoMo ya {phone}.",
    fr: "payer {amount} à {name} pour {deal} par MoMo depuis {phone}.",
  },
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

/** An inquiry's answers, as `get_vendor_inquiry_updates` gives them. */
type Updates = z.output<typeof getVendorInquiryUpdates.output>;

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

/** One turn of the flow: the buyer's language and request, and how to say what it does. */
interface Turn {
  turn: TypedTurn<ConciergeMemory>;
  /** Where the buyer is ("idle" when they have just come). */
  step: NonNullable<ConciergeMemory["step"]>;
  callTool: OfflineToolCaller;
  language: Language;
  request: Request;
}

/** Step and request to keep, with the turn's replies. */
function answer(step: ConciergeMemory["step"], request: Request, ...replies: AgentReply[]) {
  // A text reply supersedes the buttons shown before it: only the latest choices count.
  const offers = replies.some((reply) => reply.buttons?.length || reply.rows?.length);
  return {
    replies,
    memory: { step, request: offers ? request : { ...request, choices: [] } },
  } satisfies OfflineStep;
}

function text(value: string): AgentReply {
  return { text: value };
}

async function conciergeStep(
  turn: TypedTurn<ConciergeMemory>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const language = turn.language;
  // Just come: what an earlier visit kept is not this request.
  const arrived = turn.memory.step === undefined;
  const request: Request = arrived ? {} : { ...turn.memory.request };
  const step = turn.memory.step ?? "idle";
  const at: Turn = { turn, step, callTool, language, request };
  // Back from the agent's Confirm / Cancel: how the call went.
  if (isToolResult(turn.memory.lastResult) && turn.memory.lastTool && request.chosen) {
    const next = await after(at, turn.memory.lastTool, turn.memory.lastResult);
    return { ...next, memory: { ...next.memory, lastResult: null, lastTool: null } };
  }
  const input = turn.input;
  // Entered from the menu (or restarted): the tapped row is no request.
  const entered = input.choice === `agent:${turn.agent}`;
  const said = entered ? "" : input.text.trim();

  if (input.location) {
    request.lat = input.location.latitude;
    request.lng = input.location.longitude;
    if (step === "await_consent" && request.query) {
      return await search(at, request.query);
    }
    return answer(step, request, text(say("gotLocation", language)));
  }
  if (input.media) return answer(step, request, text(say("media", language)));

  let button = entered ? undefined : input.choice;
  // A number typed at a menu picks that option of the latest one; it is never a product.
  const number = button === undefined ? typedNumber(said) : null;
  if (number !== null) {
    const choices = await latestChoices(at, step);
    if (!choices.length) return answer(step, request, text(say("noChoices", language)));
    if (number < 1 || number > choices.length) {
      return {
        replies: [text(say("pickNumber", language, { n: choices.length }))],
        memory: { step, request },
      };
    }
    button = choices[number - 1];
  }

  if (button === BUTTON.ask && step === "await_consent" && request.business_ids?.length) {
    const asked = requestedItem(request.query ?? "");
    const result = await callTyped(callTool, createVendorInquiries, {
      user_phone: input.phone,
      business_ids: request.business_ids,
      request_type: "product",
      request_summary: request.query,
      structured_payload: {
        item: asked.item,
        ...(asked.quantity ? { quantity: asked.quantity } : {}),
      },
      user_lat: request.lat,
      user_lng: request.lng,
      language,
      consent: true,
    }, "inquiry");
    if (!result.ok) return answer(step, request, text(say("sorry", language)));
    Object.assign(request, {
      inquiry_id: result.data.inquiry_id,
      business_ids: [],
      chosen: undefined,
    });
    return answer(
      "await_replies",
      request,
      text(say("asked", language, { n: result.data.messages_sent })),
    );
  }
  if (button === BUTTON.cancel || WORDS.cancel.test(said)) {
    const kept = { lat: request.lat, lng: request.lng };
    return answer("idle", kept, text(say("cancelled", language)));
  }
  if (button?.startsWith(PICK_PREFIX) && request.inquiry_id) {
    return await choose(at, button.slice(PICK_PREFIX.length));
  }
  if (button === BUTTON.order && request.chosen) return await orderAndPay(at, request.chosen);
  if (button === BUTTON.noOrder && request.chosen) {
    const { business_name: name, vendor_phone: phone } = request.chosen;
    return answer(step, request, text(say("noOrder", language, { name, phone })));
  }
  if (button === BUTTON.person || asksForPerson(said)) {
    // The conversation is the call's context: the ticket names it.
    const result = await callTyped(callTool, notifyStaff, {
      channel: "inbox",
      payload: {
        reason: "asked for a person",
        summary: said.slice(0, 2000),
        priority: "medium",
      },
    }, "handoff");
    if (!result.ok) return answer(step, request, text(say("sorry", language)));
    const eta = humanDuration(result.data.estimated_response_time);
    return { ...answer(step, request, text(say("handedOff", language, { eta }))), handoff: true };
  }
  if (button === UPDATES_BUTTON || WORDS.updates.test(said)) {
    if (!request.inquiry_id) return answer(step, request, text(say("noInquiry", language)));
    const result = await callTyped(callTool, getVendorInquiryUpdates, {
      inquiry_id: request.inquiry_id,
    }, "updates");
    if (!result.ok) return answer(step, request, text(say("sorry", language)));
    return showUpdates(at, step, result.data);
  }
  // A tap on a button of an earlier message that no longer applies: say what can be done now.
  if (button !== undefined) return answer(step, request, text(say("noChoices", language)));
  if (!said || WORDS.greeting.test(said)) {
    return answer(step, request, text(say("welcome", language)));
  }
  // Never searched as an item to buy: the seller is told plainly, and offered a person.
  if (wantsToSell(said)) {
    return answer(step, request, {
      text: say("selling", language),
      buttons: [{ id: BUTTON.person, title: say("person", language) }],
    });
  }
  return await search(at, said);
}

/**
 * The choices of the latest interactive message the buyer got from us: the
 * flow's own (kept in its memory), unless a vendor said YES since — then
 * it is that vendor's message ("Choose this one", "All answers").
 */
async function latestChoices(at: Turn, step: ConciergeMemory["step"]): Promise<string[]> {
  const { request } = at;
  const own = request.choices ?? [];
  if (!request.inquiry_id || (step !== "await_replies" && step !== "chosen")) return own;
  const result = await callTyped(at.callTool, getVendorInquiryUpdates, {
    inquiry_id: request.inquiry_id,
  }, "choices");
  if (!result.ok) return own;
  const updates = result.data;
  if ((updates.confirmed_count ?? 0) <= (request.choices_yes ?? 0)) return own;
  const newest = updates.replies
    .filter((reply) => reply.status === "yes" && reply.business_id)
    .sort((a, b) => (b.replied_at ?? "").localeCompare(a.replied_at ?? ""))[0];
  return newest ? [`${PICK_PREFIX}${newest.business_id}`, UPDATES_BUTTON] : own;
}

function showUpdates(at: Turn, step: ConciergeMemory["step"], updates: Updates): OfflineStep {
  const { language, request } = at;
  const body = formatUpdates(updates, language).slice(0, 1024);
  const yes = updates.replies.filter((reply) => reply.status === "yes" && reply.business_id)
    .slice(0, 10);
  const confirmedYes = updates.confirmed_count ?? yes.length;
  if (!yes.length) return answer(step, { ...request, choices_yes: confirmedYes }, text(body));
  const rows = yes.map((reply) => {
    const description = shortenTitle(
      [
        reply.price !== undefined
          ? `${formatRwf(reply.price, language)}${
            reply.quantity !== undefined ? ` × ${reply.quantity}` : ""
          }`
          : "",
        reply.distance_km !== undefined ? `${reply.distance_km.toFixed(1)} km` : "",
      ].filter(Boolean).join(" · "),
      TITLE_LIMITS.description,
    );
    return {
      id: `${PICK_PREFIX}${reply.business_id}`,
      title: shortenTitle(reply.business_name, TITLE_LIMITS.row),
      ...(description ? { description } : {}),
    };
  });
  return answer(
    step,
    { ...request, choices: rows.map((row) => row.id), choices_yes: confirmedYes },
    {
      text: body,
      rows,
      list: { button: say("chooseVendor", language), section: say("vendors", language) },
    },
  );
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

async function choose(at: Turn, businessId: string): Promise<OfflineStep> {
  const { language, request } = at;
  const result = await callTyped(at.callTool, chooseVendorForInquiry, {
    inquiry_id: request.inquiry_id,
    business_id: businessId,
  }, "choose");
  if (!result.ok) {
    const reason = result.error.code === "CONFLICT"
      ? say("notConfirmed", language, { name: vendorNotConfirmed(result.error) ?? "" })
      : result.error.code === "NOT_FOUND"
      ? say("noInquiry", language)
      : say("sorry", language);
    return answer(at.step, request, text(reason));
  }
  const chosen = result.data;
  return answer("chosen", { ...request, chosen, choices: [BUTTON.order, BUTTON.noOrder] }, {
    text: say("chosen", language, {
      name: chosen.business_name,
      phone: chosen.vendor_phone,
      link: chosen.whatsapp_link,
      deal: deal(chosen, language),
    }).slice(0, 1024),
    buttons: [
      { id: BUTTON.order, title: say("orderButton", language) },
      { id: BUTTON.noOrder, title: say("noOrderButton", language) },
    ],
  });
}

/** Places the order (when the vendor stocks the item), then asks for the MoMo payment. */
async function orderAndPay(at: Turn, chosen: ChosenVendor): Promise<OfflineStep> {
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
    return await callOrConfirm(at, chosen, orderCreate.name, args);
  }
  return await charge(at, chosen, {});
}

/**
 * A call that needs the buyer's Confirm: the step pauses on it (the agent
 * asks, and reports back through {@link after}), or goes on with the result.
 * The confirmed call's key is the request's and the vendor's, not the
 * message's: tapping "Order & pay" twice orders once.
 */
async function callOrConfirm(
  at: Turn,
  chosen: ChosenVendor,
  tool: string,
  args: Record<string, unknown>,
  placed: AgentReply[] = [],
): Promise<OfflineStep> {
  const { language, request } = at;
  const name = tool === orderCreate.name ? "order" : "charge";
  const result = await at.callTool(tool, args, name);
  if (!result.ok && result.error.code === "CONFIRMATION_REQUIRED") {
    const facts = {
      name: chosen.business_name,
      deal: deal(chosen, language),
      amount: formatRwf(Number(args.amount ?? chosen.total ?? 0), language),
      phone: at.turn.input.phone ?? "",
    };
    return {
      replies: placed,
      memory: { step: "chosen", request: { ...request, choices: [] } },
      pending: {
        tool,
        args,
        key: `concierge:${request.inquiry_id}:${chosen.business_id}:${name}`,
        summary: say(tool === orderCreate.name ? "orderSummary" : "paySummary", language, facts),
        callId: name,
      },
    };
  }
  const next = await after(at, tool, result);
  return { ...next, replies: [...placed, ...next.replies ?? []] };
}

/**
 * What follows a call: after the order, the payment; after the payment, how
 * to pay. A call the buyer refused (CANCELLED) orders and charges nothing.
 */
async function after(at: Turn, tool: string, result: ToolResult): Promise<OfflineStep> {
  const { language, request } = at;
  const chosen = request.chosen!;
  const contact = { name: chosen.business_name, phone: chosen.vendor_phone };
  if (!result.ok && result.error.code === "CANCELLED") {
    return answer("chosen", request, text(say("declined", language, contact)));
  }
  if (tool === orderCreate.name) {
    if (!result.ok) {
      return answer(
        "chosen",
        request,
        text(say("orderFailed", language, { ...contact, reason: result.error.msg })),
      );
    }
    const order = readData(orderCreate, result.data);
    // Kept while it may be unpaid: leaving asks whether to cancel it (purchase_pending.ts).
    request.order_id = order.order_id;
    const placed = text(
      say("ordered", language, {
        order: order.order_no ?? "",
        name: chosen.business_name,
        total: formatRwf(order.total, language),
      }).replace("  ", " "),
    );
    return await charge(at, chosen, { order_id: order.order_id, amount: order.total }, [placed]);
  }
  if (!result.ok) {
    // No payment tool for this tenant (yet): say so, and how to pay instead.
    const unknown = result.error.code === "NOT_FOUND" &&
      result.error.details?.unknown_tool === momoCharge.name;
    const reason = unknown
      ? say("payUnavailable", language, contact)
      : say("orderFailed", language, { ...contact, reason: result.error.msg });
    return answer("chosen", request, text(reason));
  }
  const payment = readData(momoCharge, result.data);
  // Kept while it waits: leaving asks whether to cancel it (purchase_pending.ts).
  request.momo_ref = payment.momo_ref;
  return answer(
    "chosen",
    request,
    text(say("pay", language, {
      amount: formatRwf(payment.amount, language),
      // Who is paid, by name beside the number: a bare number reads like a scam.
      payee: payment.payee,
      code: payment.ussd_code,
      link: payment.payment_link,
      ref: payment.momo_ref,
      until: formatKigaliTime(payment.expires_at),
    })),
  );
}

/** Asks `momo_charge` for the agreed amount: for the order, else to the vendor's number. */
async function charge(
  at: Turn,
  chosen: ChosenVendor,
  order: { order_id?: string; amount?: number },
  placed: AgentReply[] = [],
): Promise<OfflineStep> {
  const { language, request } = at;
  const amount = order.amount ?? chosen.total;
  if (amount === undefined || amount <= 0) {
    const noPrice = say("noPrice", language, {
      name: chosen.business_name,
      phone: chosen.vendor_phone,
    });
    return answer("chosen", request, ...placed, text(noPrice));
  }
  const args = {
    amount,
    currency: "RWF",
    phone: at.turn.input.phone,
    memo: `${itemLine({ item: chosen.item, quantity: chosen.quantity })} — ${chosen.business_name}`
      .slice(0, 140),
    // The tool's own key: one charge per request and vendor, however often it is asked.
    idempotency_key: `concierge:${request.inquiry_id}:${chosen.business_id}:charge`,
    // Paid to the vendor's number, it is named beside it: a bare number reads like a scam.
    ...(order.order_id
      ? { order_id: order.order_id }
      : { payee_phone: chosen.vendor_phone, payee_name: chosen.business_name.slice(0, 80) }),
    metadata: {
      inquiry_id: request.inquiry_id,
      business_id: chosen.business_id,
      purpose: PURCHASE_PURPOSE,
    },
  };
  return await callOrConfirm(at, chosen, momoCharge.name, args, placed);
}

async function search(at: Turn, query: string): Promise<OfflineStep> {
  const { language, request } = at;
  // Searched by the item itself, not the greeting and "I am looking for" around it, nor the
  // place it names: vendors are asked for the item.
  const place = at.turn.memory.place;
  const asked = requestedItem(query, { place });
  await searchArea(at, placeNamed(query, place));
  const result = await callTyped(at.callTool, searchBusinessesWithTags, {
    query_text: asked.item,
    user_lat: request.lat,
    user_lng: request.lng,
    limit: 5,
  }, "search");
  if (!result.ok) return answer(at.step, request, text(say("sorry", language)));
  const vendors = result.data;
  if (!vendors.length) {
    return answer("idle", request, text(say("none", language, { q: itemLine(asked) })));
  }
  const list = vendors.map((vendor, index) =>
    `${index + 1}. ${vendor.name}${
      vendor.distance_km !== undefined ? ` (${vendor.distance_km.toFixed(1)} km)` : ""
    }`
  ).join("\n");
  return answer("await_consent", {
    ...request,
    query: withoutPlace(query, place),
    business_ids: vendors.map((vendor) => vendor.id),
    choices: [BUTTON.ask, BUTTON.cancel],
    choices_yes: 0,
  }, {
    text: say("found", language, { n: vendors.length, q: itemLine(asked), list }),
    buttons: [
      { id: BUTTON.ask, title: say("ask", language) },
      { id: BUTTON.cancel, title: say("cancelButton", language) },
    ],
  });
}

/**
 * A known place the request names ("in Remera", « à Kimironko ») is where to search and what
 * vendors are told, before a location the buyer shared earlier: no pin is needed. A place the
 * gazetteer does not know, or a tenant without it, leaves the area as it was.
 */
async function searchArea(at: Turn, named: string | null): Promise<void> {
  if (named === null) return;
  const result = await callTyped(at.callTool, placeLookup, { text: named.slice(0, 200) }, "place");
  if (!result.ok || !result.data.place) return;
  at.request.lat = result.data.place.lat;
  at.request.lng = result.data.place.lng;
}

/** The concierge as its agent's offline flow: `{ offlineFlow, memory }`, memory version 1. */
export const conciergeFlow = typedFlow({
  version: 1,
  memory: conciergeMemory,
  migrate: migrateConcierge,
  step: conciergeStep,
});
