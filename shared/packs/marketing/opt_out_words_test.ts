import assert from "node:assert/strict";
import { readOptOut } from "./opt_out_words.ts";

Deno.test("readOptOut() reads STOP, HAGARIKA, ARRÊT and their variants", () => {
  const cases: Array<[string, string | null]> = [
    ["STOP", null],
    ["stop", null],
    ["Stop.", null],
    ["  STOP!!! ", null],
    ["stop please", "en"],
    ["Please stop", "en"],
    ["unsubscribe", "en"],
    ["Opt-out", "en"],
    ["stop all messages", "en"],
    ["HAGARIKA", "rw"],
    ["hagarika nyamuneka", "rw"],
    ["Hagarika ubutumwa", "rw"],
    ["ARRÊT", "fr"],
    ["ARRET", "fr"],
    ["arrêt svp", "fr"],
    ["Arrêtez !", "fr"],
    ["désabonner", "fr"],
    ["Je veux me désabonner", "fr"],
    ["stop merci", "fr"],
    ["STOP s'il vous plaît", "fr"],
  ];
  for (const [text, language] of cases) {
    assert.equal(readOptOut(text)?.language, language, text);
  }
});

Deno.test("readOptOut() leaves messages that ask something else", () => {
  for (
    const text of [
      "",
      "hello",
      "stop at Kimironko",
      "the bus stop near the market",
      "I want a moto to the stop",
      "menu",
      "0",
      "yes",
    ]
  ) {
    assert.equal(readOptOut(text), null, text);
  }
});

Deno.test("readOptOut() tells everyday words (STOP, HAGARIKA, ARRÊT) from unsubscribing", () => {
  assert.equal(readOptOut("STOP")?.everyday, true);
  assert.equal(readOptOut("hagarika")?.everyday, true);
  assert.equal(readOptOut("Arrêtez !")?.everyday, true);
  assert.equal(readOptOut("unsubscribe")?.everyday, false);
  assert.equal(readOptOut("stop désabonner")?.everyday, false);
  assert.equal(readOptOut("Je veux me désabonner")?.everyday, false);
});
