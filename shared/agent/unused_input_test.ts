import assert from "node:assert/strict";
import { unusedMediaForModel, watchInput } from "./unused_input.ts";

const photo = { wamid: "w1", text: "", media: { type: "image", ref: "storage://media/a/b" } };

Deno.test("a photo the flow never looked at is answered with what is expected, in the person's language", () => {
  const watched = watchInput(photo);
  assert.match(watched.notice("en")[0].text, /cannot use a photo here/);
  assert.match(watched.notice("rw")[0].text, /Sinshobora gukoresha ifoto/);
  assert.match(watched.notice("fr")[0].text, /ne peux pas utiliser une photo/);
});

Deno.test("a photo or a pin the flow read is its answer: nothing is added", () => {
  const withPhoto = watchInput(photo);
  assert.equal(withPhoto.input.media?.type, "image");
  assert.deepEqual(withPhoto.notice("en"), []);
  const pin = watchInput({ wamid: "w2", text: "", location: { latitude: -1.9, longitude: 30.1 } });
  assert.equal(pin.input.location?.latitude, -1.9);
  assert.deepEqual(pin.notice("en"), []);
});

Deno.test("a pin, a voice note or a file left unread each say what they were", () => {
  const pin = watchInput({ wamid: "w3", text: "", location: { latitude: -1.9, longitude: 30.1 } });
  assert.match(pin.notice("fr")[0].text, /position/);
  const voice = watchInput({ wamid: "w4", text: "", media: { type: "audio" } });
  assert.match(voice.notice("en")[0].text, /voice notes/);
  const file = watchInput({ wamid: "w5", text: "", media: { type: "document" } });
  assert.match(file.notice("rw")[0].text, /dosiye/);
});

Deno.test("a caption or a tapped choice is the answer: an unread photo beside it adds nothing", () => {
  assert.deepEqual(watchInput({ ...photo, text: "Kimironko" }).notice("en"), []);
  assert.deepEqual(watchInput({ ...photo, choice: "veh:moto" }).notice("en"), []);
});

Deno.test("a photo at a question that also takes a pin asks for words or a pin, not words alone", () => {
  const watched = watchInput(photo);
  // The step looked for a pin (a pickup question) and found none.
  assert.equal(watched.input.location, undefined);
  const [en] = watched.notice("en");
  assert.match(en.text, /cannot use a photo here\. .*in words, or share your location/);
  assert.match(watched.notice("rw")[0].text, /mu magambo, cyangwa wohereze aho uri/);
  assert.match(watched.notice("fr")[0].text, /par écrit, ou partagez votre position/);
  // A step that never looks for a pin asks for words only.
  assert.match(watchInput(photo).notice("en")[0].text, /question below in words:$/);
});

Deno.test("on the model's turn a photo or file is said unusable; a pin, given as coordinates, is not", () => {
  assert.match(
    watchInput(photo).notice("fr", "model")[0].text,
    /photo ici\. Dites-le-moi par écrit/,
  );
  const pin = { wamid: "w6", text: "", location: { latitude: -1.9, longitude: 30.1 } };
  assert.deepEqual(watchInput(pin).notice("en", "model"), []);
  assert.match(unusedMediaForModel(photo) ?? "", /sent a photo, which cannot be read here/);
  assert.equal(unusedMediaForModel(pin), null);
  assert.equal(unusedMediaForModel({ ...photo, text: "my car" }), null);
});
