/**
 * The no-advice checks in en, rw and fr: what asks for advice, what gives
 * it, and that the intake's own words pass (the guard would otherwise hide
 * the questions the client must answer).
 */
import assert from "node:assert/strict";
import { LANGUAGES } from "@shared/contract/language.ts";
import { asksForAdvice, givesAdvice } from "./advice.ts";
import { LEGAL_TEXTS } from "./texts.ts";

Deno.test("asksForAdvice() hears a request for advice in en, rw and fr", () => {
  for (
    const text of [
      "Should I sign this?",
      "should i sign the contract or not",
      "Is my landlord allowed to keep my deposit?",
      "is it legal for my boss to fire me without notice?",
      "Do I have to pay him?",
      "What should I do?",
      "what are my rights here",
      "Will I win if I go to court?",
      "can my employer refuse to pay my salary",
      "legal advice please",
      "nkwiye gusinya?",
      "Nkwiye gusinya amasezerano?",
      "ese nyir'inzu yemerewe kugumana ingwate yanjye?",
      "ngomba kumwishyura?",
      "nakora iki?",
      "mungire inama",
      "uburenganzira bwanjye ni ubuhe",
      "est-ce que je dois signer ?",
      "Est-ce que je dois signer ce contrat ?",
      "mon bailleur a-t-il le droit de garder ma caution ?",
      "Dois-je payer ?",
      "ai-je le droit de refuser ?",
      "que dois-je faire ?",
      "est-ce légal ?",
      "quels sont mes droits",
      "j'ai besoin d'un conseil juridique",
    ]
  ) {
    assert.ok(asksForAdvice(text), text);
  }
});

Deno.test("asksForAdvice() lets an intake answer through", () => {
  for (
    const text of [
      "I need a lawyer",
      "My neighbour built a wall on my plot in Kicukiro last month.",
      "Aline Uwase",
      "done",
      "land dispute with my neighbour",
      "nkeneye avoka",
      "Umuturanyi yubatse urukuta mu kibanza cyanjye.",
      "j'ai besoin d'un avocat",
      "Mon voisin a construit un mur sur ma parcelle à Kicukiro le mois dernier.",
      "Terminé",
    ]
  ) {
    assert.ok(!asksForAdvice(text), text);
  }
});

Deno.test("givesAdvice() catches a model's advice in en, rw and fr", () => {
  for (
    const text of [
      "Yes, you should sign it.",
      "You should not sign before a lawyer reads it.",
      "Don't sign anything yet.",
      "No, he is not allowed to keep it.",
      "Your landlord is not entitled to your deposit.",
      "That is illegal under Rwandan law.",
      "It is legal for him to do that.",
      "According to the law, the employer must give notice.",
      "The law says you get three months.",
      "I would advise you to go to court.",
      "You have a strong case and would win.",
      "Article 26 of the labour law protects you.",
      "Yego, ukwiye gusinya.",
      "Ntugasinye ayo masezerano.",
      "Oya, nta burenganzira afite bwo kuyigumana.",
      "Ufite uburenganzira bwo kwanga.",
      "Ibyo binyuranyije n'amategeko.",
      "Amategeko avuga ko agomba kukwishyura.",
      "Oui, vous devez signer.",
      "Vous devriez refuser.",
      "Ne signez pas ce contrat.",
      "Non, il n'a pas le droit de la garder.",
      "C'est illégal.",
      "Selon la loi, vous avez trois mois.",
      "Je vous conseille d'aller au tribunal.",
    ]
  ) {
    assert.ok(givesAdvice(text), text);
  }
});

Deno.test("givesAdvice() passes the intake's own words and a polite refusal", () => {
  for (const [key, phrases] of Object.entries(LEGAL_TEXTS)) {
    for (const lang of LANGUAGES) assert.ok(!givesAdvice(phrases[lang]), `${key}.${lang}`);
  }
  for (
    const text of [
      "I'm sorry, only a lawyer can say that. Shall I file your case so one reads it?",
      "That is legal advice, which only a lawyer can give.",
      "What is your full name?",
      "Your case is filed: LC-2026-000001.",
      "Mumbabarire, umunyamategeko ni we wabivugaho. Nandike ikibazo cyawe?",
      "Désolé, seul un avocat peut vous répondre. Voulez-vous que j'enregistre votre affaire ?",
    ]
  ) {
    assert.ok(!givesAdvice(text), text);
  }
});
