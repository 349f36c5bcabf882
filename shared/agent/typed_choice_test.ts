import assert from "node:assert/strict";
import type { AgentReply } from "@shared/registry/pack.ts";
import { typedChoice } from "./typed_choice.ts";

const REFUSAL: AgentReply = {
  text: "Je ne peux pas donner de conseil juridique.",
  buttons: [
    { id: "agent:handoff", title: "Parler à quelqu'un" },
    { id: "legal:continue", title: "Continuer" },
  ],
};

const idOf = (text: string, offered: readonly AgentReply[] = [REFUSAL], name?: string) =>
  typedChoice(text, offered, { name })?.id ?? null;

Deno.test("typedChoice() reads a button's title typed in any case, without accents or punctuation, with a typo", () => {
  assert.equal(idOf("Continuer"), "legal:continue");
  assert.equal(idOf("  continuer !"), "legal:continue");
  assert.equal(idOf("CONTINUER"), "legal:continue");
  assert.equal(idOf("continer"), "legal:continue");
  assert.equal(idOf("parler a quelqu un"), "agent:handoff");
  assert.equal(idOf("Parler à quelqun"), "agent:handoff");
  // The option's number before its title.
  assert.equal(idOf("2. Continuer"), "legal:continue");
  assert.equal(idOf("1 - parler à quelqu'un"), "agent:handoff");
  assert.equal(idOf("1) Continuer"), null);
});

Deno.test("typedChoice() reads list rows and buttons in en and rw, emoji and all", () => {
  const offered: AgentReply[] = [
    { text: "Emeza?", buttons: [{ id: "yes", title: "✅ Yego" }, { id: "no", title: "Oya" }] },
    {
      text: "Choose",
      rows: [
        { id: "agent:mobility", title: "Rides & moto" },
        { id: "agent:handoff", title: "Talk to a person" },
      ],
    },
  ];
  assert.equal(idOf("yego", offered), "yes");
  assert.equal(idOf("OYA", offered), "no");
  assert.equal(idOf("rides moto", offered), "agent:mobility");
  assert.equal(idOf("talk to a persn", offered), "agent:handoff");
});

Deno.test("typedChoice() never takes a real answer: sentences, numbers, amounts, names", () => {
  // More than the title is an answer of its own, for the flow to read.
  assert.equal(idOf("je veux continuer mon dossier de location"), null);
  // A bare number is a quantity or an amount as often as an option's place.
  assert.equal(idOf("2"), null);
  const order: AgentReply = {
    text: "How many?",
    buttons: [{ id: "order:40", title: "Order 40" }, { id: "order:4", title: "Order 4" }],
  };
  assert.equal(idOf("order 40", [order]), "order:40");
  assert.equal(idOf("order 41", [order]), null);
  // A quantity before an item's title is an order of that many, not the item's tap.
  const menu: AgentReply = {
    text: "Café Nyamirambo",
    rows: [{ id: "item:1", title: "Beef brochette" }, { id: "item:2", title: "Fanta 50cl" }],
  };
  assert.equal(idOf("2 beef brochettes", [menu]), null);
  assert.equal(idOf("1 beef brochette", [menu]), null);
  assert.equal(idOf("beef brochette", [menu]), "item:1");
  // A name offered as an answer: a person typing it otherwise is correcting it.
  const asked: AgentReply = {
    text: "Your full name?",
    buttons: [{ id: "legal:name", title: "Aline" }],
  };
  assert.equal(idOf("aline", [asked], "Aline"), "legal:name");
  assert.equal(idOf("Alina", [asked], "Aline"), null);
  const venues: AgentReply = {
    text: "Which one?",
    rows: [{ id: "venue:1", title: "Café Nyamirambo" }, { id: "venue:2", title: "Bar Remera" }],
  };
  assert.equal(idOf("cafe nyamirambo", [venues]), "venue:1");
  assert.equal(idOf("Cafe Nyamiramba", [venues]), null);
});

Deno.test("typedChoice() leaves a message as near to two options as to one, and a message with no options", () => {
  const offered: AgentReply[] = [{
    text: "Which?",
    buttons: [{ id: "a", title: "Cancel it" }, { id: "b", title: "Cancel us" }],
  }];
  assert.equal(idOf("cancel is", offered), null);
  assert.equal(idOf("Continuer", [{ text: "Votre nom ?" }]), null);
  assert.equal(idOf("", [REFUSAL]), null);
});
