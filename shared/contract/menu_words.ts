/**
 * The words a person types to get back to the menu, in English,
 * Kinyarwanda and French (with their common misspellings). One list for
 * every layer that answers them: the router (typo-tolerant) and a channel
 * that must recognise "menu" before the router runs (the staff queue).
 *
 * @module
 */

/** Lower-case, accent-free words and phrases that ask for the menu. */
export const MENU_WORDS: readonly string[] = [
  "menu",
  "menyu",
  "meni",
  "menue",
  "munu",
  "main menu",
  "menu principal",
  "home",
  "start over",
  "back to menu",
  "go back to menu",
  "back",
  "ahabanza",
  "subira ahabanza",
  "gusubira ahabanza",
  "ku ntangiriro",
  "accueil",
  "acceuil",
  "acceil",
  "acueil",
  "retour",
  "retour au menu",
  "retour accueil",
];
