/**
 * Whether a message buys or sells a vehicle ("I want to buy a car", « qqn achète un Subaru
 * Forester », "ndashaka kugura imodoka", "ngurisha Toyota Vitz"). The router reads verbs of
 * buying as neutral, so that the thing bought says which agent sells it, and a vehicle's make
 * and model as neutral, so that "insure my RAV4" and "sell my RAV4" differ by their verbs.
 * Buying a named vehicle then leaves nothing to read ("qqn achète un Subaru Forester" is "qqn
 * un"), and buying "a car" reads as hiring one: a ride. No agent that sells things sells
 * vehicles except the one that trades second-hand goods, so a buy or sell verb whose object is
 * a vehicle names that agent.
 *
 * @module
 */
import type { NameGazetteer } from "./text_features.ts";
import { wordsOf } from "./text_features.ts";

// Verbs of buying and selling now or to come, as normalised (doubled letters single). Past
// forms are left out: "I bought a car, insure it" and « j'ai acheté une voiture, l'assurance »
// are about the car bought, not a trade.
const TRADE_VERBS = new Set([
  // English
  "buy",
  "buying",
  "purchase",
  "purchasing",
  "sel",
  "seling",
  // French ("achete" is also the past participle: see PAST_AUXILIARIES)
  "acheter",
  "achete",
  "achetes",
  "achetons",
  "achetez",
  "achat",
  "vendre",
  "vends",
  "vend",
  "vendons",
  "vendez",
  "vente",
  // Kinyarwanda: to buy (-gura) and to sell (-gurisha), by subject
  "kugura",
  "ngura",
  "ndagura",
  "nagura",
  "ugura",
  "uragura",
  "agura",
  "aragura",
  "tugura",
  "turagura",
  "mugura",
  "muragura",
  "bagura",
  "baragura",
  "kugurisha",
  "ngurisha",
  "ndagurisha",
  "ugurisha",
  "uragurisha",
  "agurisha",
  "aragurisha",
  "tugurisha",
  "turagurisha",
  "mugurisha",
  "muragurisha",
  "bagurisha",
  "baragurisha",
]);

// French "achete" is "achète" and "acheté" once accents go: after an auxiliary (« j'ai acheté »,
// « on a acheté ») it is past. "à acheter" normalises like "a acheter", so only "achete" is checked.
const PAST_PARTICIPLE = "achete";
const PAST_AUXILIARIES = new Set(["ai", "a", "as", "avons", "avez", "ont"]);

// A trade that is the purpose of another thing named before it ("a contract for selling my car",
// « un contrat de vente de voiture », "amasezerano yo kugurisha imodoka") asks for that thing.
const PURPOSE_OF_VERB = new Set([
  "for",
  "pour",
  "yo",
  "ryo",
  "byo",
  "cyo",
  "zo",
  "bwo",
  "rwo",
  "kwo",
]);
const PURPOSE_OF_NOUN = new Set(["of", "de", "d"]);
const TRADE_NOUNS = new Set(["achat", "vente", "purchase"]);

// Motor vehicles by their common nouns in the three languages, as normalised.
const VEHICLE_NOUNS = new Set([
  "car",
  "cars",
  "vehicle",
  "vehicles",
  "motorcycle",
  "motorbike",
  "moto",
  "motos",
  "pickup",
  "truck",
  "lory",
  "voiture",
  "voitures",
  "vehicule",
  "vehicules",
  "camion",
  "camionete",
  "bagnole",
  "imodoka",
  "ikinyabiziga",
  "ibinyabiziga",
  "ipikipiki",
  "pikipiki",
  "ikamyo",
  "ikamyoneti",
]);

// A vehicle named as the verb's object comes within this many words of it ("buy a second hand
// Toyota", « acheter une vieille voiture »); further on it is something else's ("buy fuel and
// oil for my car").
const OBJECT_WINDOW = 4;

// What a named vehicle becomes before the words are read.
const NAMED_VEHICLE = "vehicle";

function purposeOf(word: string, before: string): boolean {
  return TRADE_NOUNS.has(word) ? PURPOSE_OF_NOUN.has(before) : PURPOSE_OF_VERB.has(before);
}

/**
 * Whether the normalised message buys or sells a vehicle: a verb of buying or selling (not a
 * past one) with a vehicle's noun, make or model (`names`) among the next few words.
 *
 * @example
 * ```ts
 * import { tradesVehicle } from "@shared/agent/vehicle_trade.ts";
 * import { nameGazetteer, normalizeText } from "@shared/agent/text_features.ts";
 * const names = nameGazetteer(["Subaru", "Forester"]);
 * tradesVehicle(normalizeText("qqn achète un Subaru Forester"), names); // true
 * tradesVehicle(normalizeText("I bought a car, insure it"), names); // false
 * ```
 */
export function tradesVehicle(normalized: string, names?: NameGazetteer): boolean {
  const words = wordsOf(
    names === undefined ? normalized : names.replace(normalized, NAMED_VEHICLE),
  );
  return words.some((word, at) =>
    TRADE_VERBS.has(word) &&
    !(word === PAST_PARTICIPLE && PAST_AUXILIARIES.has(words[at - 1] ?? "")) &&
    !(at >= 2 && purposeOf(word, words[at - 1])) &&
    words.slice(at + 1, at + 1 + OBJECT_WINDOW).some((next) => VEHICLE_NOUNS.has(next))
  );
}
