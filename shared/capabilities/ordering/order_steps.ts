/**
 * The ordering conversation every commerce agent shares offline (Waiter AI,
 * Pharmacy, Hardware, Shop), parameterised by the kind of venue: pick a venue
 * near you (a shared location sorts by distance) or by its name → its
 * stock, numbered with names and prices → items with quantities ("2 latte,
 * 1 croissant", "2 x 3", or a tapped row) → a read-back with names,
 * quantities, prices and the total, confirmed by the user (`order_create`)
 * → the order number and a Pay button → `momo_charge` (the `tel:` link and
 * the plain USSD code; the order starts when the payment arrives) →
 * "status" shows where the order stands.
 *
 * A typed number always picks a listed option, never a product search.
 * Tools answer through the caller the agent's allowlist applies to; when one
 * fails the user is told plainly, and nothing is claimed that did not happen.
 *
 * @module
 */
import { payStep } from "@shared/contract/request_phrase.ts";
import { followsUpPurchase } from "@shared/contract/follow_up.ts";
import { z } from "zod";
import { shortenTitle, TITLE_LIMITS } from "@shared/contract/titles.ts";
import { formatKigaliTime, formatLongDate, formatMoney } from "@shared/capabilities/format/mod.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import { type Language, LANGUAGES, phraseBook } from "@shared/contract/language.ts";
import { orderStateName, paymentStateName } from "@shared/capabilities/order_states/mod.ts";
import { callWithConfirmation } from "@shared/registry/offline_steps.ts";
import {
  type FlowMemory,
  keptCallMemory,
  typedFlow,
  type TypedTurn,
} from "@shared/registry/flow_memory.ts";
import { callTyped, readResult } from "@shared/registry/tool_call.ts";
import { productUnit } from "./product_units.ts";
import { itemAsked, namesPriceOrStock, priceAnswer } from "./price_answer.ts";
import { type ProductSynonyms, productTerms } from "./product_terms.ts";
import { type ChargeCode, waitingCharge } from "@shared/capabilities/waiting_charge/mod.ts";
import { normalizeWords, parseOrderLines } from "./order_lines.ts";
import { isUnitWord, readItemList } from "./order_items.ts";
import { asksAboutDelivery, deliveredThing } from "@shared/contract/delivery_question.ts";
import { nameWithTin } from "@shared/contract/tax_id.ts";
import { asksOpeningHours } from "@shared/contract/opening_hours.ts";
import { saysYes } from "@shared/contract/yes_answer.ts";
import { HOURS_TABLES, readHoursAnswer } from "@shared/capabilities/opening_hours/mod.ts";
import {
  DELIVERY_TABLES,
  deliveryAnswer,
  readDeliveryPlaces,
} from "@shared/capabilities/delivery/mod.ts";
import type {
  AgentReply,
  OfflineFlow,
  OfflineStep,
  OfflineToolCaller,
  OfflineTurn,
  PackAgent,
  PackTables,
} from "@shared/registry/pack.ts";
import { asksHowToPay, otherMeansAnswer } from "@shared/contract/payment_question.ts";

/** The tables the ordering steps read through `search_supabase` (a pack's `tables`). */
export const ORDERING_TABLES: PackTables = {
  // Where the places deliver, for "do you deliver to Remera?" asked while ordering.
  ...DELIVERY_TABLES,
  // Their hours, for "are you open on Sunday?" asked while ordering (at the read-back too).
  ...HOURS_TABLES,
  businesses: {
    ...DELIVERY_TABLES.businesses,
    lat: "number",
    lng: "number",
  },
  products: {
    business_id: "uuid",
    sku: "text",
    name: "text",
    names: "jsonb",
    price: "number",
    unit: "text",
    qty: "number",
    is_available: "boolean",
  },
  orders: {
    id: "uuid",
    order_no: "text",
    status: "text",
    payment_status: "text",
    total: "number",
    business_id: "uuid",
    created_at: "timestamptz",
  },
};

/**
 * The tools the ordering conversation calls, as an agent that runs it is
 * given them by default: find stock, order, follow, cancel, pay, hand off.
 */
export const ORDERING_TOOLS: readonly string[] = [
  "search_supabase",
  "inventory_check",
  "order_create",
  "order_status_update",
  "order_cancel",
  "momo_charge",
  "notify_staff",
  "analytics_log",
];

/** What the ordering steps say, in en, rw and fr. */
export const ORDER_TEXTS = {
  stock: {
    en:
      "{venue}:\n{list}\n\nTap an item, or type quantities with names or numbers (e.g. “2 x 1, 1 x 3”). “menu” goes back to the main menu.",
    rw:
      "{venue}:\n{list}\n\nKanda ku kintu, cyangwa wandike umubare n'izina cyangwa nimero (urugero “2 x 1, 1 x 3”). “menu” igusubiza ahabanza.",
    fr:
      "{venue} :\n{list}\n\nTouchez un article, ou écrivez quantités et noms ou numéros (ex. « 2 x 1, 1 x 3 »). « menu » ramène au menu principal.",
  },
  emptyStock: {
    en: "{venue} has nothing available right now. Pick another place, or type “menu”.",
    rw: "{venue} nta kintu gihari ubu. Hitamo ahandi, cyangwa wandike “menu”.",
    fr:
      "{venue} n'a rien de disponible pour l'instant. Choisissez un autre lieu, ou écrivez « menu ».",
  },
  notListed: {
    en: "I could not find “{parts}” at {venue}. Pick from the list by its number, or type “menu”.",
    rw:
      "Sinabonye “{parts}” kuri {venue}. Hitamo ku rutonde ukoresheje nimero, cyangwa wandike “menu”.",
    fr:
      "Je n'ai pas trouvé « {parts} » chez {venue}. Choisissez dans la liste par son numéro, ou écrivez « menu ».",
  },
  readBack: {
    en: "Order at {venue}:\n{lines}\nTotal: {total}",
    rw: "Itumiza kuri {venue}:\n{lines}\nIgiteranyo: {total}",
    fr: "Commande chez {venue} :\n{lines}\nTotal : {total}",
  },
  // `{told}` is `venueTold` when the venue was sent the order, else nothing: never claimed.
  placed: {
    en:
      "✅ Order {no} at {venue}:\n{lines}\nTotal: {total}\n{told}Pay with MTN MoMo: the order starts when the payment arrives.",
    rw:
      "✅ Itumiza {no} kuri {venue}:\n{lines}\nIgiteranyo: {total}\n{told}Ishyura na MTN MoMo: itumiza ritangira kwitegurwa amafaranga amaze kugera.",
    fr:
      "✅ Commande {no} chez {venue} :\n{lines}\nTotal : {total}\n{told}Payez par MTN MoMo : la commande démarre dès réception du paiement.",
  },
  venueTold: {
    en: "{venue} has been told. ",
    rw: "{venue} yamenyeshejwe. ",
    fr: "{venue} a été prévenu. ",
  },
  notPlaced: {
    en:
      "Sorry, the order was not placed: {msg}. Nothing was ordered; you can try again or type “menu”.",
    rw:
      "Mutwihanganire, itumiza ntiryakozwe: {msg}. Nta cyatumijwe; ongera ugerageze cyangwa wandike “menu”.",
    fr:
      "Désolé, la commande n'a pas été passée : {msg}. Rien n'a été commandé ; réessayez ou écrivez « menu ».",
  },
  cancelled: {
    en: "OK, cancelled: nothing was ordered. Type what you would like, or “menu”.",
    rw: "Nta cyatumijwe. Andika icyo ushaka, cyangwa “menu”.",
    fr: "D'accord, rien n'a été commandé. Écrivez ce que vous voulez, ou « menu ».",
  },
  payButton: { en: "Pay with MoMo", rw: "Ishyura na MoMo", fr: "Payer par MoMo" },
  statusButton: { en: "Order status", rw: "Aho itumiza rigeze", fr: "Suivi commande" },
  pay: {
    en:
      "To pay {amount} for {no} to {payee}, dial {ussd}\nor tap: {link}\nReference: {ref} (valid until {until}).\nThe order starts as soon as the payment arrives; I will tell you here.",
    rw:
      "Kugira ngo wishyure {amount} ya {no} kuri {payee}, kanda {ussd}\ncyangwa ukande: {link}\nIndango: {ref} (igeza {until}).\nItumiza ritangira amafaranga akimara kugera; nzakubwira hano.",
    fr:
      "Pour payer {amount} pour {no} à {payee}, composez {ussd}\nou touchez : {link}\nRéférence : {ref} (valable jusqu'à {until}).\nLa commande démarre dès réception du paiement ; je vous le dirai ici.",
  },
  payWaiting: {
    en: "A payment for {no} is already waiting; no second charge was made. Here it is again:",
    rw: "Ubwishyu bwa {no} busanzwe butegereje; nta bundi bwasabwe. Ngubu nanone:",
    fr: "Un paiement pour {no} attend déjà ; aucun second paiement n'a été créé. Le voici :",
  },
  payFailed: {
    en:
      "Sorry, I could not create the payment: {msg}. Order {no} is kept, unpaid: tap Pay to try again, or ask for a person.",
    rw:
      "Mutwihanganire, sinashoboye gutegura kwishyura: {msg}. Itumiza {no} rirabitswe ritishyuwe: kanda Ishyura wongere ugerageze, cyangwa usabe umuntu.",
    fr:
      "Désolé, je n'ai pas pu créer le paiement : {msg}. La commande {no} est gardée, non payée : touchez Payer pour réessayer, ou demandez une personne.",
  },
  noPhone: {
    en: "I cannot ask a MoMo payment without your phone number. Please ask for a person.",
    rw: "Sinshobora gusaba kwishyura kuri MoMo ntazi nimero yawe. Saba kuvugana n'umuntu.",
    fr: "Je ne peux pas demander un paiement MoMo sans votre numéro. Demandez une personne.",
  },
  status: {
    en: "Order {no} at {venue}: {state}. Payment: {payment}. Total {total}.",
    rw: "Itumiza {no} kuri {venue}: {state}. Kwishyura: {payment}. Igiteranyo {total}.",
    fr: "Commande {no} chez {venue} : {state}. Paiement : {payment}. Total {total}.",
  },
  noOrderFound: {
    en: "I could not find an order from this number.",
    rw: "Sinabonye itumiza ryakozwe kuri iyi nimero.",
    fr: "Je n'ai pas trouvé de commande faite depuis ce numéro.",
  },
  followUpTold: {
    en: "I have asked a person from our team to look into it; they will reply here.",
    rw: "Nasabye umukozi wacu kubikurikirana; arakusubiza hano.",
    fr: "J'ai demandé à une personne de notre équipe de s'en occuper ; elle vous répondra ici.",
  },
  // How to pay, asked before any order ("can I pay with MoMo?"): answered, never searched.
  payHow: {
    en:
      "Yes: once you confirm your order, I send a MoMo payment request to your phone. What would you like to order?",
    rw:
      "Yego: numara kwemeza itumiza, nkoherereza ubusabe bwo kwishyura na MoMo kuri telefoni yawe. Urashaka gutumiza iki?",
    fr:
      "Oui : une fois votre commande confirmée, je vous envoie une demande de paiement MoMo sur votre téléphone. Que voulez-vous commander ?",
  },
  // Asked while the order's read-back waits for its Confirm (shown again after this).
  thisPlace: { en: "This place", rw: "Aha hantu", fr: "Cet établissement" },
  payHowPending: {
    en: "Yes: once you confirm this order, I send a MoMo payment request to your phone.",
    rw:
      "Yego: numara kwemeza iri tumiza, nkoherereza ubusabe bwo kwishyura na MoMo kuri telefoni yawe.",
    fr:
      "Oui : dès que vous confirmez cette commande, je vous envoie une demande de paiement MoMo sur votre téléphone.",
  },
  noOrder: {
    en: "You have no order yet. Pick a place to order from.",
    rw: "Nta tumiza urakora. Hitamo aho utumiza.",
    fr: "Vous n'avez pas encore de commande. Choisissez où commander.",
  },
  statusFailed: {
    en: "Sorry, I could not read your order right now: {msg}",
    rw: "Mutwihanganire, sinashoboye kureba itumiza ryawe ubu: {msg}",
    fr: "Désolé, je n'ai pas pu lire votre commande : {msg}",
  },
  lookupFailed: {
    en: "Sorry, I could not look that up right now: {msg}. Try again, or type “menu”.",
    rw:
      "Mutwihanganire, sinashoboye kubireba ubu: {msg}. Ongera ugerageze, cyangwa wandike “menu”.",
    fr: "Désolé, je n'ai pas pu chercher : {msg}. Réessayez, ou écrivez « menu ».",
  },
  // A price or stock question about the one place's item: answered first; ordering is next.
  quote: {
    en:
      "{name}: {price} per {unit} at {venue}, in stock. How many would you like? Type a number (e.g. “{example}”), or “menu” for the main menu.",
    rw:
      "{name}: {price} kuri {unit} kuri {venue}, birahari. Urashaka bingahe? Andika umubare (urugero “{example}”), cyangwa “menu” usubire ahabanza.",
    fr:
      "{name} : {price} par {unit} chez {venue}, en stock. Combien en voulez-vous ? Tapez un nombre (ex. « {example} »), ou « menu » pour le menu principal.",
  },
  quoteTotal: {
    en: "{qty} × {name}: {total} ({price} per {unit}) at {venue}, in stock. Shall I order them?",
    rw: "{qty} × {name}: {total} ({price} kuri {unit}) kuri {venue}, birahari. Mbitumize?",
    fr: "{qty} × {name} : {total} ({price} par {unit}) chez {venue}, en stock. Je les commande ?",
  },
  // "Is it in stock?" while the order's read-back waits: its lines were priced from the stock.
  draftInStock: {
    en: "Yes: everything in this order is in stock at {venue}, at the prices below.",
    rw: "Yego: ibiri muri iri tumiza byose birahari kuri {venue}, ku biciro biri hepfo.",
    fr: "Oui : tout ce qui est dans cette commande est en stock chez {venue}, aux prix ci-dessous.",
  },
  quoteOrder: { en: "Order {qty}", rw: "Tumiza {qty}", fr: "Commander {qty}" },
  // The unit when a product names none.
  eachUnit: { en: "item", rw: "kimwe", fr: "pièce" },
  offers: {
    en: "{name}: from {price} at {venue}. Where would you like to order it?",
    rw: "{name}: guhera kuri {price} kuri {venue}. Urashaka kuyitumiza he?",
    fr: "{name} : à partir de {price} chez {venue}. Où voulez-vous le commander ?",
  },
  inArea: {
    en: "In {area}:",
    rw: "I {area}:",
    fr: "À {area} :",
  },
  notHere: {
    en: "{venue} does not have “{q}”. Here is what it has:",
    rw: "{venue} ntifite “{q}”. Dore ibyo ifite:",
    fr: "{venue} n'a pas « {q} ». Voici ce qu'il propose :",
  },
  notFound: {
    en: "I could not find “{q}”. Try another name, or pick a place below.",
    rw: "Sinabonye “{q}”. Gerageza irindi zina, cyangwa uhitemo aho hepfo.",
    fr: "Je n'ai pas trouvé « {q} ». Essayez un autre nom, ou choisissez un lieu ci-dessous.",
  },
  delivery: {
    en:
      "A large order: do you want it delivered? Tap “Delivery” and our team arranges it with {venue}.",
    rw:
      "Ni itumiza rinini: urashaka ko rikuzanirwa? Kanda “Kuzanirwa” maze abakozi bacu babitegure na {venue}.",
    fr:
      "Grosse commande : voulez-vous être livré ? Touchez « Livraison » et notre équipe l'organise avec {venue}.",
  },
  deliveryWanted: {
    en: "You asked for delivery: tap “Delivery” and our team arranges it with {venue}.",
    rw: "Wasabye ko bikuzanirwa: kanda “Kuzanirwa” maze abakozi bacu babitegure na {venue}.",
    fr:
      "Vous avez demandé une livraison : touchez « Livraison » et notre équipe l'organise avec {venue}.",
  },
  deliveryButton: { en: "Delivery", rw: "Kuzanirwa", fr: "Livraison" },
  rxNeeded: {
    en:
      "℞ {names}: a prescription is needed. Send a photo of it here; a pharmacist checks it before the order is prepared.",
    rw:
      "℞ {names}: bisaba urupapuro rwa muganga. Ohereza ifoto yarwo hano; umufarumasiye azarusuzuma mbere yo gutegura itumiza.",
    fr:
      "℞ {names} : une ordonnance est nécessaire. Envoyez-en une photo ici ; un pharmacien la vérifie avant de préparer la commande.",
  },
  // A proforma (a priced quote on the business's paper) asked for: the prices now, and the team
  // asked to issue it, with the items, under the name the customer gives.
  proforma: {
    en:
      "Prices at {venue}:\n{lines}\nTotal: {total}\n\nWrite the name to put on your proforma (your school, company or your own name) and I will send it here.",
    rw:
      "Ibiciro kuri {venue}:\n{lines}\nIgiteranyo: {total}\n\nAndika izina rijya kuri proforma yawe (ishuri, ikigo cyangwa izina ryawe), nyikoherereze hano.",
    fr:
      "Prix chez {venue} :\n{lines}\nTotal : {total}\n\nÉcrivez le nom à mettre sur votre facture proforma (votre école, votre entreprise ou votre nom) et je vous l'envoie ici.",
  },
  proformaOffer: {
    en:
      "Prices at {venue}:\n{lines}\nTotal: {total}\n\nShall I make your proforma out to {profile}? Tap it, or write another name (your school or company, with its TIN if you file one) and I will send it here.",
    rw:
      "Ibiciro kuri {venue}:\n{lines}\nIgiteranyo: {total}\n\nProforma yawe nyandike kuri {profile}? Kanda kuri iryo zina, cyangwa wandike irindi (ishuri cyangwa ikigo cyawe, na TIN yacyo niba muyikoresha), nyikoherereze hano.",
    fr:
      "Prix chez {venue} :\n{lines}\nTotal : {total}\n\nJe fais votre facture proforma au nom de {profile} ? Touchez-le, ou écrivez un autre nom (votre école ou entreprise, avec son NIF si vous en déclarez un) et je vous l'envoie ici.",
  },
  proformaBadTin: {
    en:
      "A TIN has 9 digits; I read {digits}. Please send the name again with its 9-digit TIN, or the name alone.",
    rw:
      "TIN igira imibare 9; nabonye {digits}. Ongera wohereze izina na TIN yaryo y'imibare 9, cyangwa izina ryonyine.",
    fr:
      "Un NIF (TIN) a 9 chiffres ; j'ai lu {digits}. Renvoyez le nom avec son NIF à 9 chiffres, ou le nom seul.",
  },
  proformaIssued: {
    en:
      "Here is your proforma {number} for {name}: total {total}, valid until {until}. Our team has a copy. Type “menu” for the main menu.\n{url}",
    rw:
      "Dore proforma yawe {number} yanditswe kuri {name}: igiteranyo {total}, ifite agaciro kugeza {until}. Abakozi bacu bafite kopi yayo. Andika “menu” usubire ahabanza.\n{url}",
    fr:
      "Voici votre facture proforma {number} au nom de {name} : total {total}, valable jusqu'au {until}. Notre équipe en a une copie. Écrivez « menu » pour le menu principal.\n{url}",
  },
  proformaNoPdf: {
    en:
      "Your proforma {number} for {name} is issued: total {total}, valid until {until}. I could not make its PDF just now; our team will send it here.",
    rw:
      "Proforma yawe {number} yanditswe kuri {name} yatanzwe: igiteranyo {total}, ifite agaciro kugeza {until}. Sinashoboye gukora PDF yayo ubu; abakozi bacu barayikoherereza hano.",
    fr:
      "Votre facture proforma {number} au nom de {name} est émise : total {total}, valable jusqu'au {until}. Je n'ai pas pu en faire le PDF pour l'instant ; notre équipe vous l'enverra ici.",
  },
  proformaAsked: {
    en:
      "I have asked our team to prepare your proforma; they will reply here. Write the items and quantities, and the name to put on it (your school or company).",
    rw:
      "Nasabye abakozi bacu gutegura proforma yawe; barakusubiza hano. Andika ibicuruzwa n'umubare wabyo, n'izina rijya kuri yo (ishuri cyangwa ikigo cyawe).",
    fr:
      "J'ai demandé à notre équipe de préparer votre facture proforma ; elle vous répondra ici. Écrivez les articles et les quantités, et le nom à y mettre (votre école ou entreprise).",
  },
  proformaNamed: {
    en:
      "Thank you: I have passed “{name}” to our team for your proforma. Type “menu” for the main menu.",
    rw:
      "Murakoze: nahaye abakozi bacu “{name}” ngo bishyirwe kuri proforma yawe. Andika “menu” usubire ahabanza.",
    fr:
      "Merci : j'ai transmis « {name} » à notre équipe pour votre facture proforma. Écrivez « menu » pour le menu principal.",
  },
  deliveryAsked: {
    en: "Our team has been asked to arrange delivery of {no}; they will contact you here.",
    rw: "Abakozi bacu basabwe gutegura kukuzanira {no}; bazakuvugisha hano.",
    fr: "Notre équipe doit organiser la livraison de {no} ; elle vous contactera ici.",
  },
  deliveryFailed: {
    en: "Sorry, I could not reach our team: {msg}. Please try again.",
    rw: "Mutwihanganire, sinashoboye kugera ku bakozi bacu: {msg}. Ongera ugerageze.",
    fr: "Désolé, je n'ai pas pu joindre notre équipe : {msg}. Réessayez.",
  },
  unavailable: { en: "out of stock", rw: "byashize", fr: "en rupture" },
  deliveryUnread: {
    en: "I cannot read the delivery details right now. A person from our team can tell you.",
    rw:
      "Sinshoboye kubona amakuru y'uko tugeza ibicuruzwa ku bakiriya ubu. Umuntu wo mu itsinda ryacu arabikubwira.",
    fr:
      "Je ne peux pas lire les informations de livraison pour l'instant. Une personne de notre équipe peut vous renseigner.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à une personne" },
  // A thing asked to be delivered, where it is sold.
  stockedAt: {
    en: "{name}: {price} at {venue}.",
    rw: "{name}: {price} kuri {venue}.",
    fr: "{name} : {price} chez {venue}.",
  },
  yesWhat: {
    en:
      "Yes to what? Nothing is waiting for a yes. What would you like from {venue}? Tap an item, or type quantities and names.",
    rw:
      "Yego kuki? Nta kintu gitegereje ko wemeza. Urashaka iki kuri {venue}? Kanda ku kintu, cyangwa wandike umubare n'izina.",
    fr:
      "Oui à quoi ? Rien n'attend votre confirmation. Que voulez-vous chez {venue} ? Touchez un article, ou écrivez quantités et noms.",
  },
  yesHowMany: {
    en: "How many would you like? Type a number (e.g. “10”).",
    rw: "Urashaka zingahe? Andika umubare (urugero “10”).",
    fr: "Combien en voulez-vous ? Tapez un nombre (ex. « 10 »).",
  },
  foundElsewhere: { en: "Found elsewhere:", rw: "Biboneka ahandi:", fr: "Disponible ailleurs :" },
  stockedNowhere: {
    en: "None of our places has “{q}” right now.",
    rw: "Nta hantu dukorana hafite “{q}” ubu.",
    fr: "Aucun de nos points de vente n'a « {q} » pour l'instant.",
  },
} as const;

const say = phraseBook(ORDER_TEXTS);

/** What a pack says at the steps that depend on its kind of venue, in en, rw and fr. */
export interface OrderDomainTexts {
  /** Asks where to order from, above the list of venues. */
  askVenue: Record<Language, string>;
  /** No venue of this kind could be listed. */
  noVenues: Record<Language, string>;
}

/** Options for {@link orderFlow}. */
export interface OrderFlowOptions {
  /** The venues' `businesses.category` (restaurant, pharmacy, hardware, shop). */
  category: string;
  /** The pack's words at the venue steps. */
  texts: OrderDomainTexts;
  /**
   * Whether a typed product name searches every venue's stock before a venue
   * is chosen (pharmacy, hardware, shop); otherwise names pick venues.
   */
  searchStock?: boolean;
  /** Products flagged `requires_prescription` are marked ℞ and the order notes it. */
  prescriptions?: boolean;
  /** At or above this total (RWF) the read-back offers delivery arranged by staff. */
  deliveryFrom?: number;
  /** Words before a product's name that are not the name ("do you have"). */
  filler?: RegExp;
  /** Product words in en/rw/fr → the stock's word; the shared table when absent. */
  synonyms?: ProductSynonyms;
  /**
   * Words that say how the customer feels, never what they buy ("headache", "umuriro",
   * "fièvre"; lower case, no accents). A request whose words are only these is not searched
   * as a product: the customer hears `reply` (a person at a venue advises) over the venues.
   * A product named beside them is searched without them ("paracetamol for a headache");
   * when it is not found the customer hears what was not found, then `reply`.
   *
   * `named` are the conditions among `words` that products are named for ("malaria", "inda":
   * a malaria test, a pregnancy test): beside another word they are sought too, as a whole
   * word of a product's name, and said back when nothing is found, never silently dropped.
   */
  symptoms?: {
    words: ReadonlySet<string>;
    named?: ReadonlySet<string>;
    reply: Record<Language, string>;
  };
}

const venueSchema = z.object({
  id: z.string(),
  name: z.string(),
  area: z.string().nullish(),
  km: z.number().optional(),
});

const stockedSchema = z.object({
  sku: z.string(),
  /** In the customer's language when the product has a name in it. */
  name: z.string(),
  /** The name as stocked (`products.name`), when `name` is another language's. */
  listed: z.string().optional(),
  /** Its names in the languages the stock has, for a read-back shown again in another. */
  names: z.record(z.string(), z.string()).optional(),
  price: z.number(),
  unit: z.string().nullish(),
  available: z.boolean(),
  rx: z.boolean().optional(),
});

const placedOrderSchema = z.object({
  id: z.string(),
  no: z.string(),
  total: z.number(),
  venue: z.string(),
});

/**
 * The ordering steps' position, kept in `memory.step` (cleared when the agent
 * is entered anew): the venues offered, the venue and its stock, the offers
 * of a product search, the order being read back, and the order placed.
 */
export const orderState = z.object({
  venues: z.array(venueSchema).optional(),
  venue: venueSchema.optional(),
  stock: z.array(stockedSchema).optional(),
  // `qty`: how many the customer asked for with the item ("20 rames de papier A4").
  offers: z.array(
    z.object({
      venue: venueSchema,
      product: stockedSchema,
      qty: z.number().int().positive().optional(),
    }),
  ).optional(),
  draft: z.object({
    lines: z.array(z.object({
      sku: z.string(),
      name: z.string(),
      qty: z.number(),
      price: z.number(),
      rx: z.boolean().optional(),
    })),
  }).optional(),
  order: placedOrderSchema.optional(),
  /**
   * The item whose price and stock were just told (a question, not yet an order): a quantity
   * typed next ("20") orders it. Optional, so memory kept before it still reads.
   */
  quoted: z.object({ sku: z.string(), qty: z.number().int().positive().optional() }).optional(),
  /**
   * The words of an order asked before its place was chosen ("2 beef brochettes and chips"):
   * read against the chosen place's stock, so the customer does not type them again. Optional,
   * so memory kept before it still reads.
   */
  wanted: z.string().max(500).optional(),
  /**
   * The ids of the order's buttons under the last reply (Pay, Delivery, Order status), so a
   * typed "1" or "2" answers them rather than picking the menu's item 1 or 2. Optional, so
   * memory kept before it still reads: no version bump.
   */
  buttons: z.array(z.string()).optional(),
  /**
   * A proforma was asked and the team told: the next words that order nothing are the name to
   * put on it, passed on to the team. Optional, so memory kept before it still reads.
   */
  proformaName: z.literal(true).optional(),
  /**
   * The items the proforma asked for quotes, priced from stock: issued (`proforma_issue`) once
   * the name to put on it is written. Optional, so memory kept before it still reads.
   */
  proformaItems: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() }))
    .optional(),
  /**
   * The order's message asked for delivery ("delivered to Remera", « livrer »): once placed, the
   * Delivery button is offered whatever its size. Optional, so memory kept before it still reads.
   */
  deliveryAsked: z.literal(true).optional(),
});

/** The ordering steps' position (see {@link orderState}). */
export type OrderState = z.output<typeof orderState>;

/**
 * The memory fields the ordering steps read and keep: their position
 * (`step`), the place the router found in the first message, and a call kept
 * for confirmation. Spread into the memory schema of a pack that runs them.
 */
export const orderingMemory = {
  step: orderState.nullish(),
  place: z.string().nullish(),
  ...keptCallMemory,
};

/** What the ordering steps read of a flow's memory. */
export type OrderingMemory = z.output<z.ZodObject<typeof orderingMemory>>;

/**
 * The version of {@link orderingMemory}: a pack that keeps it bumps its own
 * memory's version with it.
 */
export const ORDERING_MEMORY_VERSION = 1;

type Venue = z.output<typeof venueSchema>;
type Stocked = z.output<typeof stockedSchema>;
type PlacedOrder = z.output<typeof placedOrderSchema>;

const STATUS_WORDS =
  /^(status|order status|my order|where is my order|track|statut|suivi|ma commande|où en est.*|iri he|itumiza ryanjye|aho itumiza rigeze|rigeze he)\??$/i;
const PAY_WORDS = /^(pay|pay now|payer|kwishyura|ishyura|nishyure|momo)$/i;
/**
 * `search_supabase` as the ordering steps read it: the rows of the columns
 * they ask for, parsed on reading (the tool's own output holds any row).
 */
function rowsOf<S extends z.ZodType>(row: S) {
  return { name: "search_supabase", output: z.object({ items: z.array(row) }) };
}

const namedRow = rowsOf(z.object({ name: z.string() }));
const venueRows = rowsOf(
  z.object({ id: z.string(), name: z.string(), area: z.string().nullish() }),
);
const placedVenueRows = rowsOf(z.object({
  id: z.string(),
  name: z.string(),
  area: z.string().nullish(),
  lat: z.number().nullish(),
  lng: z.number().nullish(),
}));
const productRows = rowsOf(z.object({
  sku: z.string(),
  name: z.string(),
  names: z.record(z.string(), z.unknown()).nullish(),
  price: z.number(),
  unit: z.string().nullish(),
  qty: z.number(),
  is_available: z.boolean(),
  business_id: z.string(),
  requires_prescription: z.boolean().nullish(),
}));
const orderNoRows = rowsOf(z.object({ order_no: z.string() }));

// The buy & sell pack's `order_create` and the payments pack's `momo_charge`, as these steps
// read them: the fields they use of each output (a capability imports no pack).
const orderCreate = {
  name: "order_create",
  output: z.object({
    order_id: z.string(),
    total: z.number(),
    order_no: z.string().optional(),
    venue_name: z.string().optional(),
    items: z.array(z.object({ name: z.string(), qty: z.number(), unit_price: z.number() }))
      .optional(),
    venue_told: z.boolean().optional(),
  }),
};
const momoCharge = {
  name: "momo_charge",
  output: z.object({
    payment_link: z.string(),
    ussd_code: z.string().optional(),
    momo_ref: z.string(),
    amount: z.number().optional(),
    expires_at: z.string(),
    payee: z.string().optional(),
  }),
};

function errorOf(result: ToolResult): string {
  return result.ok ? "" : result.error.msg;
}

const orderSummaryRow = z.object({
  id: z.string(),
  order_no: z.string(),
  status: z.string(),
  payment_status: z.string(),
  total: z.number(),
  business_id: z.string(),
});

/** An order as its status reply and the leave-the-flow question read it. */
export type OrderSummaryRow = z.output<typeof orderSummaryRow>;

/** `search_supabase` over `orders`, as {@link ORDER_SUMMARY_COLUMNS} reads them. */
export const orderSummaryRows = rowsOf(orderSummaryRow);

/** The `orders` columns of an {@link OrderSummaryRow}. */
export const ORDER_SUMMARY_COLUMNS: readonly (keyof OrderSummaryRow)[] = [
  "id",
  "order_no",
  "status",
  "payment_status",
  "total",
  "business_id",
];

/** The venue's name by its id, or "" when it cannot be read (the reply still goes out). */
export async function venueNameOf(
  callTool: OfflineToolCaller,
  businessId: string,
  purpose: string,
): Promise<string> {
  const found = await callTyped(callTool, namedRow, {
    table: "businesses",
    columns: ["name"],
    filters: [{ column: "id", op: "eq", value: businessId }],
    limit: 1,
  }, purpose);
  return found.ok ? found.data.items[0]?.name ?? "" : "";
}

function distanceKm(a: { latitude: number; longitude: number }, lat: number, lng: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat - a.latitude) * rad;
  const dLng = (lng - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(lat * rad) * Math.sin(dLng / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(h));
}

/** Whom a reply speaks to: their language, and the tenant's currency its amounts are in. */
type Reader = Pick<OfflineTurn, "language" | "currency">;

/** An amount in the reader's language and the tenant's currency. */
function money(amount: number, reader: Reader): string {
  return formatMoney(amount, reader.language, { currency: reader.currency });
}

// A stocked item's name in `language`: its name in it, else the stock's.
function nameIn(product: Stocked, language: Language): string {
  return product.names?.[language] ?? product.listed ?? product.name;
}

function lineText(line: { name: string; qty: number; price: number }, reader: Reader): string {
  return `${line.qty} × ${line.name} — ${money(line.qty * line.price, reader)}`;
}

/**
 * One step of the ordering conversation, over a flow's memory that holds
 * {@link orderingMemory} (read by its schema: see `typedFlow`).
 */
export type OrderSteps = (
  turn: TypedTurn<OrderingMemory>,
  callTool: OfflineToolCaller,
) => Promise<OfflineStep>;

/**
 * Builds the ordering flow for one kind of venue. The pack's agent needs
 * `search_supabase` over businesses, products and orders, `order_create`,
 * `momo_charge` and (for deliveries) `notify_staff` in its allowlist. The
 * pack declares the memory it runs over: {@link orderingMemory} at
 * {@link ORDERING_MEMORY_VERSION}, with its own fields beside it.
 *
 * @example A pack whose agent only orders
 * ```ts ignore
 * import { z } from "zod";
 * import { typedFlow } from "@shared/registry/flow_memory.ts";
 * const agent = {
 *   id: "shop",
 *   ...typedFlow({
 *     version: ORDERING_MEMORY_VERSION,
 *     memory: z.object(orderingMemory),
 *     step: orderFlow({ category: "shop", texts: SHOP_TEXTS, searchStock: true }),
 *   }),
 * };
 * ```
 */
export function orderFlow(options: OrderFlowOptions): OrderSteps {
  const step = orderStep(options);
  return async (turn, callTool) => {
    const state: OrderState = turn.memory.step ?? {};
    // A typed number answers the buttons of the last reply when it had the order's buttons: "2"
    // under "Pay with MoMo / Order status" is the status, not a second order of item 2.
    const typed = /^\s*([1-9])\s*$/.exec(turn.input.text ?? "");
    const pressed = !turn.input.choice && typed ? state.buttons?.[Number(typed[1]) - 1] : undefined;
    const next = await step(
      pressed ? { ...turn, input: { ...turn.input, choice: pressed } } : turn,
      callTool,
    );
    return rememberButtons(next, state);
  };
}

/** Whether a button id is one the ordering steps answer themselves (not a confirmation's). */
function isOrderButton(id: string): boolean {
  return id === "order_status" || id.startsWith("pay:") || id.startsWith("delivery:");
}

/**
 * The step with the order buttons of its last reply kept in the position (none when its last
 * reply has none), so the next typed number reads them and never the buttons of an older reply.
 */
function rememberButtons(next: OfflineStep, state: OrderState): OfflineStep {
  const kept = orderState.safeParse(
    next.memory && "step" in next.memory ? next.memory.step : state,
  );
  // A position cleared (or not the ordering steps') is left as the step wrote it.
  if (!kept.success) return next;
  const last = next.replies?.at(-1);
  const ids = (last?.buttons ?? []).map((button) => button.id).filter(isOrderButton);
  const buttons = ids.length ? ids : undefined;
  if (!buttons && !kept.data.buttons) return next;
  return { ...next, memory: { ...next.memory, step: { ...kept.data, buttons } } };
}

function orderStep(options: OrderFlowOptions): OrderSteps {
  return async (turn, callTool) => {
    const lang = turn.language;
    const state: OrderState = turn.memory.step ?? {};
    const input = turn.input;
    const choice = input.choice ?? "";
    const keep = (next: OrderState, replies: AgentReply[]): OfflineStep => ({
      memory: { step: next },
      replies,
    });

    // Back from a confirmation: say how the call went.
    const last = turn.memory.lastResult;
    if (last !== null && last !== undefined) {
      const tool = turn.memory.lastTool;
      const cleared = { lastResult: null, lastTool: undefined };
      const step = tool === "momo_charge"
        ? paid(turn, state, readResult(momoCharge, last))
        : await placed(turn, callTool, options, state, readResult(orderCreate, last));
      return { ...step, memory: { ...step.memory, ...cleared } };
    }

    // Asking to pay the order in words ("I want to pay with momo", "how do I pay", "nishyura
    // nte?"): read as the router reads it, which keeps such a message with the flow; paying a
    // named thing ("my electricity bill") is no pay step and the router sends it to payments.
    // A way other than MoMo ("kuri banki", « à la livraison », "by card"): the business knows,
    // not its data, so never a yes, never a MoMo request, never a stock search.
    const other = !choice && asksHowToPay(input.text)
      ? otherMeansAnswer(input.text, {
        language: lang,
        brand: state.venue?.name ?? turn.brand ?? say("thisPlace", lang),
      })
      : null;
    if (other) return keep(state, [{ text: other }]);
    const asksToPay = PAY_WORDS.test(input.text) || payStep(input.text) !== null;
    if (choice.startsWith("pay:") || (asksToPay && state.order)) {
      return await pay(turn, callTool, state);
    }
    if (asksToPay && !choice) {
      return keep(state, [{ text: say(turn.confirming ? "payHowPending" : "payHow", lang) }]);
    }
    // "Is it in stock?", « c'est disponible ? », "birahari?" while the order's read-back waits:
    // its lines were priced from the stock just now, so the answer is that order, never a
    // search for the word "stock" (the read-back is shown again after this).
    if (
      turn.confirming && state.draft && state.venue && !choice &&
      asksPriceOrStock(input.text) && pointsAtTheOrder(input.text) && !itemAsked(input.text) &&
      !(state.stock && parseOrderLines(input.text, state.stock).lines.length)
    ) {
      return keep(state, [{ text: say("draftInStock", lang, { venue: state.venue.name }) }]);
    }
    if (choice === "order_status" || STATUS_WORDS.test(input.text)) {
      return await status(turn, callTool, state);
    }
    // An order followed up ("my order is late", « ma commande n'est pas arrivée »), at the menu
    // or in a store: its status, and a person told, never a stock search or a new order line.
    if (!choice && followsUpPurchase(input.text)) {
      return await status(turn, callTool, state, { followUp: true });
    }
    if (choice.startsWith("delivery:") && state.order) {
      const result = await callTool("notify_staff", {
        channel: "inbox",
        payload: {
          reason: "delivery of a large order",
          summary: `Order ${state.order.no} at ${state.order.venue} (${
            money(state.order.total, turn)
          }): the customer asks for delivery.`,
          priority: "medium",
        },
      }, "delivery");
      return {
        replies: [{
          text: result.ok
            ? say("deliveryAsked", lang, { no: state.order.no })
            : say("deliveryFailed", lang, { msg: errorOf(result) }),
        }],
      };
    }
    if (choice.startsWith("venue:")) {
      const id = choice.slice(6);
      const venue = state.venues?.find((entry) => entry.id === id) ??
        state.offers?.find((offer) => offer.venue.id === id)?.venue ??
        { id, name: input.text };
      return await pickVenue(turn, callTool, options, { ...state, venue });
    }
    if (choice.startsWith("item:") && state.venue && state.stock) {
      const product = state.stock.find((item) => item.sku === choice.slice(5));
      if (product) return await draftOrder(turn, callTool, options, state, [{ product, qty: 1 }]);
    }

    const text = input.text.trim();
    if (!choice && asksProforma(text)) return await proformaStep(turn, callTool, options, state);
    // "Are you open on Sunday?": the hours of the place being ordered from (at its read-back
    // too), else of the places of the flow's kind, never every place of the tenant.
    if (!choice && asksOpeningHours(text)) {
      const hours = await readHoursAnswer(callTool, {
        text,
        language: lang,
        now: turn.now ?? new Date(),
        ...(state.venue ? { businessIds: [state.venue.id] } : { category: options.category }),
      });
      if (hours !== null) return keep(state, [{ text: hours }]);
    }
    // "Do you deliver to Nyamata, how much?": the place's delivery data, never a stock search.
    if (!choice && asksAboutDelivery(text)) {
      const answer = await deliveryReply(turn, callTool, options, state);
      // Asked at the read-back: the order is read back again to confirm, delivery now asked.
      const drafted = state.venue && state.draft?.lines.map((line) => ({
        product: state.stock?.find((item) => item.sku === line.sku),
        qty: line.qty,
      }));
      if (drafted?.length && drafted.every((line) => line.product)) {
        const again = await draftOrder(
          turn,
          callTool,
          options,
          { ...state, deliveryAsked: true },
          drafted as Array<{ product: Stocked; qty: number }>,
        );
        return { ...again, replies: [answer, ...(again.replies ?? [])] };
      }
      return keep(state, [answer]);
    }
    // The name for the proforma asked just before ("Groupe Scolaire Remera", with its TIN or
    // not), or the profile's name offered for it; never an item ("20 reams of A4").
    if (state.proformaName && choice === PROFORMA_PROFILE_NAME && turn.input.name?.trim()) {
      return await proformaNamed(turn, callTool, state, { ok: true, name: turn.input.name });
    }
    if (state.proformaName && !choice && text) {
      const named = nameWithTin(text);
      if (!named.ok) {
        return keep(state, [{ text: say("proformaBadTin", lang, { digits: named.digits }) }]);
      }
      if (!/\d/.test(named.name)) return await proformaNamed(turn, callTool, state, named);
    }
    // The answer to a price told: a quantity ("20", "nshaka 20"), or the quote's own button.
    const quotedItem = state.quoted && state.stock?.find((item) => item.sku === state.quoted!.sku);
    if (quotedItem && state.venue) {
      // Several items listed after a price ("3 packs of cardstock and 2 reams of A3"): all of
      // them, not the first number as the quoted item's quantity.
      const listed = choice
        ? null
        : await itemListStep(turn, callTool, options, state, state.venue, text);
      if (listed) return listed;
      // Another item named with its quantity ("10 reams of A4" after the A3's price) is that
      // item's order: its number is no quantity of the quoted one.
      // The price told kept only the quoted item: the others are read from the place's stock.
      const named = !choice && /\d/.test(text) && !readItemList(text, [quotedItem], { minItems: 1 })
          ?.lines.length
        ? await placeStock(callTool, options, state.venue.id, "quoted_other")
        : null;
      const stock = named?.ok
        ? named.data.items.map((row) => stocked(row, lang)).filter((item) => item.available)
        : [];
      const other = readItemList(text, stock, { minItems: 1 })?.lines
        .find((line) => line.product.sku !== quotedItem.sku);
      if (other) {
        return await draftOrder(turn, callTool, options, { ...state, stock, quoted: undefined }, [
          other,
        ]);
      }
      const tapped = /^quote:(\d+)$/.exec(choice);
      const qty = tapped ? Number(tapped[1]) : askedQuantity(text) ??
        (state.quoted!.qty && AGREES.test(text) ? state.quoted!.qty : undefined);
      if (qty !== undefined) {
        return await draftOrder(turn, callTool, options, { ...state, quoted: undefined }, [{
          product: quotedItem,
          qty,
        }]);
      }
    }
    // A location shared under the offers of an item asked for sorts those offers by distance:
    // the item is still what is sought, not any venue of the kind.
    if (input.location) {
      return await listVenues(turn, callTool, options, state, undefined, undefined, state.offers);
    }
    // The read-back's one item in another quantity ("oya, ahubwo ipaki 25", "make it 25",
    // « plutôt 25 »): read back again, never a search for the words of the change.
    const drafted = state.draft?.lines.length === 1 ? state.draft.lines[0] : undefined;
    const redrafted = drafted && state.stock?.find((item) => item.sku === drafted.sku);
    const newQty = redrafted && !choice ? changedQuantity(text) : undefined;
    if (state.venue && redrafted && newQty !== undefined) {
      return await draftOrder(turn, callTool, options, state, [{
        product: redrafted,
        qty: newQty,
      }]);
    }
    // A yes with nothing of the flow's waiting on it (the read-back's Confirm is the agent's): what
    // the place has, or how many of the item quoted; never a search for "yes".
    if (!choice && saysYes(text) && !state.order) {
      if (state.venue && state.stock) {
        return keep(state, [
          state.quoted ? { text: say("yesHowMany", lang) } : {
            text: say("yesWhat", lang, { venue: state.venue.name }),
            rows: stockRows(state.stock, turn),
          },
        ]);
      }
      return await listVenues(turn, callTool, options, state);
    }
    if (state.venue && state.stock && text) {
      const order = parseOrderLines(text, state.stock);
      // "impapuro A4 ni angahe?", « combien coûte le papier A4 ? »: one item's price asked, told
      // (the order waiting kept), never drafted as an order of one.
      const [priced] = order.lines;
      if (order.lines.length === 1 && !order.unknown.length && namesPriceOrStock(text)) {
        const qty = askedQuantity(text);
        return quote(turn, state, {
          venue: state.venue,
          product: priced.product,
          ...(qty ? { qty } : {}),
        });
      }
      if (order.lines.length && !order.unknown.length) {
        return await draftOrder(turn, callTool, options, state, order.lines);
      }
      // « c'est combien le beef brochette ? »: the item read from its words alone, its price told.
      if (!order.lines.length && namesPriceOrStock(text)) {
        const item = parseOrderLines(itemAsked(text), state.stock);
        if (item.lines.length === 1 && !item.unknown.length) {
          return quote(turn, state, { venue: state.venue, product: item.lines[0].product });
        }
      }
      const listed = await itemListStep(turn, callTool, options, state, state.venue, text);
      if (listed) return listed;
      if (!/^\s*[\d\s,.x×*#]+\s*$/.test(text) && options.searchStock && !order.lines.length) {
        return await searchStock(turn, callTool, options, state, text);
      }
      // A price or stock question for an item this place lacks ("c'est combien le café latte ?"
      // at a grill): the item's words said back, not the question; and, asked or ordered, the
      // places that have it.
      const asked = namesPriceOrStock(text) ? itemAsked(text) : "";
      // An order of it too ("2 beef brochette" at a place without brochettes).
      const sought = asked || order.unknown.join(" ");
      const elsewhere = sought
        ? (await placesStocking(callTool, options, sought, lang) ?? [])
          .filter((offer) => offer.venue.id !== state.venue!.id)
        : [];
      const found = elsewhere.map((offer) =>
        say("stockedAt", lang, {
          name: offer.product.name,
          price: money(offer.product.price, turn),
          venue: offer.venue.name,
        })
      );
      return keep(state, [{
        text: say("notListed", lang, {
          parts: asked || order.unknown.join(", ") || text,
          venue: state.venue.name,
        }) + (found.length ? `\n\n${say("foundElsewhere", lang)}\n${found.join("\n")}` : ""),
        rows: stockRows(state.stock, turn),
      }]);
    }
    if (state.venues && /^\s*#?\d{1,2}[.)]?\s*$/.test(text)) {
      const venue = state.venues[Number(text.replace(/\D/g, "")) - 1];
      if (venue) return await pickVenue(turn, callTool, options, { ...state, venue });
      return await listVenues(turn, callTool, options, state);
    }
    if (text) {
      const named = await venueNamed(callTool, options.category, text);
      if (named) return await showStock(turn, callTool, options, { ...state, venue: named });
      if (options.searchStock) return await searchStock(turn, callTool, options, state, text);
    }
    // Items named before a place is chosen are kept and read at the place picked.
    const wanted = text && !state.venues ? { wanted: text.slice(0, 500) } : {};
    return await listVenues(turn, callTool, options, { ...state, ...wanted });
  };
}

/**
 * The ordering conversation as the whole flow of an agent that only orders
 * (Hardware, Shop), its memory typed and versioned: spread it into the agent
 * (`{ id, ...orderingAgentFlow({...}) }`).
 */
export function orderingAgentFlow(
  options: OrderFlowOptions,
): { offlineFlow: OfflineFlow; memory: FlowMemory; stocks?: PackAgent["stocks"] } {
  return {
    ...typedFlow({
      version: ORDERING_MEMORY_VERSION,
      memory: z.object(orderingMemory),
      step: orderFlow(options),
    }),
    // Where a typed name searches the stock, the stock also tells the router what is sold here.
    ...(options.searchStock
      ? { stocks: (text, callTool) => stocksNamed(callTool, options, text) }
      : {}),
  };
}

// Whether a place of the flow's kind stocks an item `text` names: a word of its name, in any
// language it is named in, starts with one of the message's search words (so "need" never
// finds a needle, and « enveloppes » finds "Enveloppes C5 (50)").
async function stocksNamed(
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  text: string,
): Promise<boolean> {
  const query = options.filler ? text.replace(options.filler, " ") : text;
  const terms = productTerms(query, { synonyms: options.synonyms, exclude: [...PLACE_WORDS] });
  const proforma = asksProforma(text) || (terms.length > 0 && asksWhatIsOffered(text));
  if (!terms.length && !proforma) return false;
  const places = await callTyped(callTool, venueRows, {
    table: "businesses",
    columns: ["id", "name", "area"],
    filters: [{ column: "category", op: "eq", value: options.category }],
    limit: 100,
  }, "stocks_places");
  if (!places.ok || !places.data.items.length) return false;
  // A proforma, or whether something is sold or done ("do you do photocopies?"), asked of a
  // tenant whose only place is of this kind is its to answer from its stock, found or not.
  if (proforma && places.data.items.length === 1) return true;
  const ids = new Set(places.data.items.map((venue) => venue.id));
  for (const [i, key] of terms.slice(0, 4).entries()) {
    const found = await stockNamed(callTool, options, key, `stocks_${i}`);
    if (!found.ok) return false;
    const stem = key.length > 4 && key.endsWith("s") ? key.slice(0, -1) : key;
    const named = found.rows.some((row) =>
      ids.has(row.business_id) &&
      [row.name, ...Object.values(row.names ?? {}).filter((name) => typeof name === "string")]
        .some((name) => normalizeWords(name as string).some((word) => word.startsWith(stem)))
    );
    if (named) return true;
  }
  return false;
}

/**
 * The tenant's venue of `category` that `text` names ("menu at Question
 * Coffee", « une table au Café Nyamirambo »), or null: one whose first two
 * distinctive name words (four letters or more, accents and case aside) are
 * all in the message.
 */
export async function venueNamed(
  callTool: OfflineToolCaller,
  category: string,
  text: string,
): Promise<Venue | null> {
  const words = normalizeWords(text).filter((word) => word.length >= 4);
  if (!words.length) return null;
  const found = await callTyped(callTool, venueRows, {
    table: "businesses",
    columns: ["id", "name", "area"],
    filters: [{ column: "category", op: "eq", value: category }],
    limit: 100,
  }, "venue_named");
  const venues: Venue[] = found.ok ? found.data.items : [];
  // A venue whose distinctive name words are all in the message ("menu at Question Coffee").
  return venues.find((venue) => {
    const name = normalizeWords(venue.name).filter((word) => word.length >= 4);
    return name.length > 0 && name.slice(0, 2).every((word) => words.includes(word));
  }) ?? null;
}

function inArea(venue: Venue, area: string | undefined): boolean {
  return area !== undefined && venue.area === area;
}

async function listVenues(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  state: OrderState,
  intro?: string,
  area?: string,
  offers?: OrderState["offers"],
): Promise<OfflineStep> {
  const lang = turn.language;
  const offered = new Map((offers ?? []).map((offer) => [offer.venue.id, offer.product]));
  const result = await callTyped(callTool, placedVenueRows, {
    table: "businesses",
    columns: ["id", "name", "area", "lat", "lng"],
    filters: [{ column: "category", op: "eq", value: options.category }],
    order: { column: "name", ascending: true },
    limit: 100,
  }, "venues");
  if (!result.ok) {
    return { replies: [{ text: say("lookupFailed", lang, { msg: errorOf(result) }) }] };
  }
  const here = turn.input.location;
  const venues = result.data.items
    .filter((venue) => !offered.size || offered.has(venue.id))
    .map(({ lat, lng, ...venue }) => ({
      ...venue,
      ...(here && typeof lat === "number" && typeof lng === "number"
        ? { km: Math.round(distanceKm(here, lat, lng) * 10) / 10 }
        : {}),
    }))
    // The area the customer named first, then the nearest.
    .sort((a, b) => Number(inArea(b, area)) - Number(inArea(a, area)) || (a.km ?? 0) - (b.km ?? 0))
    .slice(0, 10);
  if (!venues.length) return { replies: [{ text: options.texts.noVenues[lang] }] };
  // A single place to order from is not a choice: its stock, under what was said before it.
  if (venues.length === 1 && !offered.size) {
    const [venue] = venues;
    const shown = await pickVenue(turn, callTool, options, {
      venues,
      venue,
      order: state.order,
      wanted: state.wanted,
    });
    const [first, ...rest] = shown.replies ?? [];
    return intro && first
      ? { ...shown, replies: [{ ...first, text: `${intro}\n\n${first.text}` }, ...rest] }
      : shown;
  }
  const offerOf = (venue: Venue) => {
    const product = offered.get(venue.id);
    return product ? `${product.name}, ${money(product.price, turn)}` : "";
  };
  const list = venues.map((venue, i) =>
    `${i + 1}. ${venue.name}${venue.area ? ` (${venue.area})` : ""}${
      venue.km !== undefined ? ` · ${venue.km} km` : ""
    }${offerOf(venue) ? ` — ${offerOf(venue)}` : ""}`
  ).join("\n");
  const kept = offered.size
    ? offers?.filter((offer) => venues.some((v) => v.id === offer.venue.id))
    : undefined;
  return {
    memory: {
      step: {
        venues,
        order: state.order,
        ...(kept ? { offers: kept } : {}),
        ...(state.wanted ? { wanted: state.wanted } : {}),
      } satisfies OrderState,
    },
    replies: [{
      text: `${intro ? `${intro}\n\n` : ""}${options.texts.askVenue[lang]}\n${list}`,
      rows: venues.map((venue) => ({
        id: `venue:${venue.id}`,
        title: shortenTitle(venue.name, TITLE_LIMITS.row),
        description: shortenTitle(
          [venue.area, venue.km !== undefined ? `${venue.km} km` : "", offerOf(venue)]
            .filter(Boolean).join(" · "),
          TITLE_LIMITS.description,
        ) || undefined,
      })),
    }],
  };
}

function productColumns(options: OrderFlowOptions): string[] {
  return ["sku", "name", "names", "price", "unit", "qty", "is_available", "business_id"]
    .concat(options.prescriptions ? ["requires_prescription"] : []);
}

type ProductRow = z.output<typeof productRows.output>["items"][number];

// A product as the customer reads it: named in their language when it has a name in it.
function stocked(row: ProductRow, lang: Language): Stocked {
  const named = row.names?.[lang];
  const name = typeof named === "string" && named.trim() ? named.trim() : row.name;
  const names = Object.fromEntries(
    Object.entries(row.names ?? {}).filter((entry): entry is [string, string] =>
      typeof entry[1] === "string" && entry[1].trim() !== ""
    ).map(([language, text]) => [language, text.trim()]),
  );
  return {
    sku: row.sku,
    name,
    ...(name !== row.name ? { listed: row.name } : {}),
    ...(Object.keys(names).length ? { names } : {}),
    price: Number(row.price),
    unit: row.unit,
    available: row.is_available && row.qty > 0,
    ...(row.requires_prescription ? { rx: true } : {}),
  };
}

function stockRows(stock: readonly Stocked[], reader: Reader): AgentReply["rows"] {
  const lang = reader.language;
  return stock.slice(0, 10).map((item) => ({
    id: `item:${item.sku}`,
    title: shortenTitle(item.name, TITLE_LIMITS.row),
    description: `${money(item.price, reader)}${unitSuffix(item.unit, lang)}${
      item.rx ? " · ℞" : ""
    }${item.available ? "" : ` · ${say("unavailable", lang)}`}`,
  }));
}

// " / ikirahuri" in a rw menu; nothing when the unit has no name in the language.
function unitSuffix(unit: string | null | undefined, lang: Language): string {
  const name = productUnit(unit, lang);
  return name ? ` / ${name}` : "";
}

// The venue's products in stock, or the step saying the lookup failed.
async function venueStock(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  venueId: string,
): Promise<{ stock: ReturnType<typeof stocked>[] } | { failed: OfflineStep }> {
  const result = await callTyped(callTool, productRows, {
    table: "products",
    columns: productColumns(options),
    filters: [{ column: "business_id", op: "eq", value: venueId }],
    order: { column: "name", ascending: true },
    limit: 50,
  }, "stock");
  if (!result.ok) {
    return {
      failed: { replies: [{ text: say("lookupFailed", turn.language, { msg: errorOf(result) }) }] },
    };
  }
  return {
    stock: result.data.items.map((row) => stocked(row, turn.language)).filter((item) =>
      item.available
    ),
  };
}

async function showStock(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  state: OrderState,
): Promise<OfflineStep> {
  const found = await venueStock(turn, callTool, options, state.venue!.id);
  return "failed" in found ? found.failed : stockStep(turn, state, found.stock);
}

function stockStep(
  turn: OfflineTurn,
  state: OrderState,
  stock: ReturnType<typeof stocked>[],
): OfflineStep {
  const lang = turn.language;
  const venue = state.venue!;
  if (!stock.length) {
    return {
      memory: { step: { venues: state.venues, order: state.order } satisfies OrderState },
      replies: [{ text: say("emptyStock", lang, { venue: venue.name }) }],
    };
  }
  const list = stock.map((item, i) =>
    `${i + 1}. ${item.name} — ${money(item.price, turn)}${item.rx ? " ℞" : ""}`
  ).join("\n");
  return {
    memory: {
      step: { venues: state.venues, venue, stock, order: state.order } satisfies OrderState,
    },
    replies: [{
      text: say("stock", lang, { venue: venue.name, list }),
      rows: stockRows(stock, turn),
    }],
  };
}

// A venue picked: an item the customer asked for and was offered there is read back at once, in
// the quantity asked ("20 rames de papier A4", then the shop), still in stock; else its stock.
async function pickVenue(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  state: OrderState,
): Promise<OfflineStep> {
  const venue = state.venue!;
  const found = await venueStock(turn, callTool, options, venue.id);
  if ("failed" in found) return found.failed;
  const offer = state.offers?.find((entry) => entry.venue.id === venue.id);
  const product = found.stock.find((item) => item.sku === offer?.product.sku);
  const shown: OrderState = { venues: state.venues, venue, stock: found.stock, order: state.order };
  if (!offer && state.wanted && found.stock.length) {
    // "2 beef brochettes and chips", then the place: read back at once when every part names
    // its stock; else its stock, under what was not found there.
    const order = parseOrderLines(state.wanted, found.stock);
    if (order.lines.length && !order.unknown.length) {
      return await draftOrder(turn, callTool, options, shown, order.lines);
    }
    if (order.lines.length) {
      const listed = stockStep(turn, state, found.stock);
      const missing = say("notListed", turn.language, {
        parts: order.unknown.join(", "),
        venue: venue.name,
      });
      return { ...listed, replies: [{ text: missing }, ...listed.replies ?? []] };
    }
  }
  if (!offer || !product || !found.stock.length) return stockStep(turn, state, found.stock);
  return await draftOrder(turn, callTool, options, shown, [{ product, qty: offer.qty ?? 1 }]);
}

/**
 * How many the customer asked for with an item: the first number standing alone ("20 rames",
 * "for 10?"), never one that is part of a name or a size ("A4", "5kg", "500mg"), a decimal
 * ("2,5 kg"), a time ("14:00"), a street address ("KK 15 Rd", "KG 9 Ave") or a phone number's
 * group ("0788 123 456"); undefined when none was asked.
 */
export function askedQuantity(text: string): number | undefined {
  for (const found of text.matchAll(STANDALONE_NUMBER)) {
    const before = text.slice(0, found.index).trimEnd();
    const after = text.slice(found.index + found[0].length).trimStart();
    if (/^[:.,]\d/.test(after) || /\d[.,]?$/.test(before) || /^\d/.test(after)) continue;
    if (/\bK[GKN]$/i.test(before) || /^(?:rd|road|ave|avenue|st|street)\b/i.test(after)) continue;
    const qty = Number(found[1]);
    if (qty > 0) return qty;
  }
  return undefined;
}

// Words that stand for the thing already talked about, not a name (en/fr/rw), and a
// Kinyarwanda verb whose subject is those things ("birahari", "biraboneka": they are there).
const POINTING = new Set([
  "it",
  "they",
  "them",
  "this",
  "these",
  "that",
  "those",
  "all",
  "everything",
  "ca",
  "c",
  "ce",
  "cela",
  "tout",
  "tous",
  "les",
  "ibi",
  "ibyo",
  "byose",
  "byombi",
]);
const THINGS_ARE_THERE = /^bi(?:ra)?(?:cya)?(?:hari|boneka)$/;

// Whether a price or stock question points back at the order waiting ("is it in stock?",
// « c'est disponible ? »); one naming a product the place stocks is read by the caller.
function pointsAtTheOrder(text: string): boolean {
  const words = text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().split(/[^a-z0-9]+/);
  return words.some((word) => POINTING.has(word) || THINGS_ARE_THERE.test(word));
}

/**
 * Whether `text` asks what an item costs or whether it is stocked, rather than ordering it (in
 * words, or any question).
 */
export function asksPriceOrStock(text: string): boolean {
  return /[?？]/.test(text) || namesPriceOrStock(text);
}

// A yes to "Shall I order them?".
const AGREES =
  /^\s*(?:yes|yeah|ok|okay|sure|please|oui|d'accord|ok(?:ay)?|yego|ego|ni byiza|sawa)\b/i;

// The price and stock of the one place's item, told before any order: the place is chosen and
// the item kept, so a quantity typed next orders it (with the quantity asked, a button does).
function quote(
  turn: OfflineTurn,
  state: OrderState,
  offer: { venue: Venue; product: Stocked; qty?: number },
): OfflineStep {
  const lang = turn.language;
  const { venue, product, qty } = offer;
  const fields = {
    name: product.name,
    price: money(product.price, turn),
    unit: productUnit(product.unit, lang) ?? say("eachUnit", lang),
    venue: venue.name,
  };
  return {
    memory: {
      step: {
        venue,
        stock: [product],
        order: state.order,
        quoted: { sku: product.sku, ...(qty ? { qty } : {}) },
      } satisfies OrderState,
    },
    replies: [
      // Asked while a read-back waits (shown again after this): the price alone, no order.
      turn.confirming
        ? {
          text: priceAnswer({
            name: product.name,
            price: product.price,
            unit: product.unit,
            inStock: true,
            venue: venue.name,
          }, turn),
        }
        : qty
        ? {
          text: say("quoteTotal", lang, {
            ...fields,
            qty: String(qty),
            total: money(product.price * qty, turn),
          }),
          buttons: [{ id: `quote:${qty}`, title: say("quoteOrder", lang, { qty: String(qty) }) }],
        }
        : { text: say("quote", lang, { ...fields, example: "10" }) },
    ],
  };
}

// The products whose name has `key` (a plural's stem too), cheapest first; when none, those
// named so in one of the customer's languages (« enveloppes », "impapuro").
async function stockNamed(
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  key: string,
  label: string,
): Promise<{ ok: true; rows: ProductRow[] } | Exclude<ToolResult, { ok: true }>> {
  const stem = key.length > 4 && key.endsWith("s") ? key.slice(0, -1) : key;
  for (const column of ["name", "names"]) {
    const found = await callTyped(callTool, productRows, {
      table: "products",
      columns: productColumns(options),
      filters: [{ column, op: "ilike", value: stem }],
      order: { column: "price", ascending: true },
      limit: 50,
    }, column === "name" ? label : `${label}_names`);
    if (!found.ok) return found;
    if (found.data.items.length) return { ok: true, rows: found.data.items };
  }
  return { ok: true, rows: [] };
}

const STANDALONE_NUMBER = /(?<![\p{L}\p{N}])(\d{1,3})(?![\p{L}\p{N}])/gu;

// Words that say where, never what: a search for "near" finds nothing.
const PLACE_WORDS = new Set(["near", "around", "nearby", "pres", "proche", "vers", "hafi"]);

async function searchStock(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  state: OrderState,
  text: string,
): Promise<OfflineStep> {
  const lang = turn.language;
  // "Do you sell", « vous faites », "mukora" ask whether; they name nothing to look for.
  const query = (options.filler ? text.replace(options.filler, " ") : text)
    .replace(new RegExp(ASKS_OFFERED.source, "gi"), " ")
    .replace(/[^\p{L}\p{N}\s-]/gu, " ").replace(/\s+/g, " ").trim();
  // The place the router found in the first message ("Kimironko market", the packs'
  // gazetteer) is where to look, and none of what to look for; nor is "near" or "hafi".
  const place = typeof turn.memory.place === "string" ? normalizeWords(turn.memory.place) : [];
  const words = normalizeWords(query).filter((word) =>
    word.length >= 3 && !/^\d+$/.test(word) && !place.includes(word) && !PLACE_WORDS.has(word)
  );
  if (!words.length && !place.length) return await listVenues(turn, callTool, options, state);
  const places = await callTyped(callTool, venueRows, {
    table: "businesses",
    columns: ["id", "name", "area"],
    filters: [{ column: "category", op: "eq", value: options.category }],
    limit: 100,
  }, "places");
  if (!places.ok) {
    return { replies: [{ text: say("lookupFailed", lang, { msg: errorOf(places) }) }] };
  }
  const venues = new Map<string, Venue>(places.data.items.map((venue) => [venue.id, venue]));
  // The tenant's only place of this kind, asked for several items at once: all of them.
  if (venues.size === 1) {
    const [only] = venues.values();
    const listed = await itemListStep(turn, callTool, options, state, only, text);
    if (listed) return listed;
  }
  // A neighbourhood the customer named ("a pharmacy in Kimihurura") is where to look, not
  // what to look for.
  const area = [...venues.values()].find((venue) =>
    venue.area &&
    normalizeWords(venue.area).some((word) => words.includes(word) || place.includes(word))
  )?.area ?? undefined;
  const areaWords = area ? normalizeWords(area) : [];
  const sought = words.filter((word) => !areaWords.includes(word));
  // A symptom is what the customer feels, not what to look for: which medicine treats it is a
  // pharmacist's advice, never a stock search for "headache".
  const felt = options.symptoms
    ? normalizeWords(query).filter((word) => options.symptoms!.words.has(word))
    : [];
  // Quantities, units, delivery and place words dropped; each content word tried in turn.
  // The router's place and the words that only say where ("near", "hafi") are never sought.
  const named = productTerms(query, {
    synonyms: options.synonyms,
    exclude: [...areaWords, ...place, ...PLACE_WORDS, ...felt],
  });
  // A condition a product is named for ("malaria test", "test y'inda") is sought after the
  // other words, as a whole word of a name: "mal" (j'ai mal) never finds "Malarone".
  const conditions = named.length
    ? [...new Set(felt.filter((word) => options.symptoms?.named?.has(word)))]
    : [];
  const terms = [...named, ...conditions];
  const noAdvice = (missing?: string[]) =>
    listVenues(
      turn,
      callTool,
      options,
      state,
      [
        missing?.length ? say("notFound", lang, { q: missing.join(" ") }) : "",
        options.symptoms!.reply[lang],
      ].filter(Boolean).join("\n\n"),
      area,
    );
  if (felt.length && !terms.length) return await noAdvice();
  if (!terms.length) {
    return await listVenues(
      turn,
      callTool,
      options,
      state,
      area && say("inArea", lang, { area }),
      area,
    );
  }
  let rows: ProductRow[] = [];
  const searched = terms.slice(0, 4);
  // The words as written and as searched: a product named by two of them is surely asked for.
  const asked = [...new Set([...searched, ...sought])];
  for (const [i, key] of searched.entries()) {
    const found = await stockNamed(callTool, options, key, i === 0 ? "search" : `search_${i}`);
    if (!found.ok) {
      return { replies: [{ text: say("lookupFailed", lang, { msg: errorOf(found) }) }] };
    }
    const named = found.rows.filter((row) =>
      venues.has(row.business_id) &&
      (!conditions.includes(key) || normalizeWords(row.name).includes(key))
    );
    if (!rows.length) {
      rows = named;
      // One product found is the one; several are told apart by the words after it.
      if (rows.length === 1) break;
      continue;
    }
    // A later word's product joins them only when two of the words name it ("impapuro
    // zikomeye", strong paper: the cardstock, not the cheapest paper).
    const known = new Set(rows.map((row) => `${row.business_id}:${row.sku}`));
    rows = rows.concat(named.filter((row) =>
      !known.has(`${row.business_id}:${row.sku}`) &&
      asked.filter((word) => holdsWord(row, word)).length >= 2
    ));
  }
  // The tenant's only place of this kind: any of its products two of the words name, however
  // written (« papier cartonné » with its accent is the cardstock).
  if (venues.size === 1 && asked.length >= 2) {
    const [only] = venues.keys();
    const stock = await placeStock(callTool, options, only, "search_stock");
    if (!stock.ok) {
      return { replies: [{ text: say("lookupFailed", lang, { msg: errorOf(stock) }) }] };
    }
    const known = new Set(rows.map((row) => row.sku));
    rows = rows.concat(
      stock.data.items.filter((row) =>
        !known.has(row.sku) && asked.filter((word) => holdsWord(row, word)).length >= 2
      ),
    );
  }
  // Told apart among what can be sold: a box out of stock never hides the reams in stock.
  rows = mostNamed(rows.filter((row) => row.is_available && row.qty > 0), asked)
    .sort((a, b) => a.price - b.price);
  const qty = askedQuantity(text);
  const offers = rows
    .map((row) => ({
      venue: venues.get(row.business_id)!,
      product: stocked(row, lang),
      ...(qty ? { qty } : {}),
    }))
    .filter((offer) => offer.product.available)
    // Cheapest first, within the area the customer named first.
    .sort((a, b) => Number(inArea(b.venue, area)) - Number(inArea(a.venue, area)));
  const seen = new Set<string>();
  const byVenue = offers.filter((offer) =>
    !seen.has(offer.venue.id) && seen.add(offer.venue.id) !== undefined
  ).slice(0, 10);
  if (!byVenue.length) {
    // What was asked for and not found is said back in the customer's order of words.
    if (felt.length) {
      // The words as written (no synonym swapped in), in the customer's order.
      const written = productTerms(query, { synonyms: {}, exclude: felt });
      return await noAdvice(
        sought.filter((word) => written.includes(word) || conditions.includes(word)),
      );
    }
    // The words as written that name a thing ("photocopies", not "des").
    const written = productTerms(query, { synonyms: {}, exclude: [...areaWords, ...place] });
    const q = sought.filter((word) => written.includes(word)).join(" ") || sought.join(" ");
    // The tenant's only place of this kind: it does not have it, and here is what it has.
    const [only] = venues.size === 1 ? venues.values() : [];
    return await listVenues(
      turn,
      callTool,
      options,
      state,
      only ? say("notHere", lang, { q, venue: only.name }) : say("notFound", lang, { q }),
      area,
    );
  }
  // The tenant's only place of this kind has it: that place, and on to the order's read-back
  // (Cancel there keeps the customer free to look again); a list of one would only ask them to
  // pick it. Where several places were searched and one has it, the offer is shown with its place
  // and price first: "paracetamol?" asks what there is, not to order at once.
  if (byVenue.length === 1 && venues.size === 1) {
    const [only] = byVenue;
    // "How much is A4 paper?", « vous avez des enveloppes ? »: the price and stock first.
    if (asksPriceOrStock(text)) return quote(turn, state, only);
    return await pickVenue(turn, callTool, options, {
      venues: [only.venue],
      offers: byVenue,
      order: state.order,
      venue: only.venue,
    });
  }
  const [best] = byVenue;
  return {
    memory: {
      step: {
        venues: byVenue.map((offer) => offer.venue),
        offers: byVenue,
        order: state.order,
      } satisfies OrderState,
    },
    replies: [{
      text: say("offers", lang, {
        name: best.product.name,
        price: money(best.product.price, turn),
        venue: best.venue.name,
      }) + "\n" + byVenue.map((offer, i) =>
        `${i + 1}. ${offer.venue.name} — ${offer.product.name}, ${
          money(offer.product.price, turn)
        }${offer.product.rx ? " ℞" : ""}`
      ).join("\n"),
      rows: byVenue.map((offer) => ({
        id: `venue:${offer.venue.id}`,
        title: shortenTitle(offer.venue.name, TITLE_LIMITS.row),
        description: shortenTitle(
          `${offer.product.name}, ${money(offer.product.price, turn)}`,
          TITLE_LIMITS.description,
        ),
      })),
    }],
  };
}

// Every product of one place, available or not, with its names in every language.
function placeStock(
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  venueId: string,
  label: string,
) {
  return callTyped(callTool, productRows, {
    table: "products",
    columns: productColumns(options),
    filters: [{ column: "business_id", op: "eq", value: venueId }],
    order: { column: "name", ascending: true },
    limit: 50,
  }, label);
}

// Whether a word of the row's names (in any language) starts with `term` (a plural's stem).
function holdsWord(row: ProductRow, term: string): boolean {
  const stem = term.length > 4 && term.endsWith("s") ? term.slice(0, -1) : term;
  return [row.name, ...Object.values(row.names ?? {})]
    .filter((name): name is string => typeof name === "string").flatMap(normalizeWords)
    .some((word) => word.startsWith(stem));
}

// The rows whose names (in any language) best hold `terms`, a term held by fewer rows weighing
// more (the word that tells the products apart); all of them when they hold the terms alike.
function mostNamed(rows: ProductRow[], terms: readonly string[]): ProductRow[] {
  if (rows.length < 2 || terms.length < 2) return rows;
  const holds = holdsWord;
  const weight = new Map(terms.map((term) => {
    const count = rows.filter((row) => holds(row, term)).length;
    return [term, count ? 1 / count : 0];
  }));
  const score = (row: ProductRow) =>
    terms.reduce((sum, term) => sum + (holds(row, term) ? weight.get(term)! : 0), 0);
  const top = Math.max(...rows.map(score));
  return rows.filter((row) => score(row) >= top - 1e-9);
}

// Whether the business sells, offers or does something, asked in en/fr/rw.
const ASKS_OFFERED =
  /\b(?:do|can)\s+(?:you|u)\s+(?:do|offer|sell|make|print|have|provide)\b|\b(?:vous\s+(?:faites|proposez|vendez|offrez|imprimez)|faites[- ]vous|proposez[- ]vous|vendez[- ]vous)\b|\bmu(?:ra)?(?:kora|tanga|curuza|fite)\b/i;

/** Whether `text` asks whether the business sells, offers or does something. */
export function asksWhatIsOffered(text: string): boolean {
  return ASKS_OFFERED.test(text);
}

// Delivery asked in the order's words (en/fr/rw): "delivered to Remera", « livrer », "kunzanira".
const DELIVERY_WORDS =
  /\b(?:deliver(?:y|ed|ing)?|livr(?:er|ez|aison|é|e)|ku(?:n)?zan(?:ir)?a|mwanzanira|muzanzanira|bikanzanira|kugeza)\b/i;

// Words that change an amount already asked ("no, rather", "make it", « plutôt », "ahubwo").
const CHANGE_WORDS = new Set(
  ("no non oya not rather instead make it change to actually sorry en fait plutot plutôt mais " +
    "ahubwo oya reka mbabarira please svp stp want need je veux voudrais ndashaka nshaka i " +
    "pour only seulement gusa").split(" ").flatMap(normalizeWords),
);

// The new quantity a message gives for the item just read back, when it says nothing else
// (units aside); undefined otherwise.
function changedQuantity(text: string): number | undefined {
  const words = normalizeWords(text);
  const numbers = words.filter((word) => /^\d{1,4}$/.test(word));
  if (numbers.length !== 1 || words.length < 2) return undefined;
  const rest = words.filter((word) =>
    !/^\d+$/.test(word) && !CHANGE_WORDS.has(word) && !isUnitWord(word)
  );
  const qty = Number(numbers[0]);
  return rest.length === 0 && qty > 0 ? qty : undefined;
}

/**
 * Whether and where the place delivers, from its data (the place the customer is at, or the
 * tenant's places of this kind); with none on record, a person is offered.
 */
async function deliveryReply(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  state: OrderState,
): Promise<AgentReply> {
  // "Vous livrez des sambusa ?" before a place is chosen: the places that have it, and whether
  // they deliver; a thing no place has is said so, over every place's delivery.
  const thing = state.venue ? null : deliveredThing(turn.input.text);
  const found = thing ? await placesStocking(callTool, options, thing, turn.language) : null;
  const places = await readDeliveryPlaces(
    callTool,
    state.venue
      ? { businessIds: [state.venue.id] }
      : found?.length
      ? { businessIds: found.map((offer) => offer.venue.id) }
      : { category: options.category },
  );
  const answer = places
    ? deliveryAnswer({
      places,
      text: turn.input.text,
      language: turn.language,
      currency: turn.currency,
    })
    : { text: say("deliveryUnread", turn.language), askPerson: true };
  const stocked = found?.length
    ? found.map((offer) =>
      say("stockedAt", turn.language, {
        name: offer.product.name,
        price: money(offer.product.price, turn),
        venue: offer.venue.name,
      })
    ).join("\n") + "\n\n"
    : thing && found
    ? say("stockedNowhere", turn.language, { q: thing }) + "\n\n"
    : "";
  const person = answer.askPerson && turn.handoff
    ? [{ id: `agent:${turn.handoff}`, title: say("person", turn.language) }]
    : [];
  // The places that have it, to order there: buttons beside the person, else a list.
  const order = (found ?? []).map((offer) => ({
    id: `venue:${offer.venue.id}`,
    title: offer.venue.name,
  }));
  const text = stocked + answer.text;
  if (person.length) return { text, buttons: [...order.slice(0, 2), ...person] };
  return order.length ? { text, rows: order } : { text };
}

// How many places a delivery question's thing is shown at.
const STOCKED_PLACES = 3;

// The places of the flow's kind that have the thing a delivery question names, with the thing as
// each lists it (cheapest first); empty when none has it, null when the stock cannot be read.
async function placesStocking(
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  thing: string,
  lang: Language,
): Promise<Array<{ venue: Venue; product: Stocked }> | null> {
  const terms = productTerms(thing, { synonyms: options.synonyms, exclude: [...PLACE_WORDS] });
  if (!terms.length) return [];
  const places = await callTyped(callTool, venueRows, {
    table: "businesses",
    columns: ["id", "name", "area"],
    filters: [{ column: "category", op: "eq", value: options.category }],
    limit: 100,
  }, "delivery_thing_places");
  if (!places.ok) return null;
  const venues = new Map(places.data.items.map((venue) => [venue.id, venue]));
  const found = await stockNamed(callTool, options, terms[0], "delivery_thing");
  if (!found.ok) return null;
  const seen = new Set<string>();
  return found.rows
    .filter((row) => venues.has(row.business_id) && row.is_available && row.qty > 0)
    .filter((row) => !seen.has(row.business_id) && seen.add(row.business_id) !== undefined)
    .slice(0, STOCKED_PLACES)
    .map((row) => ({ venue: venues.get(row.business_id)!, product: stocked(row, lang) }));
}

// A proforma or a quotation asked for (en/fr/rw): a priced quote to take to whoever pays.
const PROFORMA =
  /\b(?:pro[\s-]?formas?|quotations?|devis|cotations?|inyemezabiciro)\b|\bfactures?\s+pro\b/i;

/** Whether `text` asks for a proforma or a quotation (a priced quote, not an order). */
export function asksProforma(text: string): boolean {
  return PROFORMA.test(text);
}

/**
 * A proforma asked for: the items it names priced from the place's stock (the tenant's only place
 * of this kind, or the one the customer is in), and the team asked through the inbox to issue it
 * with those items; without items, the team is asked and the customer told what to write.
 */
async function proformaStep(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  state: OrderState,
): Promise<OfflineStep> {
  const lang = turn.language;
  const text = turn.input.text.trim();
  let venue = state.venue;
  if (!venue) {
    const places = await callTyped(callTool, venueRows, {
      table: "businesses",
      columns: ["id", "name", "area"],
      filters: [{ column: "category", op: "eq", value: options.category }],
      limit: 2,
    }, "proforma_places");
    if (places.ok && places.data.items.length === 1) venue = places.data.items[0];
  }
  const stock = venue ? await placeStock(callTool, options, venue.id, "proforma_stock") : null;
  const asked = stock?.ok ? readItemList(text, stock.data.items, { minItems: 1 }) : null;
  const lines = (asked?.lines ?? []).map((line) => ({
    sku: line.product.sku,
    name: stocked(line.product, lang).name,
    listed: line.product.name,
    qty: line.qty,
    price: Number(line.product.price),
  }));
  const total = lines.reduce((sum, line) => sum + line.qty * line.price, 0);
  const staffLines = lines.map((line) =>
    `${line.qty} × ${line.listed} @ ${money(line.price, turn)} = ${
      money(line.qty * line.price, turn)
    }`
  );
  const told = await callTool("notify_staff", {
    channel: "inbox",
    payload: {
      reason: "proforma request",
      summary: [
        `Proforma requested${venue ? ` at ${venue.name}` : ""}: “${text.slice(0, 300)}”`,
        ...staffLines,
        ...(lines.length ? [`Total ${money(total, turn)}`] : []),
        ...(asked?.unknown.length ? [`Not in stock: ${asked.unknown.join(", ")}`] : []),
      ].join("\n").slice(0, 1000),
      priority: "medium",
    },
  }, "proforma");
  if (!told.ok) {
    return { replies: [{ text: say("deliveryFailed", lang, { msg: errorOf(told) }) }] };
  }
  const kept: OrderState = venue && stock?.ok
    ? {
      venues: state.venues ?? [venue],
      venue,
      stock: stock.data.items.map((row) => stocked(row, lang)).filter((item) => item.available),
      order: state.order,
      proformaName: true,
      ...(lines.length
        ? { proformaItems: lines.map((line) => ({ sku: line.sku, qty: line.qty })) }
        : {}),
    }
    : { ...state, proformaName: true };
  if (!lines.length || !venue) {
    return { memory: { step: kept }, replies: [{ text: say("proformaAsked", lang) }] };
  }
  // The customer's own name (their WhatsApp profile's) offered for it: one tap for a person,
  // another name typed for a school or company.
  const profile = turn.input.name?.trim();
  const priced = {
    venue: venue.name,
    lines: lines.map((line) => lineText(line, turn)).join("\n"),
    total: money(total, turn),
  };
  return {
    memory: { step: kept },
    replies: [
      profile && profile.length >= 2 && !/\d/.test(profile)
        ? {
          text: say("proformaOffer", lang, { ...priced, profile }),
          buttons: [{
            id: PROFORMA_PROFILE_NAME,
            title: shortenTitle(profile, TITLE_LIMITS.button),
          }],
        }
        : { text: say("proforma", lang, priced) },
    ],
  };
}

/** The button that makes a proforma out to the customer's own (profile) name. */
const PROFORMA_PROFILE_NAME = "proforma:profile_name";

// The shop pack's `proforma_issue` and `proforma_pdf` as the ordering steps read them: the fields
// they use (a capability imports no pack).
const proformaIssue = {
  name: "proforma_issue",
  output: z.object({
    proforma_id: z.string(),
    number: z.string(),
    total: z.number(),
    currency: z.string(),
    valid_until: z.string(),
  }),
};
const proformaPdf = {
  name: "proforma_pdf",
  output: z.object({ pdf_url: z.string(), bytes: z.int().positive() }),
};

/**
 * The name for the proforma asked just before ("Groupe Scolaire Remera"): the proforma issued with
 * the items quoted and sent as a PDF, and the team's ticket given its number and link. Where it
 * cannot be issued (no items quoted, an agent without the tool, a failure), the team is given the
 * name to issue it themselves, as the customer is told.
 */
async function proformaNamed(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  state: OrderState,
  named: { ok: true; name: string; tin?: string },
): Promise<OfflineStep> {
  const lang = turn.language;
  const bare = named.name.trim().replace(/\s+/g, " ").slice(0, 120);
  const name = named.tin ? `${bare} (TIN ${named.tin})` : bare;
  const issued = state.proformaItems?.length && state.venue && bare.length >= 2
    ? await callTyped(callTool, proformaIssue, {
      business_id: state.venue.id,
      items: state.proformaItems,
      customer_name: bare,
      ...(named.tin ? { customer_tin: named.tin } : {}),
      language: lang,
    }, "proforma_issue")
    : null;
  const pdf = issued?.ok
    ? await callTyped(
      callTool,
      proformaPdf,
      { proforma_id: issued.data.proforma_id },
      "proforma_pdf",
      // Issued, it is the customer's whatever Storage does: its number and total are said and
      // the team sends the file, rather than the message retried until it is given up.
      { answersFailure: true },
    )
    : null;
  const summary = issued?.ok
    ? `Proforma ${issued.data.number} issued to “${name}”: ${
      formatMoney(issued.data.total, "en", { currency: issued.data.currency })
    }, valid until ${issued.data.valid_until.slice(0, 10)}. ${
      pdf?.ok
        ? pdf.data.pdf_url
        : `Its PDF could not be made (${pdf?.ok === false ? pdf.error.msg : ""}): please send it.`
    }`
    : `Name to put on the proforma: “${name}”${
      issued && !issued.ok ? ` (not issued automatically: ${issued.error.msg})` : ""
    }`;
  const told = await callTool("notify_staff", {
    channel: "inbox",
    payload: { reason: "proforma request", summary: summary.slice(0, 1000), priority: "medium" },
  }, "proforma_name");
  const next = { ...state, proformaName: undefined, proformaItems: undefined };
  if (issued?.ok) {
    const proforma = issued.data;
    const values = {
      number: proforma.number,
      name,
      total: formatMoney(proforma.total, lang, { currency: proforma.currency }),
      until: formatLongDate(proforma.valid_until, lang),
    };
    return {
      memory: { step: next },
      // The PDF with its link in the caption, for phones that do not open documents; without a
      // PDF, the number and what it holds, and the team sends the file.
      replies: [
        pdf?.ok
          ? {
            text: say("proformaIssued", lang, { ...values, url: pdf.data.pdf_url }),
            document: {
              link: pdf.data.pdf_url,
              filename: `${proforma.number}.pdf`,
              mimeType: "application/pdf",
              size: pdf.data.bytes,
            },
          }
          : { text: say("proformaNoPdf", lang, values) },
      ],
    };
  }
  return {
    memory: { step: next },
    replies: [{
      text: told.ok
        ? say("proformaNamed", lang, { name })
        : say("deliveryFailed", lang, { msg: errorOf(told) }),
    }],
  };
}

/**
 * Several items asked for in one message at `venue` ("40 reams of A4 and 10 boxes of
 * envelopes"), read against its whole stock in every language it is named in: the read-back of
 * them all, or, when one is not stocked or not available, which, with the stock to pick from.
 * Null when the message lists fewer than two items.
 */
async function itemListStep(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  state: OrderState,
  venue: Venue,
  text: string,
): Promise<OfflineStep | null> {
  if (normalizeWords(text).filter((word) => /^\d+$/.test(word)).length < 2) return null;
  const found = await placeStock(callTool, options, venue.id, "stock_list");
  if (!found.ok) {
    return { replies: [{ text: say("lookupFailed", turn.language, { msg: errorOf(found) }) }] };
  }
  const asked = readItemList(text, found.data.items);
  if (asked === null || !asked.lines.length) return null;
  const lines = asked.lines.map((line) => ({
    product: stocked(line.product, turn.language),
    qty: line.qty,
  }));
  const stock = found.data.items.map((row) => stocked(row, turn.language))
    .filter((item) => item.available);
  const shown: OrderState = { venues: state.venues ?? [venue], venue, stock, order: state.order };
  const missing = [
    ...asked.unknown,
    ...lines.filter((line) => !line.product.available).map((line) => line.product.name),
  ];
  if (missing.length) {
    return {
      memory: { step: shown },
      replies: [{
        text: say("notListed", turn.language, { parts: missing.join(", "), venue: venue.name }),
        rows: stockRows(stock, turn),
      }],
    };
  }
  return await draftOrder(turn, callTool, options, shown, lines);
}

async function draftOrder(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  state: OrderState,
  lines: Array<{ product: Stocked; qty: number }>,
): Promise<OfflineStep> {
  const venue = state.venue!;
  const draft = lines.map((line) => ({
    sku: line.product.sku,
    name: line.product.name,
    qty: line.qty,
    price: line.product.price,
    ...(options.prescriptions && line.product.rx ? { rx: true } : {}),
  }));
  const total = draft.reduce((sum, line) => sum + line.qty * line.price, 0);
  const rx = options.prescriptions ? lines.filter((line) => line.product.rx) : [];
  const call = {
    tool: "order_create",
    args: {
      venue_id: venue.id,
      items: draft.map((line) => ({ sku: line.sku, qty: line.qty })),
      ...(rx.length
        ? {
          notes: `Prescription needed: ${rx.map((line) => line.product.name).join(", ")}`.slice(
            0,
            500,
          ),
        }
        : {}),
    },
    step: "order",
  };
  const step = await callWithConfirmation(turn, callTool, call);
  const asksDelivery = DELIVERY_WORDS.test(turn.input.text ?? "");
  const next: OrderState = {
    ...state,
    draft: { lines: draft },
    ...(asksDelivery || state.deliveryAsked ? { deliveryAsked: true as const } : {}),
  };
  if (step.pending) {
    // The read-back the user confirms: names, quantities, prices and the total; drafted in each
    // language, so that shown again after a question in another it reads in that one.
    const readBack = (language: Language) => {
      const reader = { language, currency: turn.currency };
      return say("readBack", language, {
        venue: venue.name,
        lines: lines.map((line, i) =>
          lineText({ ...draft[i], name: nameIn(line.product, language) }, reader)
        ).join("\n"),
        total: money(total, reader),
      });
    };
    const summaries = Object.fromEntries(
      LANGUAGES.map((language) => [language, readBack(language)]),
    );
    return {
      pending: { ...step.pending, summary: readBack(turn.language), summaries },
      memory: { step: next },
    };
  }
  // No confirmation asked (an agent whose policy waives it): report at once.
  return await placed(
    turn,
    callTool,
    options,
    next,
    readResult(orderCreate, step.memory?.lastResult),
  );
}

async function placed(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  options: OrderFlowOptions,
  state: OrderState,
  result: ToolResult<z.output<typeof orderCreate.output>>,
): Promise<OfflineStep> {
  const lang = turn.language;
  if (!result.ok) {
    const text = result.error.code === "CANCELLED"
      ? say("cancelled", lang)
      : say("notPlaced", lang, { msg: result.error.msg });
    // A read-back declined is kept, so a new quantity typed next ("oya, ahubwo 25") redrafts it.
    const cancelled = result.error.code === "CANCELLED";
    return {
      memory: { step: { ...state, draft: cancelled ? state.draft : undefined } },
      replies: [{ text, ...(state.stock ? { rows: stockRows(state.stock, turn) } : {}) }],
    };
  }
  const data = result.data;
  let no = data.order_no;
  if (!no) {
    const found = await callTyped(callTool, orderNoRows, {
      table: "orders",
      columns: ["order_no"],
      filters: [{ column: "id", op: "eq", value: data.order_id }],
      limit: 1,
    }, "order_no");
    no = found.ok ? found.data.items[0]?.order_no ?? "" : "";
  }
  const venue = data.venue_name ?? state.venue?.name ?? "";
  // The order stores each line under its stocked name; the customer reads the one they were shown.
  const shownName = (stored: string) =>
    state.stock?.find((item) => (item.listed ?? item.name) === stored)?.name ?? stored;
  const lines = data.items?.map((item) => ({
    name: shownName(item.name),
    qty: item.qty,
    price: item.unit_price,
  })) ?? state.draft?.lines ?? [];
  const order: PlacedOrder = { id: data.order_id, no, total: data.total, venue };
  const rx = (state.draft?.lines ?? []).filter((line) => line.rx).map((line) => line.name);
  const large = options.deliveryFrom !== undefined && data.total >= options.deliveryFrom;
  // Asked for in the order's words: offered whatever the order's size, and said so.
  const wanted = !large && state.deliveryAsked === true;
  const text = say("placed", lang, {
    no,
    venue,
    told: data.venue_told ? say("venueTold", lang, { venue }) : "",
    lines: lines.map((line) => lineText(line, turn)).join("\n"),
    total: money(data.total, turn),
  }) + (large ? `\n\n${say("delivery", lang, { venue })}` : "") +
    (wanted ? `\n\n${say("deliveryWanted", lang, { venue })}` : "") +
    (rx.length ? `\n\n${say("rxNeeded", lang, { names: rx.join(", ") })}` : "");
  return {
    memory: {
      step: { ...state, draft: undefined, deliveryAsked: undefined, order } satisfies OrderState,
    },
    replies: [{
      text,
      buttons: [
        { id: `pay:${order.id}`, title: say("payButton", lang) },
        ...(large || wanted
          ? [{ id: `delivery:${order.id}`, title: say("deliveryButton", lang) }]
          : []),
        { id: "order_status", title: say("statusButton", lang) },
      ],
    }],
  };
}

async function pay(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  state: OrderState,
): Promise<OfflineStep> {
  const lang = turn.language;
  const order = state.order;
  if (!order) return { replies: [{ text: say("noOrder", lang) }] };
  const phone = turn.input.phone;
  if (!phone) return { replies: [{ text: say("noPhone", lang) }] };
  const step = await callWithConfirmation(turn, callTool, {
    tool: "momo_charge",
    args: {
      amount: order.total,
      currency: "RWF",
      phone,
      memo: `${order.no} ${order.venue}`.slice(0, 140),
      idempotency_key: `${turn.input.wamid}:pay`,
      order_id: order.id,
      // The conversation's language, not the profile's: the receipt must speak it too.
      language: lang,
    },
    step: "pay",
  });
  if (step.pending) return step;
  return paid(turn, state, readResult(momoCharge, step.memory?.lastResult));
}

function paid(reader: Reader, state: OrderState, result: ToolResult<ChargeCode>): OfflineStep {
  const lang = reader.language;
  const order = state.order;
  const no = order?.no ?? "";
  // Pay tapped again: the charge already waiting is the answer, not an error.
  const waiting = waitingCharge(result);
  const data = waiting ?? (result.ok ? result.data : null);
  if (!data) {
    return {
      replies: [{
        text: !result.ok && result.error.code === "CANCELLED"
          ? say("cancelled", lang)
          : say("payFailed", lang, { msg: errorOf(result), no }),
        ...(order ? { buttons: [{ id: `pay:${order.id}`, title: say("payButton", lang) }] } : {}),
      }],
    };
  }
  const ussd = data.ussd_code ??
    decodeURIComponent(data.payment_link.replace(/^tel:/, ""));
  const until = formatKigaliTime(data.expires_at);
  return {
    replies: [{
      text: (waiting ? `${say("payWaiting", lang, { no })}\n` : "") + say("pay", lang, {
        amount: money(data.amount ?? order?.total ?? 0, reader),
        no,
        // Who is paid, by name beside the number: a bare number reads like a scam.
        payee: data.payee ?? order?.venue ?? "",
        ussd,
        link: data.payment_link,
        ref: data.momo_ref,
        until,
      }),
      buttons: [{ id: "order_status", title: say("statusButton", lang) }],
    }],
  };
}

async function status(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  state: OrderState,
  options: { followUp?: boolean } = {},
): Promise<OfflineStep> {
  const lang = turn.language;
  // A follow-up reaches a person too, with the order it is about when there is one.
  const tellStaff = async (order: string | null): Promise<string> => {
    if (!options.followUp) return "";
    const told = await callTool("notify_staff", {
      channel: "inbox",
      payload: {
        reason: "follow-up of a purchase",
        summary: `${order ? `Order ${order}: ` : ""}${turn.input.text}`.slice(0, 2000),
        priority: "medium",
        language: lang,
      },
    }, "follow_up");
    return told.ok
      ? say("followUpTold", lang)
      : say("deliveryFailed", lang, { msg: errorOf(told) });
  };
  const result = await callTyped(callTool, orderSummaryRows, {
    table: "orders",
    columns: [...ORDER_SUMMARY_COLUMNS],
    filters: state.order ? [{ column: "id", op: "eq", value: state.order.id }] : [],
    order: { column: "created_at", ascending: false },
    limit: 1,
  }, "status");
  if (!result.ok) {
    return { replies: [{ text: say("statusFailed", lang, { msg: errorOf(result) }) }] };
  }
  const [row] = result.data.items;
  if (!row) {
    const told = await tellStaff(null);
    return {
      replies: [{ text: told ? `${say("noOrderFound", lang)} ${told}` : say("noOrder", lang) }],
    };
  }
  const told = await tellStaff(row.order_no);
  let venue = state.order?.id === row.id ? state.order.venue : "";
  if (!venue) venue = await venueNameOf(callTool, row.business_id, "status_venue");
  const unpaid = row.payment_status !== "settled" && row.status !== "cancelled";
  return {
    replies: [{
      text: say("status", lang, {
        no: row.order_no,
        venue,
        state: orderStateName(row.status, lang),
        payment: paymentStateName(row.payment_status, lang),
        total: money(Number(row.total), turn),
      }) + (told ? `\n\n${told}` : ""),
      ...(unpaid ? { buttons: [{ id: `pay:${row.id}`, title: say("payButton", lang) }] } : {}),
    }],
    ...(unpaid && !state.order
      ? {
        memory: {
          step: {
            ...state,
            order: { id: row.id, no: row.order_no, total: Number(row.total), venue },
          } satisfies OrderState,
        },
      }
      : {}),
  };
}
