import assert from "node:assert/strict";
import { hexColours, statedFormat, statedFormatReason } from "./prompt_rules.ts";

Deno.test("statedFormat() finds a clip length in en, rw and fr", () => {
  for (
    const [text, phrase] of [
      ["A 10 second clip of a moto at dawn", "10 second"],
      ["make it 12s long", "12s"],
      ["a ten-second teaser", "ten-second"],
      ["one minute of city life", "one minute"],
      ["Amashusho y'amasegonda 10 ya moto", "amasegonda 10"],
      ["videwo y'iminota ibiri", "iminota ibiri"],
      ["Une vidéo de dix secondes", "dix secondes"],
      ["un clip de 8 secondes au marché", "8 secondes"],
      ["keep the duration short", "duration"],
    ]
  ) {
    assert.deepEqual(statedFormat(text), { kind: "length", phrase }, text);
  }
});

Deno.test("statedFormat() finds a resolution or format in en, rw and fr", () => {
  for (
    const [text, phrase] of [
      ["shot in 4K", "4K"],
      ["crisp 1080p footage", "1080p"],
      ["vertical 9:16 for stories", "9:16"],
      ["a vertical video of Kimironko market", "vertical video"],
      ["render at 1920x1080", "1920x1080"],
      ["en full HD", "full HD"],
      ["une vidéo verticale du marché", "vidéo verticale"],
      ["en haute résolution", "résolution"],
      ["amashusho ahagaze ya Kigali", "amashusho ahagaze"],
    ]
  ) {
    assert.deepEqual(statedFormat(text)?.phrase, phrase, text);
  }
  assert.equal(statedFormat("shot in 4K")?.kind, "resolution");
});

Deno.test("statedFormat() lets a brief about content, motion and light through", () => {
  for (
    const text of [
      "A moto driver crosses Nyabugogo at golden hour, the city waking up",
      "Slow dolly-in on a smiling customer paying with MoMo",
      "Umushoferi wa moto anyura i Nyabugogo mu gitondo",
      "Un client sourit en payant avec MoMo, lumière douce du matin",
      "two scenes: the market, then the bus park",
      "a 5 star rating appears",
    ]
  ) {
    assert.equal(statedFormat(text), null, text);
  }
});

Deno.test("statedFormatReason() names the parameter to use", () => {
  assert.match(statedFormatReason({ kind: "length", phrase: "10 seconds" }), /params\.seconds/);
  assert.match(statedFormatReason({ kind: "resolution", phrase: "4K" }), /params\.size/);
});

Deno.test("hexColours() lists each colour once, upper-cased", () => {
  assert.deepEqual(hexColours("teal #00a1de glow, #FAD201 sun, #00A1DE again, #12345"), [
    "#00A1DE",
    "#FAD201",
  ]);
});
