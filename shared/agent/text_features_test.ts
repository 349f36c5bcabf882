import assert from "node:assert/strict";
import {
  expandShorthands,
  featuresOf,
  kinyarwandaRoot,
  kinyarwandaStem,
  nameGazetteer,
  normalizeText,
} from "./text_features.ts";

Deno.test("normalising drops case, accents, repeated letters and numbers", () => {
  assert.deepStrictEqual(
    normalizeText("Médicament  pour la FIÈVRE!!"),
    "medicament pour la fievre",
  );
  assert.deepStrictEqual(normalizeText("murahoooo"), "muraho");
  assert.deepStrictEqual(normalizeText("pay 5000 to 0788123456"), "pay num to phone");
});

Deno.test("Kinyarwanda verb and noun-class prefixes come off, other words keep theirs", () => {
  assert.deepStrictEqual(kinyarwandaStem("ndashaka"), "shaka");
  assert.deepStrictEqual(kinyarwandaStem("nshaka"), "shaka");
  assert.deepStrictEqual(kinyarwandaStem("turashaka"), "shaka");
  assert.deepStrictEqual(kinyarwandaStem("gukodesha"), "kodesha");
  assert.deepStrictEqual(kinyarwandaStem("inkorora"), "korora");
  // A lone n/m before a vowel is part of the word; short stems are not kept.
  assert.deepStrictEqual(kinyarwandaStem("name"), null);
  assert.deepStrictEqual(kinyarwandaStem("moto"), null);
});

Deno.test("features are distinct words, word pairs, stems and in-word character n-grams", () => {
  const features = featuresOf(normalizeText("ndashaka moto moto"));
  assert.deepStrictEqual(features.length, new Set(features).size);
  for (const feature of ["w:ndashaka", "w:moto", "b:ndashaka_moto", "s:shaka", " mo", "oto "]) {
    assert.ok(features.includes(feature), feature);
  }
  // No n-gram spans two words: word order is carried by the pairs.
  assert.ok(!features.some((feature) => feature.includes("a m")));
  assert.deepStrictEqual(featuresOf(""), []);
});

Deno.test("forms of one Kinyarwanda verb or noun share a root feature", () => {
  for (const word of ["nishyuye", "kwishyura", "ubwishyu", "yishyuye"]) {
    assert.deepStrictEqual(kinyarwandaRoot(word), "ishy", word);
  }
  assert.deepStrictEqual(kinyarwandaRoot("ndarega"), kinyarwandaRoot("kurega"));
  assert.deepStrictEqual(kinyarwandaRoot("ikirego"), kinyarwandaRoot("kurega"));
  assert.deepStrictEqual(kinyarwandaRoot("gukodesha"), kinyarwandaRoot("nkodesha"));
  assert.ok(featuresOf(normalizeText("nishyuye ejo")).includes("r:ishy"));
  // No Kinyarwanda prefix, no root: English and French words are left alone.
  assert.deepStrictEqual(kinyarwandaRoot("pharmacy"), null);
  assert.deepStrictEqual(kinyarwandaRoot("paiement"), null);
});

Deno.test("class 7 (igi-), 5 (iri-) and 12/15 (aga-, ugu-) noun prefixes meet their plural or verb forms", () => {
  assert.deepStrictEqual(kinyarwandaStem("igikoni"), kinyarwandaStem("ibikoni"));
  assert.deepStrictEqual(kinyarwandaStem("igikapu"), "kapu");
  assert.deepStrictEqual(kinyarwandaStem("uguhaha"), kinyarwandaStem("guhaha"));
});

Deno.test("a gazetteer marks each known name, longest first, side by side too", () => {
  const places = nameGazetteer(["Kimironko", "Kimironko market", "Remera"]);
  assert.equal(
    places.replace(normalizeText("from Kimironko market Remera to remera"), "place"),
    "from place place to place",
  );
});

Deno.test("a French SMS shorthand with doubled letters reads as its words, as normalised text spells it", () => {
  const words = (text: string) =>
    featuresOf(normalizeText(text)).filter((feature) => feature.startsWith("w:"));
  assert.deepStrictEqual(words("qqn"), ["w:quelqu", "w:un"]);
  assert.deepStrictEqual(words("qqch"), ["w:quelque", "w:chose"]);
  assert.deepStrictEqual(words("j ai bsoin"), ["w:j", "w:ai", "w:besoin"]);
  assert.deepStrictEqual(words("ppl"), ["w:people"]);
});

Deno.test("a lone SMS 'c' is 'c est', but the 'c' of a written-out c'est or c'était stays as it is", () => {
  assert.equal(
    expandShorthands(normalizeText("C koi le plat du jour")),
    "c est quoi le plat du jour",
  );
  assert.equal(expandShorthands(normalizeText("c'est de l'arnaque")), "c est de l arnaque");
  assert.equal(expandShorthands(normalizeText("c'était lui")), "c etait lui");
  const words = featuresOf(normalizeText("c'est combien")).filter((f) => f.startsWith("w:"));
  assert.deepStrictEqual(words, ["w:c", "w:est", "w:combien"]);
});

Deno.test("a Kinyarwanda object marker between prefix and verb is read past, so the verb meets its plain form", () => {
  const stems = (word: string) => featuresOf(word).filter((feature) => feature.startsWith("s:"));
  assert.ok(stems("kuzigurisha").includes("s:gurisha"));
  assert.ok(stems("ndabigurisha").includes("s:gurisha"));
  assert.ok(stems("kuyikodesha").includes("s:kodesha"));
  assert.ok(stems("gukodesha").includes("s:kodesha"));
  // A short rest is a noun's own syllables, not a verb behind a marker.
  assert.deepStrictEqual(stems("umugabo"), ["s:gabo"]);
});

Deno.test("Kinyarwanda SMS with dropped vowels reads as the words it stands for, so it meets their stems", () => {
  const features = (text: string) => featuresOf(normalizeText(text));
  assert.ok(features("nshk moto").includes("s:shaka"));
  assert.ok(features("ndashk moto").includes("s:shaka"));
  assert.ok(features("nkny umuti").includes("w:nkeneye"));
  assert.ok(features("Mwrmtse").includes("w:mwaramutse"));
  assert.ok(features("mwrwe").includes("w:mwiriwe"));
  assert.ok(features("mrkz cyn").includes("w:murakoze"));
  // Without the shorthand the dropped-vowel word shares no stem with "ndashaka".
  assert.ok(!features("nshkx moto").includes("s:shaka"));
});

Deno.test("a Kinyarwanda past habitual verb meets its present: 'nashakaga' and 'ndashaka' share a root", () => {
  assert.equal(kinyarwandaRoot("nashakaga"), kinyarwandaRoot("ndashaka"));
  assert.equal(kinyarwandaRoot("twashakaga"), kinyarwandaRoot("turashaka"));
  assert.equal(kinyarwandaRoot("nabazaga"), kinyarwandaRoot("kubaza"));
  assert.equal(kinyarwandaRoot("nifuzaga"), kinyarwandaRoot("kwifuza"));
});

Deno.test("'quelqu'un' written with the digit one reads as the word, not as a number", () => {
  assert.equal(normalizeText("Qq1 a un frigo?"), "quelqu un a un frigo");
  assert.equal(normalizeText("kelk1 pr m'aider"), "quelqu un pr m aider");
  // A real number after letters stays one.
  assert.equal(normalizeText("RAB 1"), "rab num");
});
