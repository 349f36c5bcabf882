/**
 * The waiter pack: Waiter AI takes food and drink orders from a venue's menu, takes payment and
 * books tables, and the diner's bookings can be checked, moved and cancelled. Its tools (menus, orders, payments, reservations) are registered by the commerce,
 * buy & sell and payments packs; offline it follows the shared ordering steps and books tables.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import { WAITER_INTENTS } from "./intents.ts";
import { reservationBook } from "./reservation_book.ts";
import { reservationCancel, reservationList, reservationMove } from "./reservation_manage.ts";
import { WAITER_TEXTS, waiterFlow, waiterFlowMemory } from "./waiter_flow.ts";
import { waiterPending } from "./waiter_pending.ts";
import { ORDER_TEXTS, ORDERING_TABLES } from "@shared/capabilities/ordering/mod.ts";

const WAITER_WORDS = /\b(menu|food|eat|restaurant|order food|ifunguro|kurya|resto|manger|carte)\b/i;

/** The waiter pack. */
export const WAITER_PACK: Pack = {
  id: "waiter_ai",
  tools: [reservationBook, reservationList, reservationMove, reservationCancel],
  agents: [{
    id: "waiter_ai",
    name: "Waiter AI",
    description: "Takes orders from a venue's menu, tracks them and takes payment.",
    audience: "customers",
    answersFollowUps: true,
    answersHours: true,
    tools: [
      "search_supabase",
      "order_create",
      "order_status_update",
      "order_cancel",
      "reservation_book",
      "reservation_list",
      "reservation_move",
      "reservation_cancel",
      "momo_charge",
      "notify_staff",
      "analytics_log",
    ],
    intents: WAITER_INTENTS,
    asks: (text) => WAITER_WORDS.test(text),
    menuTitle: { en: "Food & drinks", rw: "Ibiryo n'ibinyobwa", fr: "Repas et boissons" },
    offlineFlow: waiterFlow,
    memory: waiterFlowMemory,
    // An unpaid order (the venue told, its charge expired) or a booked table (freed, the venue
    // told): cancelled or kept on leaving.
    pending: waiterPending,
  }],
  tables: ORDERING_TABLES,
  texts: { ...ORDER_TEXTS, ...WAITER_TEXTS },
  services: [],
};
