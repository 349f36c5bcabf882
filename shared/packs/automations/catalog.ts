/**
 * The services the automations pack needs from the composition root: the
 * tenant's events and tools (its catalog, for checking an automation), and
 * where a tenant's Slack webhook may point. A checked automation is saved by
 * `private.automation_save`, in the call's transaction, as the caller.
 *
 * @module
 */
import { serviceKey } from "@shared/registry/pack.ts";
import type { AutomationCatalog } from "./model.ts";

export type { AutomationCatalog };

/** Every pack's events and the tools a tenant may call, as the root knows them. */
export const AUTOMATION_CATALOG = serviceKey<AutomationCatalog>("automations.catalog");

/** Where Slack webhooks may point, and how they are reached. */
export interface SlackSettings {
  /**
   * A tenant's webhook URL must start with one of these (Slack's own host in
   * production; a loopback fake in tests): any other is refused, so the URL a
   * tenant gives cannot make the platform post to an internal address.
   */
  webhookPrefixes: readonly string[];
  /** Gives up on one POST after this long, ms. */
  timeoutMs: number;
}

/** The settings of production: Slack's incoming webhooks only, 5 s. */
export const DEFAULT_SLACK_SETTINGS: SlackSettings = {
  webhookPrefixes: ["https://hooks.slack.com/services/"],
  timeoutMs: 5000,
};

/** The key the root provides {@link SlackSettings} under. */
export const SLACK_SETTINGS = serviceKey<SlackSettings>("automations.slack");

/**
 * The settings from `SLACK_WEBHOOK_PREFIXES` (comma-separated URL prefixes a
 * tenant's webhook may start with, e.g. a local fake's for the dev server);
 * unset: Slack's own.
 *
 * @throws {RangeError} when a prefix is not an http(s) URL ending in `/`.
 */
export function slackSettingsFromEnv(env: Pick<Deno.Env, "get"> = Deno.env): SlackSettings {
  const value = env.get("SLACK_WEBHOOK_PREFIXES")?.trim();
  if (!value) return DEFAULT_SLACK_SETTINGS;
  const prefixes = value.split(",").map((prefix) => prefix.trim()).filter(Boolean);
  for (const prefix of prefixes) {
    if (!/^https?:\/\/[^/\s]+\/\S*$/.test(prefix)) {
      throw new RangeError(
        "Cannot start as SLACK_WEBHOOK_PREFIXES must list http(s) URL prefixes ending in a path: " +
          `current value is ${JSON.stringify(value)}`,
      );
    }
  }
  return { ...DEFAULT_SLACK_SETTINGS, webhookPrefixes: prefixes };
}
