/**
 * The services the automations pack needs from the composition root: the
 * tenant's events and tools (its catalog, for checking an automation), where
 * a checked automation is saved (as the service: staff may not write rules
 * themselves), and where a tenant's Slack webhook may point.
 *
 * @module
 */
import { serviceKey } from "@shared/registry/pack.ts";
import type { Queryable } from "@shared/db/types.ts";
import type { AutomationCatalog } from "./model.ts";

export type { AutomationCatalog };

/** Every pack's events and the tools a tenant may call, as the root knows them. */
export const AUTOMATION_CATALOG = serviceKey<AutomationCatalog>("automations.catalog");

/** A checked automation, as it is saved. */
export interface AutomationDraft {
  /** The tenant. */
  orgId: string;
  /** Its name (a second save of the name replaces the rule). */
  name: string;
  /** `{event}` or `{schedule}`. */
  trigger: Record<string, unknown>;
  /** The event's name when an event triggers it. */
  event: string | null;
  /** The condition, or null. */
  condition: Record<string, unknown> | null;
  /** The actions. */
  actions: ReadonlyArray<{ tool: string; args: Record<string, unknown> }>;
  /** A schedule's first slot (ISO), or null. */
  nextRunAt: string | null;
  /** The staff member who deployed it, if a person did. */
  createdBy: string | null;
}

/**
 * Saves automations deploy_automation has checked. The table takes no
 * rule from anyone else (migration 20261201000600): what staff write through
 * the Data API would skip the checks.
 */
export interface AutomationStore {
  /** Inserts or replaces (by org and name) the rule, active; answers the saved row's id. */
  save(draft: AutomationDraft): Promise<{ id: string }>;
}

/** The key the root provides {@link AutomationStore} under. */
export const AUTOMATION_STORE = serviceKey<AutomationStore>("automations.store");

/**
 * The store over the service's database: one upsert per save, scoped to the
 * draft's org (the tool checked the caller is its staff).
 */
export function automationStore(db: Queryable): AutomationStore {
  return {
    async save(draft) {
      const [row] = await db.query<{ id: string }>(
        `insert into public.automations
           (org_id, name, trigger, event, condition, actions, status, next_run_at, created_by)
         values ($1, $2, $3::jsonb, $4, $5::jsonb, $6::jsonb, 'active', $7, $8)
         on conflict (org_id, name) do update
           set trigger = excluded.trigger, event = excluded.event,
               condition = excluded.condition, actions = excluded.actions, status = 'active',
               next_run_at = excluded.next_run_at, updated_at = now()
         returning id`,
        [
          draft.orgId,
          draft.name,
          draft.trigger,
          draft.event,
          draft.condition,
          draft.actions,
          draft.nextRunAt,
          draft.createdBy,
        ],
      );
      return row;
    },
  };
}

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
