/**
 * What the library desk says, in en/rw/fr.
 *
 * @module
 */
import { phraseBook } from "@shared/contract/language.ts";

/** The pack's phrases. */
export const LIBRARY_TEXTS = {
  ask_title: {
    en: "Which book would you like to borrow? Send its title.",
    rw: "Ni ikihe gitabo wifuza gutira? Ohereza umutwe wacyo.",
    fr: "Quel livre souhaitez-vous emprunter ? Envoyez son titre.",
  },
  requested: {
    en: "Done: we are holding “{title}” for you. Your reference is {ref}.",
    rw: "Byakozwe: “{title}” turakigufatiye. Nimero yawe ni {ref}.",
    fr: "C'est fait : nous vous réservons « {title} ». Votre référence est {ref}.",
  },
  bad_title: {
    en: "That title is too long or empty. Send the book's title again.",
    rw: "Uwo mutwe ni muremure cyane cyangwa nta kirimo. Ongera wohereze umutwe w'igitabo.",
    fr: "Ce titre est trop long ou vide. Renvoyez le titre du livre.",
  },
  failed: {
    en: "Sorry, we could not take your request just now. Please try again later.",
    rw: "Mutwihanganire, ntitwashoboye kwakira icyifuzo cyawe ubu. Ongera ugerageze nyuma.",
    fr: "Désolé, nous n'avons pas pu prendre votre demande. Réessayez plus tard.",
  },
} as const;

/** Renders a phrase in a language. */
export const say = phraseBook(LIBRARY_TEXTS);
