/**
 * Staff's automation tools: `deploy_automation` (check, then save per
 * tenant), `automation_list`, `automation_pause`, `automation_resume`,
 * `automation_delete`, `automation_test` (a dry run against a sample event)
 * and `automation_runs` (what ran, and what failed). They are staff tools
 * (`auth: "staff"`: anyone else is refused before the arguments are read)
 * and run as the caller under RLS: the database keeps each tenant to its own
 * automations.
 *
 * @module
 */
import { z } from "zod";
import { type FieldIssue, payload, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { AUTOMATION_CATALOG, type AutomationCatalog } from "./catalog.ts";
import {
  type AutomationSpec,
  AutomationSpecSchema,
  checkAutomation,
  type Condition,
  conditionHolds,
  nextSlot,
  renderArgs,
  suspension,
  triggerPayload,
} from "./model.ts";

function invalid(issues: FieldIssue[]): never {
  throw new ToolFailure(
    "VALIDATION_ERROR",
    `Invalid automation: check ${issues.map((issue) => issue.path || "input").join(", ")}`,
    { fields: issues },
  );
}

const AutomationOut = z.object({
  id: z.uuid(),
  name: z.string(),
  trigger: z.record(z.string(), z.unknown()),
  condition: z.record(z.string(), z.unknown()).nullable(),
  actions: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) })),
  status: z.enum(["active", "paused", "suspended"]).describe(
    "suspended: saved active, but its event's service or an action's tool is no longer this " +
      "tenant's, so it does not run (see suspension); it runs again once they are back.",
  ),
  suspension: z.object({ path: z.string(), reason: z.string() }).nullable().describe(
    "Why it cannot run now (the rule's field that no longer fits the tenant), or null.",
  ),
  next_run_at: z.string().nullable(),
});

interface AutomationRow {
  id: string;
  name: string;
  trigger: AutomationSpec["trigger"];
  condition: Condition | null;
  actions: AutomationSpec["actions"];
  status: "active" | "paused";
  next_run_at: Date | string | null;
}

const iso = (value: Date | string | null) => value === null ? null : new Date(value).toISOString();

/** The rule as staff see it: its stored status, and whether it can run for the tenant now. */
function out(
  row: AutomationRow,
  orgId: string,
  catalog: AutomationCatalog,
): z.input<typeof AutomationOut> {
  const suspended = suspension(row, orgId, catalog);
  return {
    id: row.id,
    name: row.name,
    trigger: row.trigger,
    condition: row.condition,
    actions: row.actions,
    status: suspended && row.status === "active" ? "suspended" : row.status,
    suspension: suspended,
    next_run_at: iso(row.next_run_at),
  };
}

const COLUMNS = "id, name, trigger, condition, actions, status, next_run_at";

/** The `deploy_automation` tool. */
export const deployAutomation = defineTool({
  name: "deploy_automation",
  title: "Deploy an automation",
  description: "Staff: save an automation for this tenant: when its trigger fires (an event such " +
    "as message_received, or a schedule) and its condition holds, call its actions' tools, with " +
    "{{event.field}} templates in string arguments. Checked first: an unknown event, a condition " +
    "path or template the event does not have, a tool the tenant may not use, or arguments the " +
    "tool refuses are VALIDATION_ERROR naming the field. Deploying a name again replaces it.",
  category: "automations",
  input: AutomationSpecSchema,
  output: AutomationOut,
  examples: [{
    description: "Tell staff on Slack about urgent messages",
    input: {
      name: "Urgent messages to Slack",
      trigger: { event: "message_received" },
      condition: { path: "text", op: "contains", value: "urgent", case_insensitive: true },
      actions: [{
        tool: "slack_notify",
        args: {
          text: "Urgent from {{event.sender_name}} ({{event.sender_phone}}): {{event.text}}",
        },
      }],
    },
  }],
  sideEffects: "writes.automation",
  auth: "staff",
  // Checked here against the live registry (the tenant's events, the tools its policy allows,
  // each action's arguments), then saved by private.automation_save in the call's own
  // transaction, as the caller: a failure after the save rolls it back, and a replay is answered
  // from the idempotency ledger. The function takes a rule only inside this tool's call (its key
  // claimed in the same transaction), so no write through the Data API skips these checks.
  async execute(spec, ctx) {
    const orgId = ctx.org_id!;
    const catalog = ctx.services.get(AUTOMATION_CATALOG);
    const issues = checkAutomation(spec, orgId, catalog);
    if (issues.length) invalid(issues);
    const schedule = spec.trigger.schedule;
    const next = schedule
      ? nextSlot(schedule, ctx.services.now(), { timeZone: catalog.timeZone(orgId) }).toISOString()
      : null;
    const rule = {
      name: spec.name,
      trigger: spec.trigger,
      condition: spec.condition ?? null,
      actions: spec.actions,
    };
    const [saved] = await ctx.db.query<{ id: string }>(
      "select private.automation_save($1, $2::jsonb, $3) as id",
      [orgId, rule, next],
    );
    // Read back as the caller: what the staff member's org holds under that id.
    const [row] = await ctx.db.query<AutomationRow>(
      `select ${COLUMNS} from public.automations where org_id = $1 and id = $2`,
      [orgId, saved.id],
    );
    return out(row, orgId, catalog);
  },
});

/** The `automation_list` tool. */
export const automationList = defineTool({
  name: "automation_list",
  title: "List automations",
  description: "Staff: this tenant's automations, with their status and last run; one whose " +
    "event's service or action's tool the tenant no longer uses is suspended, with the reason.",
  category: "automations",
  input: z.strictObject({}),
  output: z.object({
    automations: z.array(AutomationOut.extend({
      last_run: z.object({ status: z.string(), started_at: z.string() }).nullable(),
    })),
  }),
  examples: [{ input: {} }],
  sideEffects: "none",
  auth: "staff",
  async execute(_args, ctx) {
    const orgId = ctx.org_id!;
    const rows = await ctx.db.query<
      AutomationRow & { last_status: string | null; last_at: Date | null }
    >(
      `select a.id, a.name, a.trigger, a.condition, a.actions, a.status, a.next_run_at,
              r.status as last_status, r.started_at as last_at
       from public.automations a
       left join lateral (
         select status, started_at from public.automation_runs
         where org_id = a.org_id and automation_id = a.id order by started_at desc limit 1
       ) r on true
       where a.org_id = $1 order by a.name`,
      [orgId],
    );
    const catalog = ctx.services.get(AUTOMATION_CATALOG);
    return {
      automations: rows.map((row) => ({
        ...out(row, orgId, catalog),
        last_run: row.last_status && row.last_at
          ? { status: row.last_status, started_at: iso(row.last_at)! }
          : null,
      })),
    };
  },
});

const ById = z.strictObject({ automation_id: z.uuid().describe("The automation's id") });

async function setStatus(
  ctx: Parameters<typeof deployAutomation.execute>[1],
  id: string,
  status: "active" | "paused",
) {
  const orgId = ctx.org_id!;
  const [current] = await ctx.db.query<AutomationRow>(
    `select ${COLUMNS} from public.automations where org_id = $1 and id = $2 for update`,
    [orgId, id],
  );
  if (!current) throw new ToolFailure("NOT_FOUND", "No such automation");
  // A resumed schedule starts from now: the slots it missed while paused are not run.
  const schedule = current.trigger.schedule;
  const catalog = ctx.services.get(AUTOMATION_CATALOG);
  const next = status === "active" && schedule
    ? nextSlot(schedule, ctx.services.now(), { timeZone: catalog.timeZone(orgId) }).toISOString()
    : iso(current.next_run_at);
  const [row] = await ctx.db.query<AutomationRow>(
    `update public.automations set status = $3, next_run_at = $4, updated_at = now()
     where org_id = $1 and id = $2 returning ${COLUMNS}`,
    [orgId, id, status, next],
  );
  return out(row, orgId, catalog);
}

/** The `automation_pause` tool. */
export const automationPause = defineTool({
  name: "automation_pause",
  title: "Pause an automation",
  description:
    "Staff: stop an automation from running until it is resumed; events meanwhile are not run later.",
  category: "automations",
  input: ById,
  output: AutomationOut,
  examples: [{ input: { automation_id: "00000000-0000-4000-8000-0000000000a1" } }],
  sideEffects: "writes.automation",
  auth: "staff",
  execute: (args, ctx) => setStatus(ctx, args.automation_id, "paused"),
});

/** The `automation_resume` tool. */
export const automationResume = defineTool({
  name: "automation_resume",
  title: "Resume an automation",
  description: "Staff: run a paused automation again, from the next event or schedule slot on.",
  category: "automations",
  input: ById,
  output: AutomationOut,
  examples: [{ input: { automation_id: "00000000-0000-4000-8000-0000000000a1" } }],
  sideEffects: "writes.automation",
  auth: "staff",
  execute: (args, ctx) => setStatus(ctx, args.automation_id, "active"),
});

/** The `automation_delete` tool. */
export const automationDelete = defineTool({
  name: "automation_delete",
  title: "Delete an automation",
  description: "Staff: delete an automation and its run history.",
  category: "automations",
  input: ById,
  output: z.object({ deleted: z.boolean() }),
  examples: [{ input: { automation_id: "00000000-0000-4000-8000-0000000000a1" } }],
  sideEffects: "writes.automation",
  auth: "staff",
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const rows = await ctx.db.query(
      "delete from public.automations where org_id = $1 and id = $2 returning id",
      [orgId, args.automation_id],
    );
    if (!rows.length) throw new ToolFailure("NOT_FOUND", "No such automation");
    return { deleted: true };
  },
});

/** The `automation_test` tool. */
export const automationTest = defineTool({
  name: "automation_test",
  title: "Try an automation on a sample event",
  description: "Staff: a dry run. Checks the sample event against the trigger's payload, says " +
    "whether the condition holds and shows each action's arguments as they would be sent. " +
    "Nothing is called.",
  category: "automations",
  input: z.strictObject({
    automation_id: z.uuid().describe("The automation to try"),
    event: payload({ maxDepth: 4, maxSize: 8192 }).describe(
      "A sample payload of the trigger's event",
    ),
  }),
  output: z.object({
    matched: z.boolean(),
    actions: z.array(z.object({
      tool: z.string(),
      args: z.record(z.string(), z.unknown()),
      valid: z.boolean(),
      issues: z.array(z.object({ path: z.string(), message: z.string() })),
    })),
  }),
  examples: [{
    input: {
      automation_id: "00000000-0000-4000-8000-0000000000a1",
      event: { text: "URGENT my order is wrong", sender_name: "Aline" },
    },
  }],
  sideEffects: "none",
  auth: "staff",
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const [row] = await ctx.db.query<AutomationRow>(
      `select ${COLUMNS} from public.automations where org_id = $1 and id = $2`,
      [orgId, args.automation_id],
    );
    if (!row) throw new ToolFailure("NOT_FOUND", "No such automation");
    const catalog = ctx.services.get(AUTOMATION_CATALOG);
    const schema = triggerPayload(row, catalog.events(orgId));
    if (!schema) throw new ToolFailure("NOT_FOUND", "The automation's event is no longer offered");
    const parsed = schema.safeParse(args.event);
    if (!parsed.success) {
      invalid(parsed.error.issues.map((issue) => ({
        path: ["event", ...issue.path.map(String)].join("."),
        message: issue.message,
      })));
    }
    const payload: Record<string, unknown> = parsed.data;
    const matched = conditionHolds(row.condition, payload);
    return {
      matched,
      actions: row.actions.map((action) => {
        const rendered = renderArgs(action.args, payload);
        const tool = catalog.tool(orgId, action.tool);
        const check = tool?.input.safeParse(rendered);
        const issues = !tool
          ? [{ path: "tool", message: `"${action.tool}" is not a tool this tenant may use` }]
          : check && !check.success
          ? check.error.issues.map((issue) => ({
            path: issue.path.join("."),
            message: issue.message,
          }))
          : [];
        return { tool: action.tool, args: rendered, valid: issues.length === 0, issues };
      }),
    };
  },
});

/** The `automation_runs` tool. */
export const automationRuns = defineTool({
  name: "automation_runs",
  title: "List automation runs",
  description: "Staff: recent runs of this tenant's automations (newest first): the event, the " +
    "status, each action's result code and the error of a failed one.",
  category: "automations",
  input: z.strictObject({
    automation_id: z.uuid().optional().describe("Only this automation's runs"),
    status: z.enum(["running", "succeeded", "failed", "unknown", "skipped"]).optional()
      .describe("unknown: an action got no answer from an outside service and may have been done"),
    limit: z.int().min(1).max(100).default(20),
  }),
  output: z.object({
    runs: z.array(z.object({
      id: z.uuid(),
      automation_id: z.uuid(),
      event_id: z.uuid().nullable(),
      trigger_key: z.string(),
      status: z.string(),
      results: z.array(z.object({ tool: z.string(), code: z.string() })),
      error: z.string().nullable(),
      started_at: z.string(),
      finished_at: z.string().nullable(),
    })),
  }),
  examples: [{ input: { status: "failed" } }],
  sideEffects: "none",
  auth: "staff",
  async execute(args, ctx) {
    const orgId = ctx.org_id!;
    const rows = await ctx.db.query<{
      id: string;
      automation_id: string;
      event_id: string | null;
      trigger_key: string;
      status: string;
      results: Array<{ tool: string; code: string }>;
      error: string | null;
      started_at: Date;
      finished_at: Date | null;
    }>(
      `select id, automation_id, event_id, trigger_key, status, results, error, started_at, finished_at
       from public.automation_runs
       where org_id = $1 and ($2::uuid is null or automation_id = $2)
         and ($3::text is null or status = $3)
       order by started_at desc, id limit $4`,
      [orgId, args.automation_id ?? null, args.status ?? null, args.limit],
    );
    return {
      runs: rows.map((row) => ({
        ...row,
        started_at: iso(row.started_at)!,
        finished_at: iso(row.finished_at),
      })),
    };
  },
});
