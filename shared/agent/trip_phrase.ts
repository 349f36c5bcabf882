/**
 * Whether a message names a trip: an origin and a destination ("from
 * Kimironko to Nyabugogo", "kuva i Remera ujya i Kicukiro", "de Kimironko à
 * Nyabugogo", "to Nyamirambo from town", "Kabeza -> Kacyiru"), or a pick-up
 * and a drop-off ("pick me at the airport and drop me in Gisozi"). Place
 * names are neutral to the topic model (they say where, not what), so a
 * message made of two places and the words that join them reads as nothing
 * to it; the shape of the trip is what asks for a ride, in any language.
 *
 * Read on {@linkcode normalizeText}'s form (no accents, punctuation as
 * spaces, doubled letters as one), with the known places marked.
 *
 * @module
 */
import { type NameGazetteer, normalizeText } from "./text_features.ts";

// A word no language writes, standing for a known place.
const PLACE = "zqplacez";

// Words that open an origin. "de"/"d" and the bare "a" are French's everyday words too: they
// count only between two known places.
const FROM_STRONG = [
  "from",
  "depuis",
  "kuva",
  "uva",
  "nva",
  "tuva",
  "ivuye",
  "avuye",
  "uvuye",
  "mvuye",
  "invana",
  "unvane",
  "mvana",
  "inkura",
  "unkure",
  "nkura",
  "pick me up at",
  "pick me up from",
  "pick me up in",
  "pick me at",
  "pick me from",
  "pick me in",
  "pick up at",
  "pick up from",
  "pickup at",
  "pickup from",
  "cherche moi a",
  "chercher a",
  "recupere moi a",
  "recuperer a",
];
const FROM_WEAK = ["de", "d", "des"];
// Words that open a destination.
const TO_STRONG = [
  "to",
  "til",
  "until",
  "vers",
  "jusqu a",
  "jusqu au",
  "kugera",
  "kugeza",
  "ugana",
  "ujya",
  "njya",
  "ijya",
  "kujya",
  "tujya",
  "injyana",
  "unjyane",
  "njyana",
  "injyane",
  "mpaka",
  "drop me at",
  "drop me in",
  "drop me to",
  "drop me of at",
  "drop me of in",
  "drop of at",
  "drop at",
  "take me to",
  "bring me to",
  "emene moi a",
  "depose moi a",
  "deposer a",
  "pour aler a",
  "aler a",
];
const TO_WEAK = ["a", "au", "pour"];
// What may stand between a marker and its place: a locative or an article ("kuva i Remera",
// "ku kibuga", "depuis le centre ville", "at the airport").
const LOCATIVE = "(?:(?:i|ku|mu|kuri|at|in|the|la|le|l) )?";

const alternation = (words: readonly string[]) =>
  `(?:${words.map(normalizeText).sort((a, b) => b.length - a.length).join("|")})`;
const FROM = alternation(FROM_STRONG);
const FROM_ANY = alternation([...FROM_STRONG, ...FROM_WEAK]);
// With one end in plain words, English "to" opens a destination only before one ("to my
// office", "to work"): "I'm from Kigali, I want a house to rent" is no trip.
const TO = alternation(TO_STRONG.filter((word) => word !== "to"));
const TO_PLAIN =
  `(?:${TO}|to(?= (?:my|the|our|his|her|work|home|school|church|ofice|hospital|market|town) ))`;
const TO_ANY = alternation([...TO_STRONG, ...TO_WEAK]);
// A few words, for an end that is no known place ("from my office", "to the new house").
const SOME = "(?:[a-z]+ ){1,3}";
const GAP = "(?:[a-z]+ ){0,6}";

const SHAPES: readonly RegExp[] = [
  // Two known places, an origin marker before one and a destination marker before the other,
  // in either order.
  new RegExp(` ${FROM_ANY} ${LOCATIVE}${PLACE} ${GAP}${TO_ANY} ${LOCATIVE}${PLACE} `),
  new RegExp(` ${TO_ANY} ${LOCATIVE}${PLACE} ${GAP}${FROM_ANY} ${LOCATIVE}${PLACE} `),
  // Two known places joined by a destination word ("Remera to Kicukiro", "Remera kugera
  // Kicukiro").
  new RegExp(` ${PLACE} ${TO_ANY} ${LOCATIVE}${PLACE} `),
  // One known place, the other end in plain words, both markers unambiguous.
  new RegExp(` ${FROM} ${LOCATIVE}${PLACE} ${GAP}${TO_PLAIN} ${SOME}`),
  new RegExp(` ${FROM} ${SOME}${GAP}(?:${TO}|to) ${LOCATIVE}${PLACE} `),
  new RegExp(` (?:${TO}|to) ${LOCATIVE}${PLACE} ${GAP}${FROM} ${SOME}`),
];

// Asking to be taken somewhere ("take me to the cinema in Remera", "emmène-moi au marché de
// Kimironko", "ntwara i Nyabugogo"): the verb asks for a ride, a known place says where.
const TAKE_ME = alternation([
  "take me to",
  "take us to",
  "drive me to",
  "drive us to",
  "bring me to",
  "ride to",
  "lift to",
  "emene moi",
  "emenez moi",
  "emene nous",
  "emenez nous",
  "conduis moi",
  "conduisez moi",
  "depose moi",
  "deposez moi",
  "ntwara",
  "ntware",
  "udutware",
  "mutware",
  "njyana",
  "unjyane",
  "munjyane",
  "nkeneye kujya",
  "ndashaka kujya",
  "je dois aler",
  "i need to go to",
  "i need to get to",
]);
const TAKE_SHAPE = new RegExp(` ${TAKE_ME} ${GAP}${PLACE} `);

// Where someone is and where they are going ("I'm at Kisimenti going to Kimironko", "elle est
// au CHUK et rentre à Kanombe", "ari kuri CHUK asubira mu rugo i Kanombe"): a present place and
// a movement to another is a trip, though neither "from" nor "to" is said.
const BE_AT = "(?:i m|im|i am|am|we re|we are|is|she s|he s|est|suis|sommes|ndi|ari|turi|uri)" +
  " (?:at|in|au|a|a la|aux|kuri|ku|mu|i) ";
const GOING = alternation([
  "going",
  "going home",
  "heading",
  "headed",
  "go",
  "goes",
  "get",
  "rentre",
  "rentrer",
  "rentrons",
  "vais",
  "va",
  "aller",
  "se rend",
  "asubira",
  "asubiye",
  "ataha",
  "ntaha",
  "ngiye",
  "agiye",
  "tugiye",
  "njya",
  "ajya",
]);
// Between the going and the place, only the way there ("home to", "mu rugo i", "à"): a verb
// there ("je vais commander à …", "ngiye kugura sima i …") is a thing done elsewhere, not a ride.
const WAY_THERE = alternation([
  "home",
  "back",
  "back home",
  "to",
  "at",
  "in",
  "the",
  "a",
  "au",
  "aux",
  "la",
  "le",
  "l",
  "vers",
  "chez",
  "moi",
  "maison",
  "i",
  "ku",
  "kuri",
  "mu",
  "rugo",
  "murugo",
]);
const WHERE_TO_SHAPE = new RegExp(
  ` ${BE_AT}${PLACE} ${GAP}${GOING} (?:${WAY_THERE} ){0,3}${PLACE} `,
);

// Wanting or having to go somewhere known ("je veux aller à Nyabugogo", "I want to get to
// Remera", "je dois me rendre au centre ville", "ndashaka kugera i Kicukiro"): a trip with
// one end said, whatever the rest of the message leans to.
const WANT = alternation([
  "i want",
  "i wanna",
  "i need",
  "i d like",
  "i would like",
  "i have",
  "i must",
  "je veux",
  "je voudrais",
  "j aimerais",
  "je dois",
  "il faut que j",
  "ndashaka",
  "nshaka",
  "nkeneye",
  "ngomba",
  "nifuza",
]);
const GO = alternation([
  "to go",
  "go",
  "to get",
  "to travel",
  "travel",
  "aler",
  "voyager",
  "me rendre",
  "me deplacer",
  "rentrer",
  "kujya",
  "kugera",
  "gutaha",
  "kujyayo",
]);
const WANT_GO_SHAPE = new RegExp(
  ` ${WANT} ${GO} (?:(?:a|au|aux|to|vers|jusqu|i|ku|kuri|mu|at|in|the|la|le|l) ){0,2}${PLACE} `,
);
// Being fetched at a known place ("venez me prendre à Kigali Heights", "come get me at Remera").
const FETCH_SHAPE = new RegExp(
  ` (?:venez|viens|come|ngwino|muze) (?:me |and )?(?:prendre|chercher|get me|pick me|untware|muntware) (?:up )?(?:a|au|at|in|from|kuri|ku|i) ${PLACE} `,
);

// A pick-up and a drop-off, wherever they are ("pick me at the office and drop me at home").
const PICK_UP = new RegExp(
  ` (?:pick|picks|picking|fetch|colect|get) (?:me |us )?(?:up )?(?:at|from|in) `,
);
const DROP_OFF = new RegExp(
  ` (?:drop|drops|droping|take|bring) (?:me |us )?(?:of )?(?:at|in|to|of) `,
);

// Arrows and dashes between two ends ("Kabeza -> Kacyiru", "Remera - Kicukiro") read as
// "to" before punctuation is dropped.
const ARROW = /\s*(?:-+>|=+>|→|⇒|➡️?|–|—)\s*|\s+-+\s+/gu;

/**
 * Whether the message names a trip: two ends joined by origin and
 * destination words (at least one end a known place, both when the words
 * are French's everyday "de"/"à"), an arrow or dash between two known
 * places, a request to be taken to a known place, or a pick-up and a
 * drop-off.
 *
 * @param text The message as the user wrote it.
 * @param places The known places (the packs' gazetteer).
 * @example
 * ```ts
 * import { namesTrip } from "@shared/agent/trip_phrase.ts";
 * import { nameGazetteer } from "@shared/agent/text_features.ts";
 * const places = nameGazetteer(["Remera", "Kicukiro"]);
 * namesTrip("kuva Remera kugera Kicukiro", places); // true
 * namesTrip("move my booking from saturday to sunday", places); // false
 * ```
 */
export function namesTrip(text: string, places: NameGazetteer): boolean {
  const normalized = normalizeText(text.replace(ARROW, " to "));
  const marked = ` ${places.replace(normalized, PLACE)} `;
  if (PICK_UP.test(marked) && DROP_OFF.test(marked)) return true;
  if (!marked.includes(` ${PLACE} `)) return false;
  return TAKE_SHAPE.test(marked) || WHERE_TO_SHAPE.test(marked) || WANT_GO_SHAPE.test(marked) ||
    FETCH_SHAPE.test(marked) ||
    SHAPES.some((shape) => shape.test(marked));
}

// A vehicle one hires, in the three languages ("a moto", "une moto", "tagisi", "taxi voiture").
const HIRED = alternation([
  "moto",
  "motari",
  "taxi",
  "taxi voiture",
  "taxi moto",
  "cab",
  "uber",
  "tagisi",
  "voiture",
  "imodoka",
  "car",
  "ride",
  "lift",
]);
// A destination word, with English "to" only before what a destination starts with ("to the
// pharmacy", "to my office"): "a car to sell" is no ride.
const TOWARDS =
  `(?:${TO}|pour aler(?: a| au)?|to (?:the|my|our|a|an|his|her|their|town|work|home|school|church|hospital|market|airport)(?= ))`;
// Courtesies and articles between the vehicle and its destination ("a moto pls to …").
const BETWEEN = "(?:(?:pls|please|plz|svp|stp|now|vite|vuba|nonaha) ){0,2}";
// Someone's own vehicle ("my car to the garage", "ma voiture jusqu'au garage") is no ride hired.
const OWNED = "(?:my|our|his|her|your|mon|ma|notre|votre|son|sa)";
const RIDE_TO = new RegExp(`(?<! ${OWNED}) (${HIRED}) ${BETWEEN}${TOWARDS} `);
// Asking to be carried somewhere, the passive of "take" ("gutwarwa ku isoko", "kujyanwa kwa
// muganga", "to be taken to the market", "être déposé au marché"): the person is the load.
const CARRIED = alternation([
  "gutwarwa",
  "ntwarwa",
  "udutwarwe",
  "kujyanwa",
  "njyanwa",
  "kugezwa",
  "ngezwa",
  "be taken",
  "be dropped",
  "be driven",
  "etre depose",
  "etre deposee",
  "etre conduit",
  "etre conduite",
  "etre emene",
  "etre emenee",
]);
const CARRIED_TO = new RegExp(
  ` (${CARRIED}) (?:${TOWARDS}|(?:ku|kuri|mu|i|kwa|at|au|a|aux|chez) )`,
);

/**
 * Whether the message hires a vehicle to somewhere, known place or not ("a moto to the
 * pharmacy at Kisimenti", "une moto jusqu'à la pharmacie", "moto injyana kuri farumasi"), or
 * asks to be carried there ("ndashaka gutwarwa ku isoko", "to be taken to the market"): the
 * destination's words (a pharmacy, a market, a hospital) say where, not what. Returns the
 * words before the destination (what is asked for, to check it is not another service's thing
 * carried there: "cement by moto to Kimironko"), or null when no vehicle is hired to anywhere.
 *
 * @param text The message as the user wrote it.
 * @example
 * ```ts
 * import { rideAskedTo } from "@shared/agent/trip_phrase.ts";
 * rideAskedTo("a moto to the pharmacy pls"); // "a moto"
 * rideAskedTo("I want to sell my car to a dealer"); // null
 * ```
 */
export function rideAskedTo(text: string): string | null {
  const normalized = ` ${normalizeText(text)} `;
  const found = RIDE_TO.exec(normalized) ?? CARRIED_TO.exec(normalized);
  if (found === null) return null;
  return normalized.slice(0, found.index + 1 + found[1].length).trim();
}
