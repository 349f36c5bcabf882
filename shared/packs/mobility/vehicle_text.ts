/**
 * A driver's vehicle as the rider reads it: the description is stored as
 * the driver registered it, in English ("Bajaj Boxer, black"); the make and
 * model are names, but the colour is a word the rider must read in their
 * language ("Bajaj Boxer, umukara", "Bajaj Boxer, noir").
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

// Colours as registered (en) → rw, fr.
const COLOURS: Record<string, { rw: string; fr: string }> = {
  black: { rw: "umukara", fr: "noir" },
  white: { rw: "umweru", fr: "blanc" },
  red: { rw: "umutuku", fr: "rouge" },
  green: { rw: "icyatsi", fr: "vert" },
  blue: { rw: "ubururu", fr: "bleu" },
  yellow: { rw: "umuhondo", fr: "jaune" },
  grey: { rw: "ikijuju", fr: "gris" },
  gray: { rw: "ikijuju", fr: "gris" },
  silver: { rw: "ibara rya feza", fr: "argent" },
  brown: { rw: "ikigina", fr: "marron" },
  orange: { rw: "icunga", fr: "orange" },
};

/**
 * The vehicle description with its colour words in the reader's language.
 *
 * @param description As registered ("Bajaj Boxer, black").
 * @param language The rider's language.
 * @returns The description, colours translated; unchanged in English.
 */
export function vehicleText(description: string, language: Language): string {
  if (language === "en") return description;
  return description.replace(/\p{L}+/gu, (word) => COLOURS[word.toLowerCase()]?.[language] ?? word);
}
