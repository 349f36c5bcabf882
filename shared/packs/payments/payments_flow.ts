/**
 * The Payments agent offline: "pay 5000 to 0788123456" (confirm, then the
 * USSD code and link), "my payment didn't go through" (what we know of the
 * latest payment, with a new code or a person), "status of A-1042" (the
 * order's fulfilment and payment), in en, rw and fr.
 *
 * @module
 */
import { z } from "zod";
import type { Language } from "@shared/contract/language.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import {
  type FlowMemory,
  keptCallMemory,
  typedFlow,
  type TypedTurn,
} from "@shared/registry/flow_memory.ts";
import { callWithConfirmation, confirmedOutcome } from "@shared/registry/offline_steps.ts";
import type {
  AgentReply,
  OfflineFlow,
  OfflineStep,
  OfflineToolCaller,
  OfflineTurn,
} from "@shared/registry/pack.ts";
import { callTyped, readData, readKeptResult } from "@shared/registry/tool_call.ts";
import { momoCharge } from "./momo_charge.ts";
import { TRANSFER_PURPOSE } from "./transfer_pending.ts";
import { paymentStatus } from "./payment_status.ts";
import { formatKigaliDate, formatKigaliTime, formatRwf } from "@shared/capabilities/format/mod.ts";
import { orderStateName, paymentStateName } from "@shared/capabilities/order_states/mod.ts";
import { localPhone, PAYMENTS_TEXTS, say, whyFailed } from "./texts.ts";

// "pay 5000 to 0788123456", "ishyura 5,000 frw kuri 0788 123 456", "payer 5k au +250788123456",
// optionally "from 0781234567" / "uvuye kuri …" / "depuis …".
const PAY = new RegExp(
  String.raw`(?:^|\b)(?:pay|send|ishyura|kwishyura|ohereza|payer|envoyer|envoie|paie)\s+` +
    String.raw`([0-9](?:[0-9]|[ ,.](?=[0-9]{3}))*)\s*(k)?\s*(?:rwf|frw|francs?)?\s+` +
    String.raw`(?:to|kuri|kwa|à|au|a|pour)\s+(\+?[0-9][0-9 ]{8,16}[0-9])` +
    String.raw`(?:\s+(?:from|uvuye\s+kuri|kuva\s+kuri|depuis|de)\s+(\+?[0-9][0-9 ]{8,16}[0-9]))?`,
  "i",
);
const ORDER_NO = /\b([A-Za-z]{1,3})-([0-9]{3,12})\b/;
// "I paid but…" asks about a payment as surely as "it failed" does: "paid", "still waiting",
// "nishyuye" (I paid), "ntacyo nabonye" (I saw nothing), "j'ai payé", "toujours".
const TROUBLE =
  /(fail|didn.?t go|did not go|not go through|pending|check|status|received|where|\bpaid\b|waiting|still|byanze|ntibwakunze|yanze|reba|mwayabonye|biracyategereje|nishyuye|narishyuye|ntacyo nabonye|échou|echou|pas passé|pas passe|attente|vérif|verif|statut|reçu|recu|payé|toujours)/i;

interface ChargeData {
  payment_link: string;
  ussd_code: string;
  momo_ref: string;
  amount: number;
  payee: string;
  expires_at: string;
}

interface PaymentView {
  momo_ref: string;
  amount: number;
  status: "pending" | "settled" | "failed" | "expired";
  failure_reason: string | null;
  payee: string | null;
  order_no: string | null;
  expires_at: string;
  settled_at: string | null;
}

/** Whole francs from what people type: `5000`, `5,000`, `5 000`, `5k`. */
export function readAmount(written: string, thousands?: string): number | null {
  const digits = written.replace(/[ ,.]/g, "");
  if (!/^[0-9]{1,9}$/.test(digits)) return null;
  const amount = Number(digits) * (thousands ? 1000 : 1);
  return amount > 0 ? amount : null;
}

/** What "pay 5000 to 0788123456" asks, or null when the text is not such a request. */
export function readPayRequest(
  text: string,
): { amount: number; to: string; from?: string } | null {
  const match = PAY.exec(text.normalize("NFC"));
  if (!match) return null;
  const amount = readAmount(match[1], match[2]?.toLowerCase() === "k" ? "k" : undefined);
  if (amount === null) return null;
  return {
    amount,
    to: match[3].replace(/ /g, ""),
    ...(match[4] ? { from: match[4].replace(/ /g, "") } : {}),
  };
}

function personButton(turn: OfflineTurn): AgentReply["buttons"] {
  return turn.handoff
    ? [{ id: `agent:${turn.handoff}`, title: PAYMENTS_TEXTS.person[turn.language] }]
    : undefined;
}

function linkText(data: ChargeData, language: Language): string {
  return say("link", language, {
    amount: formatRwf(data.amount, language),
    payee: /^\+2507/.test(data.payee) ? localPhone(data.payee) : data.payee,
    code: data.ussd_code,
    link: data.payment_link,
    ref: data.momo_ref,
    until: formatKigaliTime(data.expires_at),
  });
}

function describePayment(payment: PaymentView, language: Language): string {
  const what = payment.order_no
    ? say("forOrder", language, { order: payment.order_no, payee: payment.payee ?? "" })
    : payment.payee
    ? say("toPayee", language, {
      payee: /^\+2507/.test(payment.payee) ? localPhone(payment.payee) : payment.payee,
    })
    : "";
  const state = payment.status === "pending"
    ? say("statePending", language, { until: formatKigaliTime(payment.expires_at) })
    : payment.status === "settled"
    ? say("stateSettled", language, {
      at: formatKigaliDate(payment.settled_at!, language, { time: true }),
    })
    : say("stateFailed", language, { why: whyFailed(payment.failure_reason, language) });
  return say("recent", language, {
    amount: formatRwf(payment.amount, language),
    what,
    ref: payment.momo_ref,
    state,
  });
}

function failedReply(turn: OfflineTurn, result: ToolResult): OfflineStep {
  const msg = result.ok ? "" : result.error.msg;
  return {
    replies: [{
      text: say("chargeFailed", turn.language, { msg }),
      buttons: personButton(turn),
    }],
  };
}

async function charge(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  args: Record<string, unknown>,
): Promise<OfflineStep> {
  const step = await callWithConfirmation(turn, callTool, {
    tool: "momo_charge",
    args: {
      currency: "RWF",
      idempotency_key: `${turn.input.wamid}:charge`,
      language: turn.language,
      ...args,
    },
    step: "charge",
  });
  if (step.pending) return step;
  const result = readKeptResult(momoCharge, step.memory?.lastResult);
  if (result?.ok) {
    return { replies: [{ text: linkText(result.data, turn.language) }] };
  }
  return failedReply(turn, result!);
}

/**
 * What the Payments agent keeps between turns (version 1): only a charge
 * kept for the user's confirmation, reported once they answer. Everything
 * else it reads from the message or from `payment_status`.
 */
const paymentsMemory = z.object({ ...keptCallMemory });

/** One offline step of the Payments agent. */
async function paymentsStep(
  turn: TypedTurn<z.output<typeof paymentsMemory>>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const lang = turn.language;
  const reported = confirmedOutcome(turn, (data) => linkText(readData(momoCharge, data), lang));
  if (reported) return reported;

  const choice = turn.input.choice ?? "";
  if (choice.startsWith("pay:again:")) {
    const [amount, target] = choice.slice("pay:again:".length).split(":");
    return await charge(turn, callTool, {
      amount: Number(amount),
      memo: `Payment ${amount} RWF`,
      ...(target.startsWith("+") ? { payee_phone: target } : { order_id: target }),
    });
  }

  const text = turn.input.text ?? "";
  const request = readPayRequest(text);
  if (request) {
    return await charge(turn, callTool, {
      amount: request.amount,
      payee_phone: request.to,
      memo: `Payment to ${request.to}`,
      // Named so that leaving the agent finds it waiting (transfer_pending.ts).
      metadata: { purpose: TRANSFER_PURPOSE },
      // The payer's MoMo number: as asked, else the WhatsApp number when it is a Rwandan mobile.
      ...(request.from
        ? { phone: request.from }
        : turn.input.phone && /^\+2507[0-9]{8}$/.test(turn.input.phone)
        ? { phone: turn.input.phone }
        : {}),
    });
  }

  const orderNo = ORDER_NO.exec(text);
  if (orderNo) {
    const result = await callTyped(
      callTool,
      paymentStatus,
      { order_no: `${orderNo[1]}-${orderNo[2]}` },
      "order_status",
    );
    if (!result.ok) {
      return {
        replies: [{
          text: result.error.code === "NOT_FOUND"
            ? say("orderNotFound", lang, { order: `${orderNo[1].toUpperCase()}-${orderNo[2]}` })
            : say("chargeFailed", lang, { msg: result.error.msg }),
        }],
      };
    }
    const data = result.data;
    const order = data.order!;
    const latest = data.payments[0];
    return {
      replies: [{
        text: say("orderStatus", lang, {
          order: order.order_no,
          venue: order.venue,
          status: orderStateName(order.status, lang),
          payment: latest
            ? describePayment(latest, lang)
            : paymentStateName(order.payment_status, lang),
        }),
      }],
    };
  }

  // Reached from a failure message's "Pay again", or asked about a payment.
  if (choice === "agent:payments" || TROUBLE.test(text)) {
    const result = await callTyped(callTool, paymentStatus, {}, "recent");
    if (!result.ok) return failedReply(turn, result);
    const latest = result.data.payments[0];
    if (!latest) {
      return { replies: [{ text: say("noPayments", lang), buttons: personButton(turn) }] };
    }
    const retry = latest.status === "failed" || latest.status === "expired";
    const target = await retryTarget(callTool, latest);
    return {
      replies: [{
        text: describePayment(latest, lang),
        buttons: [
          ...(retry && target
            ? [{ id: `pay:again:${latest.amount}:${target}`, title: PAYMENTS_TEXTS.payAgain[lang] }]
            : []),
          ...(personButton(turn) ?? []),
        ],
      }],
    };
  }
  return { replies: [{ text: say("ask", lang), buttons: personButton(turn) }] };
}

const payments = typedFlow({ version: 1, memory: paymentsMemory, step: paymentsStep });

/** One offline step of the Payments agent. */
export const paymentsFlow: OfflineFlow = payments.offlineFlow;

/** What the Payments agent's flow keeps between turns, typed and versioned. */
export const paymentsFlowMemory: FlowMemory = payments.memory;

/** Who a new charge for a failed one pays: the same phone, or the same order. */
async function retryTarget(
  callTool: OfflineToolCaller,
  payment: PaymentView,
): Promise<string | null> {
  if (payment.payee && /^\+2507[0-9]{8}$/.test(payment.payee)) return payment.payee;
  if (!payment.order_no) return null;
  const result = await callTyped(
    callTool,
    paymentStatus,
    { order_no: payment.order_no },
    "retry_order",
  );
  const id = result.ok ? result.data.order?.order_id : null;
  return id ?? null;
}
