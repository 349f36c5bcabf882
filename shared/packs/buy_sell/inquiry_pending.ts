/**
 * What a buyer leaves open in the buy & sell flow: a request the vendors are
 * still being asked about. On leaving, the kernel asks whether to withdraw it
 * (`vendor_inquiry_cancel`: the vendors asked are told) or keep it (their
 * answers still reach the buyer).
 *
 * @module
 */
import { type Language, phraseBook } from "@shared/contract/language.ts";
import type { PendingWork } from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { getVendorInquiryUpdates } from "./vendor_inquiries.ts";
import { conciergeMemory } from "./concierge_flow.ts";

const say = phraseBook({
  openInquiry: {
    en: "your request for {item}, sent to {n|# vendor|# vendors}",
    rw: "icyifuzo cyawe cya {item}, cyoherejwe {n|ku mucuruzi #|ku bacuruzi #}",
    fr: "votre demande de {item}, envoyée à {n|# vendeur|# vendeurs}",
  },
  withdrawn: {
    en: "Your request is withdrawn; the vendors asked have been told.",
    rw: "Icyifuzo cyawe cyahagaritswe; abacuruzi twabajije twabibamenyesheje.",
    fr: "Votre demande est retirée ; les vendeurs sollicités ont été prévenus.",
  },
  notWithdrawn: {
    en: "Sorry, I could not withdraw your request: {msg}",
    rw: "Mutwihanganire, sinashoboye guhagarika icyifuzo cyawe: {msg}",
    fr: "Désolé, je n'ai pas pu retirer votre demande : {msg}",
  },
});

/**
 * An inquiry still waiting for answers (or answered, with no vendor chosen
 * yet) is open work. Found through `get_vendor_inquiry_updates`: the
 * concierge's own inquiry when its memory names one, else the buyer's latest
 * (one the model made counts as much).
 */
export const inquiryPending: PendingWork = {
  async find({ language, memory }, callTool) {
    // Read by the flow's schema (a cleared key is kept as null): memory it cannot read names
    // no inquiry.
    const kept = conciergeMemory.safeParse(
      Object.fromEntries(Object.entries(memory).filter(([, value]) => value !== null)),
    );
    const inquiryId = kept.success && kept.data.step ? kept.data.request?.inquiry_id : undefined;
    const result = await callTyped(
      callTool,
      getVendorInquiryUpdates,
      inquiryId ? { inquiry_id: inquiryId } : {},
      "inquiry_updates",
    );
    if (!result.ok) return null;
    const updates = result.data;
    const open = (updates.status === "pending" || updates.status === "partial") &&
      !updates.replies.some((reply) => reply.chosen);
    if (!open) return null;
    return {
      id: updates.inquiry_id,
      summary: say("openInquiry", language as Language, {
        item: updates.request_summary.slice(0, 80),
        n: updates.vendor_count,
      }),
    };
  },
  async cancel(work, { language }, callTool) {
    const result = await callTool(
      "vendor_inquiry_cancel",
      { inquiry_id: work.id },
      "inquiry_cancel",
    );
    return result.ok
      ? say("withdrawn", language)
      : say("notWithdrawn", language, { msg: result.error.msg });
  },
};
