import assert from "node:assert/strict";
import { PACK_INTENTS } from "@shared/platform/platform.ts";
import { requestedLanguage, trainLanguageDetector } from "./language_detect.ts";

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

Deno.test("explicit requests change the reply language; naming a language is not one", () => {
  assert.deepStrictEqual(requestedLanguage("reply in French"), "fr");
  assert.deepStrictEqual(requestedLanguage("parle-moi en anglais"), "en");
  assert.deepStrictEqual(requestedLanguage("mvugishe mu Kinyarwanda"), "rw");
  assert.deepStrictEqual(requestedLanguage("in english please"), "en");
  assert.deepStrictEqual(requestedLanguage("I bought a french book for my son"), null);
  assert.deepStrictEqual(requestedLanguage("fr"), "fr");
  assert.deepStrictEqual(requestedLanguage("pizza fr"), null);
});
