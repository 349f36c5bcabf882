/**
 * Analytics & Risk's flow and its scheduled watch. Staff ask "how are we
 * doing today?" (or tap it) and get each agent's funnel over the last 24
 * hours and the anomalies raised meanwhile, in their language. The watch
 * runs on the platform's sweep: `risk_scan` finds and records anomalies,
 * each is raised to staff with `notify_staff` (once: its key names the
 * anomaly), and `risk_alert_raised` records the ticket.
 *
 * @module
 */
import { z } from "zod";
import { type Language, phraseBook } from "@shared/contract/language.ts";
import { callTyped, readResult } from "@shared/registry/tool_call.ts";
import { typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import type {
  AgentReply,
  OfflineStep,
  OfflineToolCaller,
  PackSchedule,
} from "@shared/registry/pack.ts";
import { funnelReport, riskAlertRaised, type RiskKind, riskScan } from "./risk_tools.ts";

/** What Analytics & Risk says, in en/rw/fr. */
export const RISK_TEXTS = {
  riskAsk: {
    en: "Analytics & Risk here. Ask “how are we doing today?”, or pick:",
    rw: "Isesengura n'ingaruka hano. Baza “tumeze dute uyu munsi?”, cyangwa uhitemo:",
    fr: "Analyses et risques ici. Demandez « comment ça va aujourd'hui ? », ou choisissez :",
  },
  riskToday: { en: "Today", rw: "Uyu munsi", fr: "Aujourd'hui" },
  riskWeek: { en: "Last 7 days", rw: "Iminsi 7 ishize", fr: "7 derniers jours" },
  riskHead: {
    en: "Last {hours} hours, per agent (started → confirmed → paid):",
    rw: "Amasaha {hours} ashize, kuri buri mufasha (byatangiye → byemejwe → byishyuwe):",
    fr: "Dernières {hours} heures, par agent (commencé → confirmé → payé) :",
  },
  riskNoFunnel: {
    en: "No funnel events in the last {hours} hours.",
    rw: "Nta bikorwa byanditswe mu masaha {hours} ashize.",
    fr: "Aucun événement de parcours ces {hours} dernières heures.",
  },
  riskAlertsHead: {
    en: "Raised to staff:",
    rw: "Byamenyeshejwe abakozi:",
    fr: "Signalé au personnel :",
  },
  riskNoAlerts: {
    en: "No anomaly raised.",
    rw: "Nta kibazo cyagaragaye.",
    fr: "Aucune anomalie signalée.",
  },
  riskVendorDrop: {
    en: "vendors answered {rate}% of inquiries (usually {usual}%)",
    rw: "abacuruzi basubije {rate}% by'ibibazo (ubusanzwe {usual}%)",
    fr: "les vendeurs ont répondu à {rate} % des demandes (d'habitude {usual} %)",
  },
  riskPaymentFailures: {
    en: "{failed} payments failed within an hour",
    rw: "ubwishyu {failed} bwanze mu isaha imwe",
    fr: "{failed} paiements ont échoué en une heure",
  },
  riskHandoffSpike: {
    en: "{handoffs} hand-offs to staff within an hour (usually {usual} an hour)",
    rw: "abantu {handoffs} bohererejwe abakozi mu isaha imwe (ubusanzwe {usual} ku isaha)",
    fr: "{handoffs} transferts au personnel en une heure (d'habitude {usual} par heure)",
  },
  riskFailed: {
    en: "Sorry, I could not read the figures just now. Please try again.",
    rw: "Mutwihanganire, sinashoboye gusoma imibare ubu. Ongera ugerageze.",
    fr: "Désolé, je n'ai pas pu lire les chiffres pour l'instant. Veuillez réessayer.",
  },
} as const;

const say = phraseBook(RISK_TEXTS);

// "how are we doing", "today", "uyu munsi", "aujourd'hui", "comment ça va"…
const TODAY =
  /\b(today|how are we|how's it going|doing|uyu munsi|tumeze|aujourd|comment [çc]a va)/i;
const WEEK = /\b(week|7 days|icyumweru|iminsi 7|semaine|7 jours)\b/i;

/** How an anomaly reads, in `language`. */
export function anomalyText(
  kind: RiskKind,
  detail: Record<string, number>,
  language: Language,
): string {
  switch (kind) {
    case "vendor_response_drop":
      return say("riskVendorDrop", language, {
        rate: String(Math.round((detail.rate ?? 0) * 100)),
        usual: String(Math.round((detail.usual ?? 0) * 100)),
      });
    case "payment_failures":
      return say("riskPaymentFailures", language, { failed: String(detail.failed ?? 0) });
    case "handoff_spike":
      return say("riskHandoffSpike", language, {
        handoffs: String(detail.handoffs ?? 0),
        usual: String(detail.usual_per_hour ?? 0),
      });
  }
}

const memory = z.object({ hours: z.int().optional() });

function options(language: Language): AgentReply["rows"] {
  return [
    { id: "risk:24", title: say("riskToday", language) },
    { id: "risk:168", title: say("riskWeek", language) },
  ];
}

async function report(
  turn: TypedTurn<z.output<typeof memory>>,
  callTool: OfflineToolCaller,
  hours: number,
): Promise<string> {
  const { language } = turn;
  const result = await callTyped(callTool, funnelReport, { hours }, `risk_report_${hours}`);
  if (!result.ok) return say("riskFailed", language);
  const { funnels, alerts } = result.data;
  const lines = funnels.length
    ? [
      say("riskHead", language, { hours: String(hours) }),
      ...funnels.map((row) =>
        `• ${row.agent || "—"}: ${row.started} → ${row.confirmed} → ${row.paid}`
      ),
    ]
    : [say("riskNoFunnel", language, { hours: String(hours) })];
  const raised = alerts.length
    ? [
      say("riskAlertsHead", language),
      ...alerts.map((row) => `• ${anomalyText(row.kind, row.detail, language)}`),
    ]
    : [say("riskNoAlerts", language)];
  return [...lines, "", ...raised].join("\n");
}

async function step(
  turn: TypedTurn<z.output<typeof memory>>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const choice = turn.input.choice ?? "";
  const tapped = /^risk:(\d{1,3})$/.exec(choice)?.[1];
  const hours = tapped
    ? Number(tapped)
    : WEEK.test(turn.input.text)
    ? 168
    : TODAY.test(turn.input.text)
    ? 24
    : null;
  if (hours === null || hours < 1 || hours > 168) {
    return { replies: [{ text: say("riskAsk", turn.language), rows: options(turn.language) }] };
  }
  return {
    replies: [{ text: await report(turn, callTool, hours), rows: options(turn.language) }],
    memory: { hours },
  };
}

/** Analytics & Risk's typed flow and memory. */
export const RISK_FLOW = typedFlow({ version: 1, memory, step });

// notify_staff is the support pack's: the fields this watch reads of it.
const notifyStaffShape = { name: "notify_staff", output: z.object({ ticket_id: z.uuid() }) };

/**
 * The watch, every 15 minutes for each tenant running Analytics & Risk: finds
 * anomalies and raises each still unraised one to staff, once.
 *
 * @throws {Error} naming the call that failed (the sweep logs it; the next period retries).
 */
export const RISK_WATCH: PackSchedule = {
  id: "risk_watch",
  everyMinutes: 15,
  async run(callTool) {
    const scan = readResult(riskScan, await callTool(riskScan.name, {}, "scan"));
    if (!scan.ok) throw new Error(`risk_scan failed: ${scan.error.code}`);
    for (const alert of scan.data.pending) {
      const what = anomalyText(alert.kind, alert.detail, "en");
      // Keyed by the anomaly, not the period: a retry after a crash opens no second ticket.
      const ticket = readResult(
        notifyStaffShape,
        await callTool(
          notifyStaffShape.name,
          {
            channel: "inbox",
            payload: {
              reason: `Risk: ${alert.kind.replaceAll("_", " ")}`,
              summary: `Analytics & Risk: ${what} (as of ${alert.raised_at}).`,
              priority: "high",
              agent_id: "analytics_risk",
              language: "en",
            },
          },
          `notify:${alert.id}`,
          { once: true },
        ),
      );
      if (!ticket.ok) throw new Error(`notify_staff failed: ${ticket.error.code}`);
      const recorded = await callTool(
        riskAlertRaised.name,
        {
          alert_id: alert.id,
          ticket_id: ticket.data.ticket_id,
        },
        `raised:${alert.id}`,
        { once: true },
      );
      if (!recorded.ok) throw new Error(`risk_alert_raised failed: ${recorded.error.code}`);
    }
  },
};
