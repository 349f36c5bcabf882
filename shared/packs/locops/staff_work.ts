/**
 * Locops' work as a customer would ask for it: the router learns these as staff work
 * (`PackAgent.staffWork`) and tells the customer that the team runs operations, never routing
 * them to the staff agent. Operations are counts and lists across the tenant (drivers online in
 * all, open orders per venue, charges unpaid, tickets waiting), not a customer's own ride or order.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

/** Customers' requests for the tenant's operations figures, by language. */
export const LOCOPS_STAFF_WORK: Readonly<Record<Language, readonly string[]>> = {
  en: [
    "how many drivers are online in total right now",
    "list the open orders per venue",
    "which charges are still unpaid across all customers",
    "how many tickets are waiting in the staff queue",
    "give me the operations numbers for today: drivers, orders, payments",
    "count of riders and drivers active on the platform",
    "show all pending orders for every restaurant",
  ],
  rw: [
    "abashoferi bose bari ku murongo ni bangahe ubu",
    "urutonde rw'ama commande afunguye kuri buri resitora",
    "amafaranga atarishyurwa y'abakiriya bose",
    "amatike ategereje abakozi ni angahe",
    "nyereka imibare y'ibikorwa by'uyu munsi: abashoferi, commandes, ubwishyu",
    "umubare w'abashoferi bakora kuri platform yose",
    "commandes zose zitegereje za buri restaurant",
  ],
  fr: [
    "combien de chauffeurs sont en ligne au total maintenant",
    "la liste des commandes ouvertes par établissement",
    "quels paiements sont encore impayés chez tous les clients",
    "combien de tickets attendent dans la file du personnel",
    "les chiffres d'exploitation du jour : chauffeurs, commandes, paiements",
    "le nombre de chauffeurs actifs sur toute la plateforme",
    "toutes les commandes en attente de chaque restaurant",
  ],
};

/** That work as a customer is told the team does it. */
export const LOCOPS_STAFF_WORK_NAME: Readonly<Record<Language, string>> = {
  en: "operations figures",
  rw: "imibare y'ibikorwa",
  fr: "les chiffres d'exploitation",
};
