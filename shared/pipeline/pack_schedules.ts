/**
 * Runs the packs' schedules (`Pack.schedules`): each tool, for each tenant
 * whose entry in `config/agent_configs.yaml` runs one of the pack's agents
 * (or every tenant, as the schedule says),
 * as the service of that tenant's org, at most once per period. Generic: it
 * reads the packs the platform holds and names none.
 *
 * @module
 */
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { Pack, PackSchedule, ScheduleToolCaller } from "@shared/registry/pack.ts";
import type { Platform } from "./platform.ts";

/** The tenants (org slugs) that run at least one of the pack's agents. */
export function tenantsRunning(platform: Pick<Platform, "agents">, pack: Pack): string[] {
  const ids = new Set(pack.agents.map((agent) => agent.id));
  return platform.agents.tenants().filter((tenant) =>
    platform.agents.list(tenant).some((agent) => ids.has(agent.id))
  );
}

/** One schedule's run for one tenant. */
export interface ScheduleRun {
  /** The pack. */
  pack: string;
  /** The schedule's id. */
  schedule: string;
  /** The tenant (org slug). */
  tenant: string;
  /** What the tool answered (a replay within the same period answers the first run's result). */
  result: ToolResult;
}

/** Options for {@link runPackSchedules}. */
export interface RunSchedulesOptions {
  /** The time of this run: it picks the period each schedule is in. */
  now: Date;
  /** Only this tenant (org slug), as a number's worker runs them. @default every tenant */
  tenant?: string;
  /** Only this schedule, as `<pack id>.<schedule id>` (an operator's run, a test). @default every one */
  schedule?: string;
}

/**
 * Runs every pack schedule that is due, for every tenant that runs the
 * pack's agents. Each schedule runs at most once per period of
 * `everyMinutes` per tenant however often this is called: the call's
 * idempotency key names the period, so a second sweep in the same period
 * replays the first answer instead of running the tool again.
 */
export async function runPackSchedules(
  platform: Platform,
  options: RunSchedulesOptions,
): Promise<ScheduleRun[]> {
  const runs: ScheduleRun[] = [];
  for (const pack of platform.packs) {
    if (!pack.schedules?.length) continue;
    const running = tenantsRunning(platform, pack);
    for (const schedule of pack.schedules) {
      if (options.schedule !== undefined && options.schedule !== `${pack.id}.${schedule.id}`) {
        continue;
      }
      const tenants = schedule.tenants === "every"
        ? platform.tenants.list().map((tenant) => tenant.slug)
        : running;
      for (const tenant of tenants) {
        if (options.tenant !== undefined && tenant !== options.tenant) continue;
        const org = platform.tenants.bySlug(tenant);
        if (!org) continue;
        const period = periodOf(schedule, options.now);
        const call = (tool: string, args: unknown, key: string) =>
          platform.call({
            tool,
            args,
            caller: { claims: { role: "service_role" }, org_id: org.id },
            context: { trace_id: `schedule:${pack.id}:${schedule.id}` },
            idempotencyKey: key,
          });
        const prefix = `schedule:${pack.id}:${schedule.id}`;
        const result = schedule.run
          ? await runOnce(
            schedule.run,
            (tool, args, step, callOptions) =>
              call(tool, args, `${prefix}:${callOptions?.once ? "once" : period}:${step}`),
          )
          : await call(schedule.tool!, {}, `${prefix}:${period}`);
        if (!result.ok) {
          platform.log.error("pack_schedule_failed", {
            pack: pack.id,
            schedule: schedule.id,
            tenant,
            code: result.error.code,
          });
        }
        runs.push({ pack: pack.id, schedule: schedule.id, tenant, result });
      }
    }
  }
  return runs;
}

// A run's outcome as one result: done, or the failure that stopped it (logged by the caller).
async function runOnce(
  run: NonNullable<PackSchedule["run"]>,
  callTool: ScheduleToolCaller,
): Promise<ToolResult> {
  try {
    await run(callTool);
    return { ok: true, data: {} };
  } catch (error) {
    return fail("INTERNAL_ERROR", error instanceof Error ? error.message : String(error));
  }
}

// The start of the period `now` is in, as an ISO string: periods are aligned to the epoch.
function periodOf(schedule: PackSchedule, now: Date): string {
  const period = schedule.everyMinutes * 60_000;
  return new Date(Math.floor(now.getTime() / period) * period).toISOString();
}
