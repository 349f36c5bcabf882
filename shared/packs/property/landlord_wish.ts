/**
 * Whether a message is a landlord's wish to list a home rather than a renter's search: the home is
 * the writer's own ("my house", « ma maison », "inzu yanjye") with a word of renting, the writer
 * has one to let ("I have a flat for rent", « j'ai un appartement à louer », "mfite inzu
 * ikodeshwa"), or looks for a tenant. A renter's words name no home of theirs: "a house for rent
 * in Kimironko", « je cherche une maison à louer », "ndashaka inzu yo gukodesha".
 *
 * Read over {@linkcode normalizeText}'s form (no accents, doubled letters folded, numbers as
 * `num`), in en, rw and fr.
 *
 * @module
 */
import { normalizeText } from "@shared/contract/normalize_text.ts";

const HOME = String
  .raw`(?:house|home|flat|apartment|apartement|aprt|room|roms|rooms|annex|studio|maison|apart|appart|logement|chambre|chambres|villa|inzu|icyumba|ibyumba|amazu)`;
const RENTING = String
  .raw`(?:rent|renting|rented|let|leting|tenant|tenants|louer|loue|location|locataire|locataires|gukodesha|kodesha|ikodeshwa|irakodeshwa|zikodeshwa|abakodesha|umukodesha)`;
// Up to three words may sit between: "my 3 bedroom house", « mon petit appartement ».
const GAP = String.raw`(?: \w+){0,3}`;
// Within one stretch of a sentence (at most eight words between), so a long message stays linear.
const NEAR = String.raw`(?: \w+){0,8}`;

const WISHES: readonly RegExp[] = [
  // Said outright.
  /\b(?:list my|rent out|renting out|let out|let my|i am a landlord|im a landlord|landlord here|as a landlord|je suis (?:le )?proprietaire|mettre en location|metre en location|mettre (?:\w+ ){1,3}en location|metre (?:\w+ ){1,3}en location|donner en location|nkodesha inzu yanjye|mfite inzu yo gukodesha|ndi nyiri inzu|ndi nyir inzu)\b/,
  // The writer's own home and renting, in either order: "rent my house", « ma maison à louer ».
  new RegExp(
    String
      .raw`\b(?:my|our|ma|mon|mes|notre|nos)${GAP} ${HOME}\b${NEAR} ${RENTING}\b|\b${RENTING}${NEAR} (?:my|our|ma|mon|mes|notre|nos)${GAP} ${HOME}\b`,
  ),
  new RegExp(String.raw`\b${HOME}${GAP} (?:yanjye|yacu|zanjye|zacu|byanjye|cyanjye)\b`),
  // A home the writer has to let.
  new RegExp(
    String
      .raw`\b(?:i have|i got|ive got|we have|j ai|nous avons|on a|mfite|nfite|dufite)${GAP} ${HOME}\b${NEAR} (?:for rent|to rent|to let|for leting|a louer|en location|yo gukodesha|ikodeshwa|irakodeshwa|zikodeshwa|zo gukodesha)\b`,
  ),
  // Looking for a tenant.
  /\b(?:looking for (?:a )?tenants?|need (?:a )?tenants?|find (?:a )?tenants?|cherche (?:un |des )?locataires?|trouver (?:un |des )?locataires?|umukodesha|abakodesha)\b/,
];

/** Whether the words are a landlord's wish to list their home (see the module's doc). */
export function wantsToListHome(text: string): boolean {
  const normalized = normalizeText(text);
  return WISHES.some((wish) => wish.test(normalized));
}
