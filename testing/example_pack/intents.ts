/**
 * Example first messages for the library desk: borrowing a book.
 *
 * @module
 */
import type { IntentExamples } from "@shared/registry/intent_types.ts";

/** The library desk's training phrases. */
export const LIBRARY_INTENTS: IntentExamples = {
  agent: "library_desk",
  phrases: {
    en: [
      "i want to borrow a book",
      "can i borrow a novel from the library",
      "is the library open, i need a book",
      "reserve a book for me",
      "i would like to borrow things fall apart",
      "library book loan",
      "do you lend books",
      "hold a book for me at the library",
    ],
    rw: [
      "ndashaka gutira igitabo",
      "nshobora gutira igitabo mu isomero",
      "isomero rirafunguye? nkeneye igitabo",
      "mumfatire igitabo",
      "ndifuza gutira igitabo cy'inkuru",
      "gutira ibitabo mu isomero",
      "mutira ibitabo?",
      "mbikire igitabo mu isomero",
    ],
    fr: [
      "je veux emprunter un livre",
      "puis-je emprunter un roman à la bibliothèque",
      "la bibliothèque est ouverte ? il me faut un livre",
      "réservez-moi un livre",
      "je voudrais emprunter le vieil homme et la mer",
      "prêt de livre à la bibliothèque",
      "vous prêtez des livres ?",
      "gardez-moi un livre à la bibliothèque",
    ],
  },
};
