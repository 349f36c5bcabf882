/**
 * The automations pack (seed 003's `deploy_automation`): staff save rules
 * "when this event arrives (or on this schedule) and this condition holds,
 * call these tools", and the platform runs them for real. No agent of its
 * own: staff reach the tools through the tools endpoint or any staff agent
 * given them.
 *
 * - {@link AUTOMATIONS_PACK}: the pack the composition root registers.
 * - {@link AUTOMATION_CATALOG}, {@link SLACK_SETTINGS}: the services the root provides.
 * - The model (checks, conditions, templates, schedules) the root's runner reuses.
 *
 * @module
 */
import type { Pack } from "@shared/registry/pack.ts";
import {
  automationDelete,
  automationList,
  automationPause,
  automationResume,
  automationRuns,
  automationTest,
  deployAutomation,
} from "./automation_tools.ts";
import { AUTOMATION_CATALOG, SLACK_SETTINGS } from "./catalog.ts";
import { slackNotify, slackWebhookSet } from "./slack_notify.ts";

export * from "./catalog.ts";
export {
  type AutomationSpec,
  AutomationSpecSchema,
  checkAutomation,
  type Condition,
  conditionHolds,
  DEFAULT_SCHEDULE_TIME_ZONE,
  nextSlot,
  type NextSlotOptions,
  renderArgs,
  SCHEDULE_PAYLOAD,
  type Suspension,
  suspension,
  triggerPayload,
} from "./model.ts";

/** The automations pack. */
export const AUTOMATIONS_PACK: Pack = {
  id: "automations",
  tools: [
    deployAutomation,
    automationList,
    automationPause,
    automationResume,
    automationDelete,
    automationTest,
    automationRuns,
    slackWebhookSet,
    slackNotify,
  ],
  agents: [],
  tables: {},
  texts: {},
  services: [AUTOMATION_CATALOG, SLACK_SETTINGS],
};
