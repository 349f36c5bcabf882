/**
 * The Legal Intake agent offline: the case's category (a list) → what
 * happened, in the client's words → their full name (the phone is their
 * WhatsApp number) → documents as photos or PDFs, optional → the case read
 * back for confirmation (`case_intake`'s own read-back) → filed: the
 * reference number, the intake summary PDF (`generate_pdf`,
 * `legal_case_summary`) and, where the org charges a consultation fee, a Pay
 * button that asks for a `momo_charge` naming who is paid. A person is
 * offered throughout.
 *
 * It gives no legal advice: a message that asks what to do or what the law
 * allows, at any step and in any language ({@link asksForAdvice}), gets a
 * polite refusal and the offer of a person, and the intake waits where it was.
 *
 * @module
 */
import { saysDone } from "@shared/contract/done_words.ts";
import { z } from "zod";
import { formatMoney } from "@shared/capabilities/format/mod.ts";
import type { Language } from "@shared/contract/language.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import { shortenTitle, TITLE_LIMITS } from "@shared/contract/titles.ts";
import { keptCallMemory, typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import { callWithConfirmation } from "@shared/registry/offline_steps.ts";
import type {
  AgentReply,
  FlowMemory,
  OfflineFlow,
  OfflineStep,
  OfflineToolCaller,
  OfflineTurn,
} from "@shared/registry/pack.ts";
import { callTyped, readKeptResult } from "@shared/registry/tool_call.ts";
import { asksForAdvice } from "./advice.ts";
import { caseMatterOf, tellsCase } from "./case_matter.ts";
import {
  CASE_CATEGORIES,
  type CaseCategory,
  caseIntake,
  MAX_CASE_DOCUMENTS,
} from "./case_intake.ts";
import { say } from "./texts.ts";

// Tools of other packs and of the kernel, as this flow reads them: the fields it uses.
const generatePdf = {
  name: "generate_pdf",
  output: z.object({ pdf_url: z.string(), bytes: z.int().positive() }),
};
const momoCharge = {
  name: "momo_charge",
  output: z.object({
    payment_link: z.string(),
    ussd_code: z.string(),
    momo_ref: z.string(),
    amount: z.number(),
    payee: z.string(),
  }),
};

const STEPS = ["category", "summary", "name", "documents", "filing", "filed", "paying"] as const;

const fee = z.object({
  amount: z.int().positive(),
  payeePhone: z.string().optional(),
  payeeName: z.string().optional(),
});

/** What the legal flow keeps between turns (version 1). */
const legalMemory = z.object({
  step: z.enum(STEPS).nullish(),
  category: z.enum(CASE_CATEGORIES).nullish(),
  summary: z.string().nullish(),
  name: z.string().nullish(),
  docs: z.array(z.string()).optional(),
  caseId: z.string().nullish(),
  reference: z.string().nullish(),
  fee: fee.nullish(),
  ...keptCallMemory,
});

type LegalMemory = z.output<typeof legalMemory>;

// Memory is merged between turns: a new case clears what the last one kept.
const CLEAR: LegalMemory = {
  step: null,
  category: null,
  summary: null,
  name: null,
  docs: [],
  caseId: null,
  reference: null,
  fee: null,
  lastResult: null,
  lastTool: null,
};

/** An account this long is a case being told, even when it ends in a question. */
const MIN_ACCOUNT = 60;

/** Words that tell more of what happened: a sentence of six words or more, not a name. */
function tellsMore(text: string): boolean {
  return text.split(/\s+/).filter(Boolean).length >= 6;
}

/** The account with more told after it, within the summary's 2,000 characters. */
function withMore(summary: string | null | undefined, more: string): string {
  return (summary ? `${summary}\n${more}` : more).slice(0, 2000);
}

const DONE = "legal:done";
const GO_ON = "legal:continue";
const PAY = "legal:pay";
const PROFILE_NAME = "legal:name";

/** The button that hands the conversation to a person, when the tenant has a hand-off agent. */
function personButton(turn: Pick<OfflineTurn, "handoff" | "language">) {
  return turn.handoff ? [{ id: `agent:${turn.handoff}`, title: say("person", turn.language) }] : [];
}

/**
 * The polite refusal of legal advice with the offer of a person, in the
 * turn's language: what the flow says to an advice question and what the
 * agent's reply guard says instead of a model's advice.
 */
export function noAdviceReply(turn: Pick<OfflineTurn, "handoff" | "language">): AgentReply {
  return {
    text: say("noAdvice", turn.language),
    buttons: [...personButton(turn), { id: GO_ON, title: say("goOn", turn.language) }],
  };
}

function askCategory(lang: Language): OfflineStep {
  return {
    replies: [{
      text: say("askCategory", lang),
      rows: CASE_CATEGORIES.map((category) => ({
        id: `case:${category}`,
        title: shortenTitle(say(category, lang), TITLE_LIMITS.row),
      })),
      list: { button: say("choose", lang), section: say("categories", lang) },
    }],
    memory: { ...CLEAR, step: "category" },
  };
}

/**
 * A case begun by its first message: the kind of case its words name is not asked, and an
 * account of what happened ("my employer has not paid my salary for 3 months") is the summary,
 * not asked again. A message that tells neither is asked the kind of case.
 */
function fromFirstMessage(turn: OfflineTurn, docs: string[]): OfflineStep {
  const lang = turn.language;
  const text = turn.input.choice ? "" : turn.input.text?.trim() ?? "";
  const category = caseMatterOf(text);
  const summary = tellsCase(text) ? text.slice(0, 2000) : null;
  if (category && summary) {
    return {
      replies: [
        { text: say("caseNoted", lang, { category: say(category, lang) }) },
        askName(turn),
      ],
      memory: { ...CLEAR, docs, step: "name", category, summary },
    };
  }
  if (category) {
    return {
      replies: [{ text: say("askSummary", lang, { category: say(category, lang) }) }],
      memory: { ...CLEAR, docs, step: "summary", category },
    };
  }
  const asked = askCategory(lang);
  return { ...asked, memory: { ...asked.memory, docs, summary } };
}

function askName(turn: OfflineTurn): AgentReply {
  const profile = turn.input.name?.trim();
  return {
    text: say("askName", turn.language),
    ...(profile && profile.length >= 2
      ? { buttons: [{ id: PROFILE_NAME, title: shortenTitle(profile, TITLE_LIMITS.button) }] }
      : {}),
  };
}

function askDocuments(lang: Language, count = 0): AgentReply {
  return {
    text: count ? say("gotDocument", lang, { count }) : say("askDocuments", lang),
    buttons: [{ id: DONE, title: say("done", lang) }],
  };
}

/**
 * The question of the step the intake waits at, asked again; at the case type already known
 * (named by a first message that asked for advice), the next part still missing: what happened,
 * or the name when the message told it.
 */
function askAgain(turn: OfflineTurn, memory: LegalMemory): OfflineStep {
  const lang = turn.language;
  if (memory.step === "category" && memory.category) {
    const next: LegalMemory = { ...memory, step: memory.summary ? "name" : "summary" };
    return { ...askAgain(turn, next), memory: next };
  }
  switch (memory.step) {
    case "summary":
      return {
        replies: [{ text: say("askSummary", lang, { category: say(memory.category!, lang) }) }],
      };
    case "name":
      return { replies: [askName(turn)] };
    case "documents":
      return { replies: [askDocuments(lang, memory.docs?.length ?? 0)] };
    case "filed":
    case "paying":
      return { replies: [filedReply(turn, memory)] };
    default:
      return askCategory(lang);
  }
}

// A category typed rather than tapped: its title in any language, or its id.
function categoryOf(text: string): CaseCategory | null {
  const typed = text.trim().toLowerCase();
  if (!typed) return null;
  for (const category of CASE_CATEGORIES) {
    const titles = (["en", "rw", "fr"] as const).map((lang) => say(category, lang).toLowerCase());
    if (typed === category || titles.some((title) => title === typed)) return category;
  }
  return null;
}

/** What the client reads once the case is filed: the reference, and the fee when one is due. */
function filedReply(turn: OfflineTurn, memory: LegalMemory): AgentReply {
  const lang = turn.language;
  const due = memory.fee;
  const buttons = [
    ...(due ? [{ id: PAY, title: say("pay", lang) }] : []),
    ...personButton(turn),
  ];
  const text = say("filed", lang, {
    ref: memory.reference ?? "",
    phone: turn.input.phone ?? "",
  }) + (due
    ? `\n\n${
      say("fee", lang, {
        amount: formatMoney(due.amount, lang, { currency: turn.currency ?? "RWF" }),
        payee: payeeLabel(due, turn.brand),
      })
    }`
    : "");
  return buttons.length ? { text, buttons } : { text };
}

function payeeLabel(due: z.output<typeof fee>, brand?: string): string {
  if (due.payeePhone) {
    return due.payeeName ? `${due.payeeName} (${due.payeePhone})` : due.payeePhone;
  }
  return brand ?? "";
}

/** The case filed (or not): the reference, the summary PDF, the fee. */
async function filed(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: LegalMemory,
  result: ToolResult<z.output<typeof caseIntake.output>>,
): Promise<OfflineStep> {
  const lang = turn.language;
  if (!result.ok) {
    if (result.error.code === "CANCELLED") {
      return { replies: [{ text: say("cancelled", lang) }], memory: { ...CLEAR }, done: true };
    }
    return {
      replies: [{
        text: say("notFiled", lang, { msg: result.error.msg }),
        buttons: personButton(turn),
      }],
      // A document that could not be attached is dropped: the client sends it again, or not.
      memory: {
        ...memory,
        step: "documents",
        docs: result.error.fields?.some((field) => field.path.startsWith("docs"))
          ? []
          : memory.docs,
        lastResult: null,
        lastTool: null,
      },
    };
  }
  const data = result.data;
  const due = data.consultation_fee;
  const kept: LegalMemory = {
    ...memory,
    step: "filed",
    caseId: data.case_id,
    reference: data.reference_number,
    fee: due
      ? {
        amount: due.amount,
        ...(due.payee_phone ? { payeePhone: due.payee_phone } : {}),
        ...(due.payee_name ? { payeeName: due.payee_name } : {}),
      }
      : null,
    lastResult: null,
    lastTool: null,
  };
  const pdf = await callTyped(callTool, generatePdf, {
    template_id: "legal_case_summary",
    locale: lang,
    data: {
      reference_number: data.reference_number,
      category: data.category,
      client_name: memory.name ?? "",
      client_phone: turn.input.phone ?? "",
      summary: memory.summary ?? "",
      documents: data.documents.length,
      ...(due ? { consultation_fee: due.amount } : {}),
      filed_at: data.filed_at,
    },
  }, "generate_pdf");
  // The PDF itself, its link in the caption for clients that do not open documents.
  const summary: AgentReply = pdf.ok
    ? {
      text: say("pdfLink", lang, { url: pdf.data.pdf_url }),
      document: {
        link: pdf.data.pdf_url,
        filename: `${data.reference_number}.pdf`,
        mimeType: "application/pdf",
        size: pdf.data.bytes,
      },
    }
    : { text: say("pdfFailed", lang) };
  return {
    replies: [summary, filedReply(turn, kept)],
    memory: kept,
  };
}

async function pay(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: LegalMemory,
): Promise<OfflineStep> {
  const due = memory.fee!;
  const phone = turn.input.phone;
  const step = await callWithConfirmation(turn, callTool, {
    tool: "momo_charge",
    args: {
      amount: due.amount,
      currency: "RWF",
      ...(phone && /^\+2507[0-9]{8}$/.test(phone) ? { phone } : {}),
      memo: `Legal consultation ${memory.reference ?? ""}`.trim(),
      // One charge per case: a second tap shows the same charge.
      idempotency_key: `legal-consultation:${memory.caseId}`,
      ...(due.payeePhone ? { payee_phone: due.payeePhone } : {}),
      ...(due.payeePhone && due.payeeName ? { payee_name: due.payeeName } : {}),
      language: turn.language,
      metadata: {
        purpose: "legal_consultation",
        case_id: memory.caseId ?? "",
        reference: memory.reference ?? "",
      },
    },
    step: "momo_charge",
  });
  if (step.pending) return { ...step, memory: { ...memory, step: "paying" } };
  return charged(turn, memory, readKeptResult(momoCharge, step.memory?.lastResult));
}

function charged(
  turn: OfflineTurn,
  memory: LegalMemory,
  result: ToolResult<z.output<typeof momoCharge.output>> | null,
): OfflineStep {
  const lang = turn.language;
  const after = { ...memory, step: "filed" as const, lastResult: null, lastTool: null };
  if (!result || !result.ok) {
    if (result?.error.code === "CANCELLED") {
      return { replies: [filedReply(turn, after)], memory: after };
    }
    return {
      replies: [{
        text: say("payFailed", lang, {
          msg: result?.error.msg ?? "",
          case: memory.reference ?? "",
        }),
        buttons: personButton(turn),
      }],
      memory: after,
    };
  }
  const charge = result.data;
  return {
    replies: [{
      text: say("payCode", lang, {
        amount: formatMoney(charge.amount, lang, { currency: turn.currency ?? "RWF" }),
        payee: charge.payee,
        code: charge.ussd_code,
        link: charge.payment_link,
        ref: charge.momo_ref,
        case: memory.reference ?? "",
      }),
      buttons: personButton(turn),
    }],
    memory: after,
  };
}

async function file(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: LegalMemory,
): Promise<OfflineStep> {
  const step = await callWithConfirmation(turn, callTool, {
    tool: caseIntake.name,
    args: {
      category: memory.category,
      summary: memory.summary,
      docs: memory.docs ?? [],
      client_name: memory.name,
      client_phone: turn.input.phone,
      language: turn.language,
    },
    step: "case_intake",
  });
  if (step.pending) return { ...step, memory: { ...memory, step: "filing" } };
  const result = readKeptResult(caseIntake, step.memory?.lastResult);
  return await filed(turn, callTool, memory, result!);
}

// One offline step of Legal Intake, its memory read by its schema.
async function legalStep(
  turn: TypedTurn<LegalMemory>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const lang = turn.language;
  const fresh = turn.input.choice?.startsWith("agent:") ?? false;
  const memory: LegalMemory = fresh ? { ...CLEAR } : { ...CLEAR, ...turn.memory };
  const text = turn.input.text?.trim() ?? "";
  const choice = fresh ? undefined : turn.input.choice;

  // Back from a confirmation: the case, or the consultation fee's charge.
  if (memory.step === "filing" && memory.lastResult) {
    return await filed(turn, callTool, memory, readKeptResult(caseIntake, memory.lastResult)!);
  }
  if (memory.step === "paying" && memory.lastResult) {
    return charged(turn, memory, readKeptResult(momoCharge, memory.lastResult));
  }

  // An account of the case that ends in a question ("he fired me, can he do that?") is the
  // case: it is taken down, and the question refused, a person offered.
  if (
    memory.step === "summary" && !choice && text.length >= MIN_ACCOUNT && asksForAdvice(text)
  ) {
    return {
      replies: [
        { text: say("questionNoted", lang), buttons: personButton(turn) },
        askName(turn),
      ],
      memory: { ...memory, step: "name", summary: text.slice(0, 2000) },
    };
  }
  // No advice, whatever the step: a refusal, a person offered, the intake kept where it was.
  // A first message that asks ("my landlord wants me to sign a new lease, should I?") has not
  // asked to file a case: they choose a person or to go on, and going on keeps the kind of case
  // and the account it told.
  if (!choice && text && asksForAdvice(text)) {
    const firstMatter = !memory.step ? caseMatterOf(text) : null;
    return {
      replies: [noAdviceReply(turn)],
      memory: {
        ...memory,
        step: memory.step ?? "category",
        ...(firstMatter ? { category: firstMatter } : {}),
        ...(firstMatter && text.length >= MIN_ACCOUNT ? { summary: text.slice(0, 2000) } : {}),
      },
    };
  }
  if (choice === GO_ON) return askAgain(turn, memory);

  const media = turn.input.media;
  const docs = memory.docs ?? [];
  switch (memory.step ?? null) {
    case "category": {
      const category = choice?.startsWith("case:")
        ? categoryOf(choice.slice(5))
        : categoryOf(/^[0-9]{1,2}$/.test(text) ? CASE_CATEGORIES[Number(text) - 1] ?? "" : text);
      // Asked again, what was sent before is kept (a photo that came first).
      if (!category) {
        return {
          ...askCategory(lang),
          memory: { ...CLEAR, step: "category", docs, summary: memory.summary },
        };
      }
      // The first message told what happened: its account is the summary.
      if (memory.summary) {
        return { replies: [askName(turn)], memory: { ...memory, step: "name", category } };
      }
      return {
        replies: [{ text: say("askSummary", lang, { category: say(category, lang) }) }],
        memory: { ...memory, step: "summary", category },
      };
    }
    case "summary": {
      if (text.length < 10 || !/\s/.test(text)) {
        return { replies: [{ text: say("shortSummary", lang) }] };
      }
      return {
        replies: [askName(turn)],
        memory: { ...memory, step: "name", summary: text.slice(0, 2000) },
      };
    }
    case "name": {
      const name = (choice === PROFILE_NAME ? turn.input.name ?? "" : text).trim().replace(
        /\s+/g,
        " ",
      );
      // A sentence is more of the account, not a name: the lawyer reads it, and the name is
      // asked again (a name has a few words and asks nothing).
      if (choice !== PROFILE_NAME && tellsMore(name)) {
        return {
          replies: [{ text: say("addedToAccount", lang) }, askName(turn)],
          memory: { ...memory, summary: withMore(memory.summary, name) },
        };
      }
      if (name.length < 2 || name.length > 120 || /[0-9@]/.test(name)) {
        return { replies: [{ text: say("badName", lang) }] };
      }
      // Documents sent before this step were kept (see legalTurn): they count already.
      return {
        replies: [askDocuments(lang, docs.length)],
        memory: { ...memory, step: "documents", name, docs },
      };
    }
    case "documents": {
      if (media) {
        if (!media.ref || !["image", "document"].includes(media.type)) {
          return { replies: [{ text: say("notADocument", lang) }] };
        }
        if (docs.length >= MAX_CASE_DOCUMENTS) {
          return {
            replies: [{
              text: say("tooManyDocuments", lang, { count: MAX_CASE_DOCUMENTS }),
              buttons: [{ id: DONE, title: say("done", lang) }],
            }],
          };
        }
        const kept = [...docs, media.ref];
        return { replies: [askDocuments(lang, kept.length)], memory: { ...memory, docs: kept } };
      }
      if (
        choice === DONE || saysDone(text) ||
        /^(no|none|oya|ntayo|non|aucun)$/i.test(
          text.normalize("NFD").replace(/[\u0300-\u036f]/g, ""),
        )
      ) {
        return await file(turn, callTool, memory);
      }
      // Words at the documents step are more of the account (kept for the lawyer), never a
      // document received.
      if (tellsMore(text)) {
        return {
          replies: [{
            text: say("addedToAccountDocuments", lang),
            buttons: [{ id: DONE, title: say("done", lang) }],
          }],
          memory: { ...memory, summary: withMore(memory.summary, text) },
        };
      }
      return {
        replies: [{
          text: say("documentsOnly", lang),
          buttons: [{ id: DONE, title: say("done", lang) }],
        }],
      };
    }
    case "filing":
      // The read-back waits for Confirm / Cancel: asked again from the documents step.
      return await file(turn, callTool, memory);
    case "filed":
    case "paying": {
      if (choice === PAY && memory.fee && memory.caseId) return await pay(turn, callTool, memory);
      // A new message after the case is filed starts the next case.
      if (choice?.startsWith("case:") || !text) return askAgain(turn, memory);
      return fromFirstMessage(turn, []);
    }
    default:
      return fromFirstMessage(turn, docs);
  }
}

/** The steps before the documents step, where a photo or PDF is kept for the case. */
const BEFORE_DOCUMENTS = new Set<string | null>([null, "category", "summary", "name"]);

/**
 * A photo or PDF sent before the intake asks for documents (with the first message, or while it
 * asks the case type) is kept for the case and acknowledged, and the step reads its caption as
 * the answer: dropping it in silence loses the client's evidence.
 */
async function legalTurn(
  turn: TypedTurn<LegalMemory>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const media = turn.input.media;
  const fresh = turn.input.choice?.startsWith("agent:") ?? false;
  const at = fresh ? null : turn.memory.step ?? null;
  if (!media?.ref || !["image", "document"].includes(media.type) || !BEFORE_DOCUMENTS.has(at)) {
    return await legalStep(turn, callTool);
  }
  const kept = fresh ? [] : turn.memory.docs ?? [];
  const docs = kept.length < MAX_CASE_DOCUMENTS ? [...kept, media.ref] : kept;
  if (at === "name" || at === "summary") {
    // A caption names the document ("le contrat de vente", "my contract"), never the client nor
    // what happened: the question is asked again.
    return {
      replies: [
        { text: say("documentKept", turn.language, { count: docs.length }) },
        ...(askAgain(turn, { ...CLEAR, ...turn.memory }).replies ?? []),
      ],
      memory: { ...turn.memory, docs },
    };
  }
  const next = await legalStep(
    { ...turn, input: { ...turn.input, media: undefined }, memory: { ...turn.memory, docs } },
    callTool,
  );
  return {
    ...next,
    replies: [
      { text: say("documentKept", turn.language, { count: docs.length }) },
      ...(next.replies ?? []),
    ],
    memory: { ...next.memory, docs },
  };
}

const legal = typedFlow({ version: 1, memory: legalMemory, step: legalTurn });

/** One offline step of the Legal Intake agent. */
export const legalFlow: OfflineFlow = legal.offlineFlow;

/** What the Legal Intake agent's flow keeps between turns, typed and versioned. */
export const legalFlowMemory: FlowMemory = legal.memory;
