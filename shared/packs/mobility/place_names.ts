/**
 * The names of the gazetteer's places (`public.places`, its names and
 * aliases), as the router reads them: a rider answering "where from?" with
 * "Kimironko" or "ku kibuga cy'indege" names a place, not a language.
 * `place_names_test.ts` holds this list to the seeded gazetteer.
 *
 * @module
 */

/** Every known place's name and alias, lower case. */
export const PLACE_NAMES: readonly string[] = [
  "kimironko market",
  "isoko rya kimironko",
  "marche de kimironko",
  "kimironko",
  "nyabugogo",
  "nyabugogo bus park",
  "gare routiere",
  "cbd",
  "downtown",
  "town",
  "city centre",
  "city center",
  "mu mujyi",
  "umujyi",
  "centre ville",
  "en ville",
  "ville",
  "remera",
  "giporoso",
  "kacyiru",
  "nyamirambo",
  "kicukiro",
  "sonatubes",
  "airport",
  "kgl",
  "kanombe",
  "ikibuga cy'indege",
  "ku kibuga cy'indege",
  "aeroport",
  "convention centre",
  "convention center",
  "kcc",
  "kigali convention centre",
  "kigali heights",
  "kisimenti",
  "kimihurura",
  "nyarutarama",
  "gisozi",
  "gikondo",
  "kabeza",
  "chuk",
  "kiyovu",
  "gishushu",
  // Names the gazetteer's rows carry beyond their aliases, and the city itself.
  "kigali",
  "kigali airport",
  "kigali airport (kgl)",
  "downtown (cbd)",
  "chuk hospital",
];
