/**
 * What a renter leaves open in the property flow: a viewing booked, a slot
 * the landlord holds for them and was told about. On leaving, the kernel
 * asks whether to cancel it (`viewing_cancel`: the slot is freed and the
 * landlord is told by the pack's sweep) or keep it (it stays booked; the
 * renter can move or cancel it here later).
 *
 * @module
 */
import { z } from "zod";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import type { PendingWork } from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { listingName, phrase } from "./texts.ts";
import { propertyViewings, viewingCancel } from "./viewing_manage.ts";

// The viewing the flow booked (its memory), read by the one field used: memory of another shape
// names no viewing.
const booked = z.object({ viewingId: z.string() });

/**
 * A viewing the renter booked, still booked and ahead, is open work; a
 * cancelled or past one never is. The one this conversation's flow booked
 * (its memory) is offered first; else the renter's soonest own upcoming
 * viewing, read from the database as them, so that a viewing the model booked
 * (whose result the memory does not keep) is offered too. Only viewings the
 * caller booked as a renter: a landlord who leaves sees none of their listings'.
 */
export const viewingPending: PendingWork = {
  async find({ language, memory, kept: keptIds = new Set() }, callTool) {
    const kept = booked.safeParse(memory);
    const found = await callTyped(
      callTool,
      propertyViewings,
      { mine: true, limit: 100 },
      "open_viewing",
    );
    if (!found.ok) return null;
    const upcoming = found.data.viewings.filter((row) => row.status === "booked");
    // A viewing kept on an earlier leave comes after any other: a new booking is asked about.
    const open = [
      ...upcoming.filter((row) => !keptIds.has(row.event_id)),
      ...upcoming.filter((row) => keptIds.has(row.event_id)),
    ];
    const viewing = kept.success && !keptIds.has(kept.data.viewingId)
      ? open.find((row) => row.event_id === kept.data.viewingId) ?? open[0]
      : open[0];
    if (!viewing) return null;
    return {
      id: viewing.event_id,
      // A kept viewing that was since moved is asked about again.
      revision: viewing.when,
      summary: phrase("openViewing", language, {
        title: listingName(viewing, language),
        when: formatKigaliDate(viewing.when, language, { time: true }),
      }),
    };
  },
  async cancel(work, { language }, callTool) {
    const result = await callTyped(
      callTool,
      viewingCancel,
      { event_id: work.id },
      "viewing_cancel",
    );
    if (result.ok) {
      return phrase("leaveCancelled", language, {
        title: listingName(result.data, language),
        when: formatKigaliDate(result.data.when, language, { time: true }),
      });
    }
    // Cancelled in the meantime (by the landlord, or an earlier answer): nothing left to end.
    if (result.error.code === "CONFLICT") return phrase("leaveAlreadyCancelled", language);
    return phrase("leaveNotCancelled", language, { msg: result.error.msg });
  },
};
