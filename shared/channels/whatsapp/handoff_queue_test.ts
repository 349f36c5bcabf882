import assert from "node:assert/strict";
import { MENU_WORDS } from "@shared/contract/menu_words.ts";
import { asksForMenu } from "./handoff_queue.ts";

Deno.test("asksForMenu() knows every word the router takes for the menu, and 0", () => {
  for (const word of [...MENU_WORDS, "0"]) assert(asksForMenu(word), word);
});

Deno.test("asksForMenu() takes case, end punctuation and spacing as the router does", () => {
  assert(asksForMenu("  Subira   AHABANZA! "));
  assert(asksForMenu("Retour au menu."));
  assert(asksForMenu("MENU?"));
});

Deno.test("asksForMenu() knows the router's wishes to go back to the start, in every language", () => {
  for (
    const text of [
      "go back to the start",
      "i want to go back to the start",
      "back to the main menu please",
      "retour au début",
      "slt, montre moi le menu principal",
      "subira ahabanza",
      "nsubize kuri menu ya mbere",
    ]
  ) {
    assert(asksForMenu(text), text);
  }
});

Deno.test("asksForMenu() leaves a message to staff alone", () => {
  for (
    const text of [
      "",
      "menu du jour ?",
      "what is on the menu",
      "ndashaka menu y'ibiryo",
      "menu".repeat(10_000),
    ]
  ) {
    assert.equal(asksForMenu(text), false, JSON.stringify(text.slice(0, 40)));
  }
});
