import assert from "node:assert/strict";
import { parseTripText } from "./trip_text.ts";

// Places as riders write them: gazetteer names, several words, and names it does not know.
const PLACES = [
  "Kimironko",
  "Nyabugogo",
  "Remera",
  "Kacyiru",
  "Kigali Heights",
  "Kigali Convention Centre",
  "CHUK",
  "Gatsata",
  "Rwandex",
  "Kabuga",
  "Nyamata",
];

// Phrasings with {A} the pickup and {B} the destination, in both orders, en/rw/fr.
const PHRASINGS = [
  "I need a moto from {A} to {B}",
  "from {A} to {B}",
  "to {B} from {A}",
  "I need a cab to {B} from {A} please",
  "can you take me to {B} from {A}",
  "moto from {A} to {B} asap",
  "pick me up at {A} and take me to {B}",
  "{A} to {B}",
  "i'm at {A}, going to {B}",
  "je veux une moto de {A} à {B}",
  "je veux une moto de {A} a {B}",
  "un taxi vers {B} depuis {A} svp",
  "une course de {A} jusqu'à {B}",
  "je suis à {A}, je vais à {B}",
  "pour {B} depuis {A}",
  "kuva {A} kugera {B}",
  "kuva i {A} ujya i {B}",
  "invana i {A} injyana i {B}",
  "ndashaka moto ivuye i {A} ijya i {B}",
  "taxi ivuye {A} ijya {B}",
  "nkeneye moto injyana i {B} invana i {A}",
  "urugendo ruva {A} rujya {B}",
  "ndi i {A} ndashaka kujya i {B}",
];

function vary(text: string, variant: number): string {
  switch (variant) {
    case 0:
      return text;
    case 1:
      return text.toUpperCase();
    case 2:
      return text.toLowerCase() + "!!";
    case 3:
      return `  ${text.replace(/ /g, "  ")}?`;
    default:
      return text.replace(/ (\S+)$/, ", $1.");
  }
}

Deno.test("parseTripText() reads both ends of many phrasings, places and spellings", () => {
  let checked = 0;
  for (const phrasing of PHRASINGS) {
    for (const [i, from] of PLACES.entries()) {
      const to = PLACES[(i + 3) % PLACES.length];
      for (let variant = 0; variant < 5; variant++) {
        const text = vary(phrasing.replace("{A}", from).replace("{B}", to), variant);
        const parsed = parseTripText(text);
        assert.equal(parsed.from ?? parsed.lead, from.toLowerCase(), `pickup of "${text}"`);
        assert.equal(parsed.to, to.toLowerCase(), `destination of "${text}"`);
        assert.equal(parsed.bare, undefined, text);
        checked++;
      }
    }
  }
  assert.equal(checked, PHRASINGS.length * PLACES.length * 5);
});

Deno.test("parseTripText() reads a correction as the one end it names", () => {
  const cases: Array<[string, "from" | "to", string]> = [
    ["Oya, njya i Nyabugogo", "to", "nyabugogo"],
    ["oya njya Remera", "to", "remera"],
    ["oya, ndi i Kacyiru", "from", "kacyiru"],
    ["no, to Remera", "to", "remera"],
    ["No to Kigali Heights please", "to", "kigali heights"],
    ["actually from Gatsata", "from", "gatsata"],
    ["pickup is Kacyiru", "from", "kacyiru"],
    ["Pick me up at Kisimenti", "from", "kisimenti"],
    ["non, vers Remera", "to", "remera"],
    ["non, de Kicukiro", "from", "kicukiro"],
    ["destination is the airport", "to", "airport"],
    ["je vais à l'aéroport", "to", "aeroport"],
    ["ijya mu mujyi", "to", "mu mujyi"],
    ["injyana ku kibuga cy'indege", "to", "ku kibuga cy'indege"],
  ];
  for (const [text, end, place] of cases) {
    const parsed = parseTripText(text);
    assert.deepEqual(parsed, { [end]: place }, text);
  }
});

Deno.test("parseTripText() leaves a text without markers bare, and vehicles out of places", () => {
  assert.deepEqual(parseTripText("Nyabugogo"), { bare: "nyabugogo" });
  assert.deepEqual(parseTripText("Kimironko market"), { bare: "kimironko market" });
  assert.deepEqual(parseTripText("moto please"), {});
  assert.deepEqual(parseTripText("I need a moto"), {});
  assert.deepEqual(parseTripText("get me a moto to town"), { to: "town" });
  assert.deepEqual(parseTripText("how much is a taxi to Kanombe"), { to: "kanombe" });
  assert.deepEqual(parseTripText("ndashaka moto ijyana i Nyabugogo"), { to: "nyabugogo" });
  assert.deepEqual(parseTripText("un taxi pour l'aeroport svp"), { to: "aeroport" });
  // Words before "to" that are no place are no pickup.
  assert.deepEqual(parseTripText("I want to go to Remera"), { to: "remera" });
  assert.deepEqual(parseTripText(""), {});
});
