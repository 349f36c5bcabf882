/**
 * A VIN's maker code (its world manufacturer identifier, ISO 3780: the first three characters)
 * checked against the make printed on the same card.
 *
 * J and 1 count the same in the check digit, so a VIN whose first J OCR read as 1 (`1S3…` for a
 * Suzuki's `JS3…`) passes as checked. A list of makers alone cannot say the 1 is wrong: North
 * American VINs start with a digit (`1N4…`, `1FT…`) and used imports carry them. The card's make
 * can: when the code as read is not that make's and exactly one confusable repair of the code makes
 * it the make's, with the check digit passing, the repair is the reading (doubtful, for the
 * customer to confirm). A code that names another maker we know is noted, never changed.
 *
 * @module
 */

import { vinCheckDigitValid } from "./document_fields.ts";

/**
 * World manufacturer identifiers of the makers sold in East Africa, cars and motorcycles, by the
 * make as cards print it (from general knowledge of the register, not a copy of it). A code ends
 * where its maker's assignments do: `JT` is every Toyota made in Japan, `1F` every Ford in the US.
 */
const MAKER_CODES: Record<string, readonly string[]> = {
  TOYOTA: ["JT", "AHT", "MR0", "MR1", "MR2", "MHF", "SB1", "NMT", "4T", "5T", "2T"],
  NISSAN: ["JN", "1N4", "1N6", "3N1", "3N6", "5N1", "SJN", "VSK", "MNT", "ADN"],
  SUZUKI: ["JS", "MA3", "MBH", "TSM"],
  HONDA: ["JH", "LAL", "ME4", "MLH", "MRH", "1HG", "2HG", "SHH"],
  MITSUBISHI: ["JA3", "JA4", "JMB", "JMY", "MMB", "MMC", "MMT"],
  FUSO: ["JLB", "JLF"],
  MAZDA: ["JM1", "JM3", "JM6", "JMZ"],
  SUBARU: ["JF1", "JF2", "4S3", "4S4"],
  ISUZU: ["JAA", "JAL", "MPA", "JAC"],
  HYUNDAI: ["KMH", "KMF", "MAL", "5NP", "TMA"],
  KIA: ["KNA", "KNC", "KND", "KNE", "U5Y"],
  MERCEDES: ["WDB", "WDC", "WDD", "WDF", "W1K", "W1N", "W1V"],
  BMW: ["WBA", "WBS", "WBX", "WBY"],
  VOLKSWAGEN: ["WVW", "WVG", "WV1", "WV2", "AAV", "9BW", "3VW", "1VW"],
  AUDI: ["WAU", "WA1", "TRU"],
  PEUGEOT: ["VF3", "VR3"],
  RENAULT: ["VF1", "VF6", "UU1"],
  FORD: ["1F", "MNA", "MNB", "MNC", "AFA", "WF0", "MAJ", "NM0"],
  CHEVROLET: ["1G1", "1GC", "1GN", "KL1"],
  LANDROVER: ["SAL"],
  DAIHATSU: ["JDA"],
  BAJAJ: ["MD2"],
  TVS: ["MD6"],
  YAMAHA: ["ME1", "JYA", "MH3"],
  HERO: ["MBL"],
};

/** The same make under the names cards print it with. */
const MAKE_NAMES: Record<string, string> = {
  "MERCEDES-BENZ": "MERCEDES",
  VW: "VOLKSWAGEN",
  LAND: "LANDROVER",
};

// What OCR reads in a maker's code for what is printed: the letter or digit it confuses it with.
const CODE_SWAPS: Record<string, readonly string[]> = {
  "1": ["J", "L", "I"],
  L: ["1"],
  J: ["1"],
  "0": ["D"],
  D: ["0"],
  "5": ["S"],
  S: ["5"],
  "8": ["B"],
  B: ["8"],
  "2": ["Z"],
  Z: ["2"],
  "6": ["G"],
  G: ["6"],
  U: ["V"],
  V: ["U"],
  E: ["F"],
  F: ["E"],
  N: ["M"],
  M: ["N"],
};

/** The make a VIN's maker code names, or null for a code we do not know. */
export function makerOfVin(vin: string): string | null {
  for (const [make, codes] of Object.entries(MAKER_CODES)) {
    if (codes.some((code) => vin.startsWith(code))) return make;
  }
  return null;
}

/** A VIN checked against the card's make: repaired, noted, or left as it is (null). */
export type VinAgainstMake =
  | { kind: "repaired"; value: string; note: string }
  | { kind: "another_maker"; note: string };

/**
 * Checks a VIN read on a vehicle card against the make read on it. Returns the repaired VIN when
 * its code is not the make's and exactly one confusable repair of its first three characters
 * makes it the make's with a passing check digit; a note when its code names another maker we
 * know; null when they agree, or either is a maker we do not know.
 */
export function vinAgainstMake(vin: string, printedMake: string): VinAgainstMake | null {
  const first = printedMake.toUpperCase().split(/\s+/)[0];
  const make = MAKE_NAMES[first] ?? first;
  if (!MAKER_CODES[make] || vin.length !== 17) return null;
  const maker = makerOfVin(vin);
  if (maker === make) return null;
  const repairs = new Set<string>();
  for (let i = 0; i < 3; i++) {
    for (const swap of CODE_SWAPS[vin[i]] ?? []) {
      const candidate = vin.slice(0, i) + swap + vin.slice(i + 1);
      if (makerOfVin(candidate) === make && vinCheckDigitValid(candidate)) repairs.add(candidate);
    }
  }
  if (repairs.size === 1) {
    return {
      kind: "repaired",
      value: [...repairs][0],
      note: "its maker's code was corrected to match the make: check it",
    };
  }
  if (maker) {
    return { kind: "another_maker", note: `its maker's code is ${maker}'s, not ${make}'s` };
  }
  return null;
}
