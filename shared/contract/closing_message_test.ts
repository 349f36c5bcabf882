import assert from "node:assert/strict";
import { isClosing } from "./closing_message.ts";

Deno.test("goodbye and 'that's all', thanked or not, close a conversation, in en/rw/fr", () => {
  for (
    const text of [
      "Thank you so much, goodbye!",
      "see you, have a good day",
      "Merci bien, à la prochaine",
      "bon, ce sera tout, merci",
      "urakoze cyane, umunsi mwiza",
      "sawa murakoze, tuzongera",
    ]
  ) assert.ok(isClosing(text), text);
});

Deno.test("thanks alone, thanks with a request, or a request alone is no closing", () => {
  for (
    const text of [
      "thanks, now I need a moto to Remera",
      "merci, vous avez du paracétamol ?",
      "murakoze, mwanyoherereza menu?",
      "that's all the cement I need, 50 bags",
      "ok",
      "bonjour",
      // Thanks alone may answer something said elsewhere: asked what is needed.
      "thank you very much",
      "merci beaucoup",
      "murakoze cyane",
    ]
  ) assert.ok(!isClosing(text), text);
});
