import assert from "node:assert/strict";
import { newRequest } from "./request_phrase.ts";

Deno.test("a clause opening with a first-person want or a request verb is a new request, in en, rw and fr", () => {
  assert.deepStrictEqual(newRequest("I want to buy medicine"), "to buy medicine");
  assert.deepStrictEqual(newRequest("Ndashaka kugura imiti"), "kugura imiti");
  assert.deepStrictEqual(
    newRequest("nkeneye moto injyana i Nyamirambo"),
    "moto injyana i nyamirambo",
  );
  assert.deepStrictEqual(newRequest("je veux acheter des médicaments"), "acheter des medicaments");
  assert.deepStrictEqual(newRequest("j'ai besoin d'un taxi"), "d un taxi");
  // After a greeting, a courtesy or another clause.
  assert.deepStrictEqual(newRequest("ok, now I need a taxi"), "a taxi");
  assert.deepStrictEqual(newRequest("murakoze. Noneho ndashaka imiti"), "imiti");
});

Deno.test("a story, a description or an address is no request, however much money and places it names", () => {
  for (
    const text of [
      "Hari umuntu amfitiye amafaranga 2,000,000 none ntakitaba telefoni",
      "a man owes me 2,000,000 RWF and he no longer answers his phone 0788123456",
      "mon voisin me doit 2 000 000 francs et ne répond plus au téléphone",
      "deliver them to Kimironko near the market, i will pay 50,000 on delivery",
      "mubizane i Remera hafi ya gare, nzishyura amafaranga 8000",
      // Someone else's want, told in the story, asks nothing of us.
      "he said he wants the money back",
      "yashakaga ko mwishyura",
      "il veut que je paie",
    ]
  ) assert.deepStrictEqual(newRequest(text), null, text);
});

Deno.test("an opener with nothing after it asks for nothing yet", () => {
  assert.deepStrictEqual(newRequest("I want"), null);
  assert.deepStrictEqual(newRequest("ndashaka"), null);
});

Deno.test("a request whose object points back at the flow's thing is no new request", () => {
  assert.deepStrictEqual(newRequest("I need it delivered to Remera"), null);
  assert.deepStrictEqual(newRequest("I want them by tomorrow"), null);
});
