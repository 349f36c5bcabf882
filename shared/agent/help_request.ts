/**
 * Whether a message only asks for help ("help", "aide", "ubufasha", "I don't
 * understand", "?"), in en, rw and fr. Mid-flow such a message is no answer to
 * the flow's question (a place named "ubufasha", a venue list swapped for the
 * ordering one): the platform says where the person is and what they can do,
 * and asks the question again.
 *
 * @module
 */
import { normalizeText } from "@shared/contract/normalize_text.ts";
import { COURTESY_WORDS } from "./intent_classifier.ts";

// Whole messages, as people write them; a cry for help in danger ("au secours", "help me he is
// hitting me") is the harm check's, which runs first.
const ASKS_FOR_HELP = [
  // en
  "help",
  "help me",
  "i need help",
  "need help",
  "can you help me",
  "can you help",
  "how does this work",
  "how does it work",
  "what do i do",
  "what should i do",
  "i don't understand",
  "i dont understand",
  "i do not understand",
  // fr
  "aide",
  "aide moi",
  "aidez moi",
  "j'ai besoin d'aide",
  "besoin d'aide",
  "comment ça marche",
  "comment ca marche",
  "je ne comprends pas",
  "je comprends pas",
  "je comprend pas",
  "que dois-je faire",
  // rw
  "ubufasha",
  "mfasha",
  "mumfashe",
  "nfasha",
  "mfashe",
  "ndashaka ubufasha",
  "nkeneye ubufasha",
  "mwamfasha",
  "wamfasha",
  "simbyumva",
  "sinumva",
  "sinabyumvise",
  "bikora gute",
];

const KEYS = new Set(ASKS_FOR_HELP.map(normalizeText));

// Said around a request without changing it ("aide-moi stp", "please help"): the classifier's
// courtesies, and Kinyarwanda's "please" as people spell it.
const COURTESIES = new Set(
  [...COURTESY_WORDS, "nyabuneka", "nyamuneka"].flatMap((word) => normalizeText(word).split(" ")),
);

/**
 * Whether `text` is only a request for help (or only question marks).
 *
 * @example
 * ```ts
 * import { asksForHelp } from "./help_request.ts";
 * asksForHelp("Aide-moi stp"); // true
 * asksForHelp("help me find a pharmacy"); // false
 * ```
 */
export function asksForHelp(text: string): boolean {
  if (/^\s*\?+\s*$/.test(text)) return true;
  const words = normalizeText(text).split(" ").filter((word) => !COURTESIES.has(word));
  return KEYS.has(words.join(" "));
}
