/**
 * What a diner leaves open in Waiter AI: an unpaid order (the ordering
 * capability's {@link orderPending}) or a table booked and still ahead, a
 * slot the venue holds for them. On leaving, the kernel asks whether to
 * cancel it (`reservation_cancel`: the table is freed and the venue told) or
 * keep it (the booking stands; "my bookings" can move or cancel it later).
 * An unpaid order is asked about first: money and a kitchen wait on it.
 *
 * @module
 */
import { z } from "zod";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { orderPending } from "@shared/capabilities/ordering/mod.ts";
import { phraseBook } from "@shared/contract/language.ts";
import type { OpenWork, PendingWork } from "@shared/registry/pack.ts";
import { callTyped, isToolResult } from "@shared/registry/tool_call.ts";
import { reservationCancel, reservationList } from "./reservation_manage.ts";

const say = phraseBook({
  openTable: {
    en: "your table for {size} at {venue}, {when} (code {code}), which {venue} is holding for you",
    rw: "ameza {size|y'umuntu #|y'abantu #} kuri {venue}, {when} (kode {code}), {venue} ikubikiye",
    fr: "votre table pour {size} chez {venue}, {when} (code {code}), que {venue} vous garde",
  },
  tableCancelled: {
    en:
      "Your table booking {code} is cancelled; {venue} has been told and the table is free again.",
    rw:
      "Ameza wari wabitse {code} yahagaritswe; {venue} yabimenyeshejwe, kandi ameza yongeye kuboneka.",
    fr: "Votre réservation {code} est annulée ; {venue} a été prévenu et la table est libérée.",
  },
  tableAlreadyCancelled: {
    en: "That table booking was already cancelled; nothing else to do.",
    rw: "Ayo meza wari wabitse yari yarahagaritswe; nta kindi gikenewe.",
    fr: "Cette réservation était déjà annulée ; rien d'autre à faire.",
  },
  tableNotCancelled: {
    en: "Sorry, I could not cancel the table booking: {msg}",
    rw: "Mutwihanganire, sinashoboye guhagarika ameza wabitse: {msg}",
    fr: "Désolé, je n'ai pas pu annuler la réservation : {msg}",
  },
});

/** A table's open work is named by its code after this, apart from an order's id (a uuid). */
export const TABLE = "table:";

// The booking the flow made (its memory), or a confirmed call's result naming one (`lastResult`,
// `lastConfirmed`): a move's new booking. Read by the one field used.
const flowTable = z.object({ table: z.string() });
const bookedResult = z.object({ confirmation_code: z.string(), reservation_id: z.string() });

function tableCodeOf(memory: Record<string, unknown>): string | null {
  const flow = flowTable.safeParse(memory);
  if (flow.success) return flow.data.table;
  for (const kept of [memory.lastResult, memory.lastConfirmed]) {
    if (!isToolResult(kept) || !kept.ok) continue;
    const booked = bookedResult.safeParse(kept.data);
    if (booked.success) return booked.data.confirmation_code;
  }
  return null;
}

/**
 * Waiter AI's open work: the conversation's unpaid order, else a table the
 * diner booked, while confirmed and ahead (a cancelled or past one never is);
 * work the diner kept on an earlier leave after any they did not.
 * The diner's own bookings are read from the database as them: the one this
 * conversation booked (the flow's memory, a model's confirmed call) first,
 * else their soonest, so that a table the model booked (`reservation_book`
 * needs no confirmation, so the memory does not keep it) is offered too.
 */
export const waiterPending: PendingWork = {
  async find(context, callTool) {
    const kept = context.kept ?? new Set();
    // Work kept on an earlier leave comes after any other: a new booking is asked about.
    const order = await orderPending.find(context, callTool);
    if (order && !kept.has(order.id)) return order;
    const listed = await callTyped(callTool, reservationList, {}, "open_table");
    if (!listed.ok) return order;
    const confirmed = listed.data.bookings.filter((row) => row.status === "confirmed");
    const open = [
      ...confirmed.filter((row) => !kept.has(`${TABLE}${row.confirmation_code}`)),
      ...confirmed.filter((row) => kept.has(`${TABLE}${row.confirmation_code}`)),
    ];
    const code = tableCodeOf(context.memory);
    const table =
      open.find((row) => row.confirmation_code === code && !kept.has(`${TABLE}${code}`)) ?? open[0];
    if (!table || (order && kept.has(`${TABLE}${table.confirmation_code}`))) return order;
    return {
      id: `${TABLE}${table.confirmation_code}`,
      // A kept table that was since moved or resized is asked about again.
      revision: `${table.when}|${table.size}`,
      summary: say("openTable", context.language, {
        size: table.size,
        venue: table.venue_name,
        when: formatKigaliDate(table.when, context.language, { time: true }),
        code: table.confirmation_code,
      }),
    };
  },
  async cancel(work: OpenWork, context, callTool) {
    if (!work.id.startsWith(TABLE)) return await orderPending.cancel(work, context, callTool);
    const code = work.id.slice(TABLE.length);
    const { language } = context;
    const result = await callTyped(
      callTool,
      reservationCancel,
      { confirmation_code: code, language },
      "reservation_cancel",
    );
    if (result.ok) {
      return say("tableCancelled", language, { code, venue: result.data.venue_name });
    }
    // Cancelled in the meantime (by "my bookings", or an earlier answer): nothing left to end.
    if (result.error.code === "CONFLICT") return say("tableAlreadyCancelled", language);
    return say("tableNotCancelled", language, { msg: result.error.msg });
  },
};
