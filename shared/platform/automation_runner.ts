/**
 * Runs the tenants' automations: reads new events from the outbox
 * (`public.automation_events`, written in the transaction of the change
 * they report), and for each active automation of that org whose trigger is
 * the event and whose condition holds, calls its actions through the
 * pipeline as the org's service; then runs the scheduled automations that
 * are due by the platform's clock.
 *
 * Once per event, however it is delivered: the outbox holds one row per
 * source (a re-delivered webhook adds none), a run row is unique per
 * (automation, event), and each action's idempotency key is
 * `automation:<automation id>:<event id>:<action index>`, so a run a crash
 * cut short is finished by the next pass without repeating what it did.
 * Two runners never hold one event: rows are claimed with a lease (`for
 * update skip locked`). One automation's failure is recorded on its run and
 * never stops the others, nor other tenants' events.
 *
 * An automation its tenant can no longer run (its event's pack or an
 * action's tool is no longer the tenant's: `suspension`) does not fire: its
 * events are passed over like a paused one's, and it fires again once the
 * pack or tool is back.
 *
 * @module
 */
import type { ToolResult } from "@shared/contract/mod.ts";
import type { Platform } from "@shared/pipeline/platform.ts";
import type { PackEvent } from "@shared/registry/pack.ts";
import {
  type AutomationCatalog,
  type AutomationSpec,
  type Condition,
  conditionHolds,
  DEFAULT_SCHEDULE_TIME_ZONE,
  nextSlot,
  renderArgs,
  suspension,
} from "@shared/packs/automations/mod.ts";

/** Options for {@link runAutomations}. */
export interface RunAutomationsOptions {
  /** The time of this pass: leases and due schedules are judged by it. */
  now: Date;
  /** Events claimed at once. @default 100 */
  batch?: number;
  /** Batches one pass claims at most (the rest waits for the next sweep). @default 10 */
  maxBatches?: number;
  /** How long a claimed event stays with this runner before another may take it. @default 120000 */
  leaseMs?: number;
  /** Processed events older than this many days are deleted (their runs keep their rows). @default 30 */
  retainDays?: number;
}

/** What one pass did. */
export interface AutomationPass {
  /** Events read. */
  events: number;
  /** Runs that called their actions (matched events and due schedules). */
  runs: number;
  /** Of those, runs that did not succeed (a failed action, or one whose outcome is unknown). */
  failed: number;
}

interface EventRow {
  id: string;
  org_id: string;
  event: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/** Codes worth another try later: nothing was done (the pipeline rolled the call back). */
const TRANSIENT = new Set(["SERVICE_UNAVAILABLE", "TIMEOUT", "RATE_LIMIT", "INTERNAL_ERROR"]);

/** The passes an event gets before a transient failure is final. */
export const MAX_EVENT_ATTEMPTS = 5;

/** How a run ended: done (either way), to be tried again, or finished by an earlier pass. */
type RunOutcome = "succeeded" | "failed" | "unknown" | "retry" | "done_before";

/**
 * Whether an action's result says the outside service may or may not have
 * acted: an open-world tool that sent a request and got no answer (a
 * timeout) answers ok with `delivery: "unknown"` rather than failing, so the
 * idempotency ledger keeps it and nothing sends it again. The run is then
 * `unknown`: staff check by hand.
 */
function deliveryUnknown(result: ToolResult): boolean {
  if (!result.ok || typeof result.data !== "object" || result.data === null) return false;
  return (result.data as { delivery?: unknown }).delivery === "unknown";
}

interface AutomationRow {
  id: string;
  org_id: string;
  trigger: AutomationSpec["trigger"];
  condition: Condition | null;
  actions: AutomationSpec["actions"];
  next_run_at?: Date | string;
}

/** Every pack's events, by name. */
export function packEvents(platform: Pick<Platform, "packs">): PackEvent[] {
  return platform.packs.flatMap((pack) => pack.events ?? []);
}

/**
 * The events a tenant's automations may be triggered by: those of the packs
 * it uses, read from the agent file (data): a pack one of whose agents the
 * tenant runs, or one of whose tools an agent it runs is given (a domain
 * without agents of its own, whose tools other packs' agents use).
 * A tenant the platform does not know, or that runs no agent, has none.
 */
export function tenantEvents(
  platform: Pick<Platform, "packs" | "agents" | "tenants">,
  orgId: string,
): PackEvent[] {
  const slug = platform.tenants.get(orgId)?.slug;
  if (!slug) return [];
  const running = platform.agents.list(slug);
  const agentIds = new Set(running.map((agent) => agent.id));
  const toolNames = new Set(running.flatMap((agent) => agent.tools));
  return platform.packs
    .filter((pack) =>
      pack.agents.some((agent) => agentIds.has(agent.id)) ||
      pack.tools.some((tool) => toolNames.has(tool.name))
    )
    .flatMap((pack) => pack.events ?? []);
}

/** The time zone a tenant's cron schedules are read in: its own (`orgs.time_zone`). */
export function scheduleTimeZone(platform: Pick<Platform, "tenants">, orgId: string): string {
  return platform.tenants.get(orgId)?.profile?.timeZone ?? DEFAULT_SCHEDULE_TIME_ZONE;
}

/**
 * The tenant's catalog as automations see it: the events of the packs it
 * uses, and the tools its policy lets it call that are not internal.
 */
export function automationCatalog(
  platform: () => Pick<Platform, "packs" | "agents" | "tenants" | "getToolsForTenant">,
): AutomationCatalog {
  return {
    events: (orgId) => tenantEvents(platform(), orgId),
    timeZone: (orgId) => scheduleTimeZone(platform(), orgId),
    tool(orgId, name) {
      const tool = platform().getToolsForTenant(orgId).find((candidate) => candidate.name === name);
      return tool && !tool.internal ? { input: tool.input } : null;
    },
  };
}

/** Runs what is new and due. Never throws for one automation or event; a database outage throws. */
export async function runAutomations(
  platform: Platform,
  options: RunAutomationsOptions,
): Promise<AutomationPass> {
  const { now } = options;
  const pass: AutomationPass = { events: 0, runs: 0, failed: 0 };
  const events = new Map(packEvents(platform).map((event) => [event.name, event]));
  const size = options.batch ?? 100;
  // Judged once per automation and pass, against the catalog this instance serves.
  const catalog = automationCatalog(() => platform);
  const judged = new Map<string, boolean>();
  const runnable = (automation: AutomationRow) => {
    let can = judged.get(automation.id);
    if (can === undefined) {
      can = suspension(automation, automation.org_id, catalog) === null;
      judged.set(automation.id, can);
    }
    return can;
  };
  // Batch after batch while they come full: a backlog drains in one sweep, up to maxBatches.
  for (let batch = 0; batch < (options.maxBatches ?? 10); batch++) {
    const claimed = await platform.db.query<EventRow>(
      `update public.automation_events e
         set locked_until = $1, attempts = e.attempts + 1
       where e.id in (
         select id from public.automation_events
         where processed_at is null and (locked_until is null or locked_until <= $2)
         order by occurred_at, id limit $3
         for update skip locked)
       returning e.id, e.org_id, e.event, e.payload, e.attempts`,
      [
        new Date(now.getTime() + (options.leaseMs ?? 120_000)).toISOString(),
        now.toISOString(),
        size,
      ],
    );
    for (const event of claimed) {
      pass.events++;
      try {
        const schema = events.get(event.event)?.payload;
        const parsed = schema?.safeParse(event.payload);
        if (!parsed?.success) {
          // Our own writer's mistake, not the tenant's: logged, and the event is not run.
          platform.log.error("automation_event_invalid", {
            event_id: event.id,
            event: event.event,
          });
        } else {
          const automations = await platform.db.query<AutomationRow>(
            `select id, org_id, trigger, condition, actions from public.automations
             where org_id = $1 and event = $2 and status = 'active' order by created_at, id`,
            [event.org_id, event.event],
          );
          let retry = false;
          for (const automation of automations) {
            if (!runnable(automation)) continue;
            if (!conditionHolds(automation.condition, parsed.data as Record<string, unknown>)) {
              continue;
            }
            const outcome = await runOne(platform, automation, {
              eventId: event.id,
              triggerKey: event.id,
              payload: parsed.data as Record<string, unknown>,
              now,
              final: event.attempts >= MAX_EVENT_ATTEMPTS,
            });
            if (outcome === "done_before") continue;
            pass.runs++;
            if (outcome !== "succeeded") pass.failed++;
            if (outcome === "retry") retry = true;
          }
          // Left claimed: once the lease runs out a later pass runs what is still `running`.
          if (retry) continue;
        }
        await platform.db.query(
          "update public.automation_events set processed_at = $2, locked_until = null where id = $1",
          [event.id, now.toISOString()],
        );
      } catch (error) {
        // Left claimed: the lease runs out and a later pass tries again, replaying what was done.
        platform.log.error("automation_event_failed", {
          event_id: event.id,
          error: String(error).slice(0, 300),
        });
      }
    }
    if (claimed.length < size) break;
  }
  const due = await platform.db.query<AutomationRow>(
    `select id, org_id, trigger, condition, actions, next_run_at from public.automations
     where status = 'active' and next_run_at is not null and next_run_at <= $1
     order by next_run_at, id limit $2`,
    [now.toISOString(), options.batch ?? 100],
  );
  for (const automation of due) {
    try {
      const slot = new Date(automation.next_run_at!).toISOString();
      const schedule = automation.trigger.schedule!;
      // Slots missed while nobody ran are not caught up: the next is the first after now.
      const [won] = await platform.db.query(
        `update public.automations set next_run_at = $3
         where id = $1 and next_run_at = $2 and status = 'active' returning id`,
        [
          automation.id,
          slot,
          nextSlot(schedule, now, { timeZone: scheduleTimeZone(platform, automation.org_id) })
            .toISOString(),
        ],
      );
      if (!won) continue;
      // A suspended schedule's slot passes unrun, as a paused one's would.
      if (!runnable(automation)) continue;
      // A slot is run once: its next chance is the next slot.
      const outcome = await runOne(platform, automation, {
        eventId: null,
        triggerKey: `schedule:${slot}`,
        payload: { scheduled_at: slot },
        now,
        final: true,
      });
      if (outcome === "done_before") continue;
      pass.runs++;
      if (outcome !== "succeeded") pass.failed++;
    } catch (error) {
      platform.log.error("automation_schedule_failed", {
        automation_id: automation.id,
        error: String(error).slice(0, 300),
      });
    }
  }
  // The outbox stays small: processed events go after the retention, a thousand a pass.
  await platform.db.query(
    `delete from public.automation_events where id in (
       select id from public.automation_events
       where processed_at < $1 order by processed_at limit 1000)`,
    [new Date(now.getTime() - (options.retainDays ?? 30) * 86_400_000).toISOString()],
  );
  return pass;
}

/**
 * One automation's run for one trigger: its run row, then each action in
 * order, stopping at the first failure. A transient failure (an outage, a
 * timeout) leaves the run `running` for a later pass unless `final`.
 */
async function runOne(
  platform: Platform,
  automation: AutomationRow,
  trigger: {
    eventId: string | null;
    triggerKey: string;
    payload: Record<string, unknown>;
    now: Date;
    final: boolean;
  },
): Promise<RunOutcome> {
  const [inserted] = await platform.db.query<{ id: string }>(
    `insert into public.automation_runs (org_id, automation_id, event_id, trigger_key, status, started_at)
     values ($1, $2, $3, $4, 'running', $5)
     on conflict (automation_id, trigger_key) do nothing
     returning id`,
    [
      automation.org_id,
      automation.id,
      trigger.eventId,
      trigger.triggerKey,
      trigger.now.toISOString(),
    ],
  );
  let runId = inserted?.id;
  if (!runId) {
    const [existing] = await platform.db.query<{ id: string; status: string }>(
      "select id, status from public.automation_runs where automation_id = $1 and trigger_key = $2",
      [automation.id, trigger.triggerKey],
    );
    // Finished by an earlier pass; a run still `running` was cut short and is finished now.
    if (!existing || existing.status !== "running") return "done_before";
    runId = existing.id;
  }
  const results: Array<{ tool: string; code: string }> = [];
  let error: string | null = null;
  let transient = false;
  let unknown = false;
  for (const [index, action] of automation.actions.entries()) {
    let result: ToolResult;
    try {
      result = await platform.call({
        tool: action.tool,
        args: renderArgs(action.args, trigger.payload),
        caller: { claims: { role: "service_role" }, org_id: automation.org_id },
        context: { trace_id: `automation:${automation.id}:${trigger.triggerKey}` },
        idempotencyKey: `automation:${automation.id}:${trigger.triggerKey}:${index}`,
      });
    } catch (thrown) {
      result = { ok: false, error: { code: "INTERNAL_ERROR", msg: String(thrown).slice(0, 200) } };
    }
    if (deliveryUnknown(result)) {
      // The actions after it wait for staff too: they may depend on what it did.
      results.push({ tool: action.tool, code: "UNKNOWN" });
      error = `actions.${index} (${action.tool}): no answer after the request went out; ` +
        "it may have been done: check before running it again";
      unknown = true;
      break;
    }
    results.push({ tool: action.tool, code: result.ok ? "OK" : result.error.code });
    if (!result.ok) {
      error = `actions.${index} (${action.tool}): ${result.error.code}: ${result.error.msg}`.slice(
        0,
        1000,
      );
      transient = TRANSIENT.has(result.error.code);
      break;
    }
  }
  const outcome: RunOutcome = error === null
    ? "succeeded"
    : unknown
    ? "unknown"
    : transient && !trigger.final
    ? "retry"
    : "failed";
  await platform.db.query(
    `update public.automation_runs set status = $2, results = $3::jsonb, error = $4, finished_at = $5
     where id = $1`,
    [
      runId,
      outcome === "retry" ? "running" : outcome,
      results,
      error,
      outcome === "retry" ? null : trigger.now.toISOString(),
    ],
  );
  if (error) {
    platform.log.warn("automation_run_failed", {
      automation_id: automation.id,
      trigger_key: trigger.triggerKey,
      codes: results.map((r) => r.code).join(","),
      retry: outcome === "retry",
    });
  }
  return outcome;
}
