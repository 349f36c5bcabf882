import assert from "node:assert/strict";
import { PACK_INTENTS, PACKS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";
import { createRouter } from "./router.ts";
import { isProperName, requestedLanguage, trainLanguageDetector } from "./language_detect.ts";

const detector = trainLanguageDetector(PACK_INTENTS);

Deno.test("short WhatsApp messages are detected per language, Kinyarwanda included", () => {
  assert.deepStrictEqual(detector.detect("ndashaka moto injyana i Kimironko"), "rw");
  assert.deepStrictEqual(detector.detect("muraho"), "rw");
  assert.deepStrictEqual(detector.detect("je veux un taxi"), "fr");
  assert.deepStrictEqual(detector.detect("bonjour"), "fr");
  assert.deepStrictEqual(detector.detect("I need a taxi to Kimironko"), "en");
});

Deno.test("messages that carry no language are null so the sticky preference decides", () => {
  for (const text of ["ok", "1", "🙏", "taxi", "", "  "]) {
    assert.deepStrictEqual(detector.detect(text), null);
  }
});

Deno.test("one verb of moving or cancelling, inflected as its language does, says the language", () => {
  // None of these forms is in any pack's phrases: the verb's stem and ending say it.
  const cases: Array<[string, "en" | "rw" | "fr"]> = [
    ["reporter", "fr"],
    ["Annulez", "fr"],
    ["reprogrammer svp", "fr"],
    ["mwayimura?", "rw"],
    ["guhagarika", "rw"],
    ["mwayisubika", "rw"],
    ["reschedule", "en"],
  ];
  for (const [text, language] of cases) {
    assert.equal(detector.detect(text), language, text);
    // A French or Kinyarwanda verb is its own language in an English conversation too.
    if (language !== "en") {
      assert.equal(detector.detect(text, { conversation: "en" }), language, text);
    }
  }
  // An English verb is borrowed in a rw or fr conversation, as its nouns are: no switch.
  for (const conversation of ["rw", "fr"] as const) {
    assert.equal(detector.detect("cancel", { conversation }), null, conversation);
    assert.equal(detector.detect("reschedule", { conversation }), null, conversation);
  }
  // A bare stem is another language's word too: "report" is no French.
  assert.notEqual(detector.detect("report"), "fr");
});

Deno.test("explicit requests change the reply language; naming a language is not one", () => {
  assert.deepStrictEqual(requestedLanguage("reply in French"), "fr");
  assert.deepStrictEqual(requestedLanguage("parle-moi en anglais"), "en");
  assert.deepStrictEqual(requestedLanguage("mvugishe mu Kinyarwanda"), "rw");
  assert.deepStrictEqual(requestedLanguage("in english please"), "en");
  assert.deepStrictEqual(requestedLanguage("parlez français s'il vous plaît"), "fr");
  assert.deepStrictEqual(requestedLanguage("parle moi en anglais sil te plait"), "en");
  // Someone else's language is not a request: "il" is a third person, not "s'il".
  assert.deepStrictEqual(requestedLanguage("il parle français"), null);
  assert.deepStrictEqual(requestedLanguage("il parle anglais, pas moi"), null);
  assert.deepStrictEqual(requestedLanguage("I bought a french book for my son"), null);
  assert.deepStrictEqual(requestedLanguage("fr"), "fr");
  assert.deepStrictEqual(requestedLanguage("pizza fr"), null);
  // With a courtesy around it (found on a fresh clone, read as a place name mid-ride).
  assert.deepStrictEqual(requestedLanguage("parlez français s'il vous plaît"), "fr");
  assert.deepStrictEqual(requestedLanguage("Murakoze, mvuga ikinyarwanda"), "rw");
  assert.deepStrictEqual(requestedLanguage("thanks, in English please"), "en");
});

const gazetteer = trainLanguageDetector(PACK_INTENTS, {
  neutralNames: ["Kimironko", "Nyabugogo", "ku kibuga cy'indege", "Kimironko market"],
});

Deno.test("place names, numbers, names and menu words alone carry no language", () => {
  for (
    const text of [
      "Kimironko",
      "Nyabugogo",
      "ku kibuga cy'indege",
      "Kimironko market",
      "Jean Bosco",
      "2 brochettes",
      "menu",
      "0788 123 456",
    ]
  ) {
    assert.deepStrictEqual(gazetteer.detect(text), null, text);
  }
});

Deno.test("short answers and courtesies are evidence of their language", () => {
  const cases: Array<[string, string]> = [
    ["Yes", "en"],
    ["oui", "fr"],
    ["yego", "rw"],
    ["menu stp", "fr"],
    ["menu svp", "fr"],
    ["menu please", "en"],
    ["menu nkwinginze", "rw"],
    ["Kimironko please", "en"],
  ];
  for (const [text, language] of cases) assert.deepStrictEqual(gazetteer.detect(text), language);
  // A longer message is still read as a whole, place names left out.
  assert.deepStrictEqual(gazetteer.detect("ndashaka kujya ku kibuga cy'indege vuba"), "rw");
});

Deno.test("a request to speak a language is one, greeting and all; declining one is not", () => {
  const cases: Array<[string, string | null]> = [
    ["Hello, I speak English please", "en"],
    ["I speak English", "en"],
    ["parlez français", "fr"],
    ["en français svp", "fr"],
    ["Bonjour, vous pouvez parler français ?", "fr"],
    ["mu Kinyarwanda", "rw"],
    ["vuga ikinyarwanda", "rw"],
    ["I don't speak Kinyarwanda", null],
    ["I don't understand French, English please", "en"],
  ];
  for (const [text, language] of cases) {
    assert.deepStrictEqual(requestedLanguage(text), language, text);
  }
});

Deno.test("a borrowed noun is no switch: the sentence around it says the language", () => {
  assert.deepStrictEqual(detector.detect("ndashaka insurance ya moto"), "rw");
  assert.deepStrictEqual(detector.detect("nkeneye delivery ya pizza"), "rw");
  assert.deepStrictEqual(detector.detect("je veux delivery"), "fr");
});

Deno.test("a short reply's English nouns are borrowed in a rw or fr conversation, no switch", () => {
  // Product names a shop lists in English are no switch mid-conversation; as a first message,
  // they still say English.
  assert.equal(detector.detect("2 sugar, 1 rice", { conversation: "rw" }), null);
  assert.equal(detector.detect("2 sugar, 1 rice", { conversation: "fr" }), null);
  assert.equal(detector.detect("2 sugar, 1 rice"), "en");
  // A sentence frame is the person's language; a yes/no or a courtesy alone is said in passing
  // (below), and as a first message it still says its language.
  assert.equal(detector.detect("yes"), "en");
  assert.equal(detector.detect("merci"), "fr");
  assert.equal(detector.detect("ndashaka moto", { conversation: "en" }), "rw");
  // Kinyarwanda content words still switch an English conversation ("they stole my phone").
  assert.equal(detector.detect("banyibye telefoni", { conversation: "en" }), "rw");
});

Deno.test("a longer list of product or brand names is borrowed in a rw or fr conversation; an English sentence still switches", () => {
  const router = createRouter({ packs: PACKS, unclear: UNCLEAR_PHRASES });
  // The router's detector knows the packs' brands and places as names; this one does not.
  for (const detect of [detector, router.detector]) {
    for (
      const list of [
        "sugar rice cooking oil soap",
        "Inyange milk, Azam bread, Mukwano oil",
        "2 sugar, 1 rice, 1 cooking oil, 3 soap",
        "bread milk eggs butter",
      ]
    ) {
      for (const conversation of ["rw", "fr"] as const) {
        assert.equal(detect.detect(list, { conversation }), null, `${conversation}: ${list}`);
      }
      // As a first message, or in an English chat, they still read as English.
      assert.equal(detect.detect(list), "en", list);
      assert.equal(detect.detect(list, { conversation: "en" }), "en", list);
    }
    for (
      const sentence of [
        "I would like to change my order",
        "can you deliver it tomorrow",
        "where is my order now",
        "cancel the second one please",
        "sugar rice and soap please",
      ]
    ) {
      for (const conversation of ["rw", "fr"] as const) {
        assert.equal(
          detect.detect(sentence, { conversation }),
          "en",
          `${conversation}: ${sentence}`,
        );
      }
    }
  }
});

Deno.test("an SMS spelling is read as its words: 'nshk' is Kinyarwanda's 'ndashaka', not English", () => {
  assert.equal(gazetteer.detect("nshk moto kuva Kimironko kugera Nyabugogo"), "rw");
  assert.equal(gazetteer.detect("ndashaka moto kuva Kimironko kugera Nyabugogo"), "rw");
  assert.equal(gazetteer.detect("jveux une moto de Kimironko à Nyabugogo"), "fr");
});

Deno.test("mid-conversation, a short courtesy, yes/no or haste keeps the conversation's language", () => {
  const router = createRouter({ packs: PACKS, unclear: UNCLEAR_PHRASES });
  const replies: Record<"en" | "fr" | "rw", string[]> = {
    en: ["quickly please", "thanks", "yes please", "ok thank you", "Hello", "no"],
    fr: ["vite svp", "merci", "oui merci", "non", "d'accord", "bonjour"],
    rw: ["vuba nkwinginze", "murakoze", "yego", "oya", "murakoze cyane", "muraho"],
  };
  for (const detect of [detector, router.detector]) {
    for (const [said, texts] of Object.entries(replies)) {
      for (const text of texts) {
        for (const conversation of ["en", "fr", "rw"] as const) {
          const expected = conversation === said ? [said, null] : [null];
          assert.ok(
            expected.includes(detect.detect(text, { conversation })),
            `${conversation}: ${text} -> ${detect.detect(text, { conversation })}`,
          );
        }
      }
    }
    // Asking for another language, or writing a sentence in it, still switches.
    assert.equal(detect.detect("je veux un taxi", { conversation: "en" }), "fr");
    assert.equal(detect.detect("I want to pay now please", { conversation: "fr" }), "en");
    assert.equal(detect.detect("banyibye telefoni", { conversation: "en" }), "rw");
  }
  assert.equal(requestedLanguage("in English please"), "en");
});

Deno.test("a proper name typed as an answer carries no language", () => {
  const router = createRouter({ packs: PACKS, unclear: UNCLEAR_PHRASES });
  const names = [
    "Groupe Scolaire Remera",
    "Ecole Primaire Sainte Famille",
    "Hôtel des Mille Collines",
    "Lycée de Kigali",
    "Collège Saint-André",
    "Bank of Kigali",
    "Ishuri Ribanza rya Kacyiru",
    "Green Hills Academy",
  ];
  for (const detect of [detector, router.detector]) {
    for (const name of names) {
      for (const conversation of ["en", "fr", "rw"] as const) {
        assert.equal(detect.detect(name, { conversation }), null, `${conversation}: ${name}`);
      }
    }
  }
  for (const name of names) assert.ok(isProperName(name), name);
  // Capitalised sentences, courtesies and shouting are no names.
  for (
    const text of [
      "Je Veux Une Moto",
      "I Need A Taxi",
      "Merci Beaucoup",
      "Thank You",
      "BANYIBYE TELEFONI",
      "groupe scolaire remera",
      "Remera",
    ]
  ) {
    assert.ok(!isProperName(text), text);
  }
  assert.equal(detector.detect("BANYIBYE TELEFONI", { conversation: "en" }), "rw");
});

Deno.test("an English noun framed by a Kinyarwanda question is borrowed, first message or not", () => {
  // "delivery" is English; "mukora" / "murakora" (do you do) frame the question in Kinyarwanda.
  assert.equal(detector.detect("mukora delivery?"), "rw");
  assert.equal(detector.detect("mukora delivery i Remera?"), "rw");
  assert.equal(detector.detect("murakora delivery ku Kicukiro?"), "rw");
  assert.equal(detector.detect("do you deliver to Nyamata, how much?"), "en");
  assert.equal(detector.detect("I need a delivery to Remera"), "en");
});
