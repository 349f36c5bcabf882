import assert from "node:assert/strict";
import { complainsAboutService, complaintReason } from "./complaint.ts";

Deno.test("complaintReason() names what a complaint is about, in en, rw and fr", () => {
  const cases: Array<[string, string | null]> = [
    ["the driver was rude and overcharged me", "complaint about the driver"],
    ["Mfite ikibazo, umushoferi yanshyize nabi", "complaint about the driver"],
    ["umumotari yantutse, ndashaka kumurega", "complaint about the driver"],
    ["je veux me plaindre d'un motard", "complaint about the driver"],
    ["Réclamation contre un vendeur malpoli", "complaint about a vendor"],
    ["the waiter insulted us", "complaint about the waiter"],
    ["serivisi yanyu ni mbi", "complaint about the service"],
    ["I have a complaint", "complaint"],
    // Not complaints: asking for a person, even about something; a bare "I have a problem".
    ["I want to talk to a person", null],
    ["Please, I want to talk to a person about my order", null],
    ["mfite ikibazo", null],
    ["je veux parler a une personne", null],
    // A judging word about the sender, not about someone we serve, is no complaint.
    ["ndumva meze nabi, nshaka umuntu", null],
    ["I have a terrible headache, can I talk to someone", null],
    ["the service was terrible", "complaint about the service"],
    ["le chauffeur était horrible", "complaint about the driver"],
  ];
  assert.deepEqual(
    cases.map(([text]) => [text, complaintReason(text)]),
    cases,
  );
});

Deno.test("complainsAboutService() hears complaints about what the services provide, not legal claims", () => {
  for (
    const text of [
      "Mfite ikibazo, umushoferi yanshyize nabi",
      "le serveur était désagréable avec nous",
      "I want to complain about the restaurant, the food was cold",
      "serivisi yanyu ni mbi",
    ]
  ) assert.equal(complainsAboutService(text), true, text);
  for (
    const text of [
      "complaint against my landlord, i need an advocate",
      "qqn me doit 2 millions et refuse de payer, je peux porter plainte au tribunal?",
      "I have a complaint",
      "I want to talk to a person about my order",
      "ndumva meze nabi, nshaka umuntu",
    ]
  ) assert.equal(complainsAboutService(text), false, text);
});

Deno.test("complainsAboutService() mid-flow hears a complaint, not a haggle over the quote", () => {
  assert.equal(complainsAboutService("c'est trop cher la moto", { inFlow: true }), false);
  assert.equal(complainsAboutService("c'est trop cher la moto"), true);
  assert.equal(complainsAboutService("le serveur m'a mal parlé hier", { inFlow: true }), true);
  assert.equal(complainsAboutService("the driver was rude", { inFlow: true }), true);
});
