/**
 * Analytics & Risk, for staff only: reads the org's funnels from its
 * analytics events and raises anomalies (a drop in vendors' response rate,
 * repeated payment failures, a spike in hand-offs) to staff with
 * `notify_staff`, on the platform's sweep. Staff reach it from their
 * registered WhatsApp number or the Admin Inbox's assistant panel; a
 * customer's message never routes to it (audience staff, no intents: what a customer
 * might ask of it is learnt as staff work, answered "our team does that").
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import { RISK_FLOW, RISK_TEXTS, RISK_WATCH } from "./risk_flow.ts";
import { funnelReport, riskAlertRaised, riskScan } from "./risk_tools.ts";
import { ANALYTICS_STAFF_WORK, ANALYTICS_STAFF_WORK_NAME } from "./staff_work.ts";

/** The Analytics & Risk pack. */
export const ANALYTICS_RISK_PACK: Pack = {
  id: "analytics_risk",
  tools: [funnelReport, riskScan, riskAlertRaised],
  agents: [{
    id: "analytics_risk",
    name: "Analytics & Risk",
    description: "Reports each agent's funnel (started, confirmed, paid) and the anomalies " +
      "raised to staff; watches for drops in vendor response, payment failures and hand-off spikes.",
    audience: "staff",
    // What customers ask of it: learnt as staff work, answered "our team does that".
    staffWork: ANALYTICS_STAFF_WORK,
    staffWorkName: ANALYTICS_STAFF_WORK_NAME,
    tools: ["funnel_report", "analytics_log", "notify_staff"],
    menuTitle: { en: "Analytics & Risk", rw: "Isesengura n'ingaruka", fr: "Analyses et risques" },
    ...RISK_FLOW,
  }],
  tables: {},
  texts: RISK_TEXTS,
  services: [],
  schedules: [RISK_WATCH],
};
