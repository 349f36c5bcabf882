/**
 * What an automation is and how it is checked, matched and rendered, with
 * no database: the spec `deploy_automation` takes (a trigger, a condition,
 * actions), its checks against the tenant's events and tools, the condition
 * evaluated against an event's payload, `{{event.field}}` templates, and a
 * schedule's next slot.
 *
 * @module
 */
import { z } from "zod";
import { type FieldIssue, payload, text } from "@shared/contract/mod.ts";
import type { PackEvent } from "@shared/registry/pack.ts";

/** The condition operators. */
export const CONDITION_OPS = [
  "equals",
  "not_equals",
  "contains",
  "starts_with",
  "gt",
  "lt",
  "in",
  "exists",
] as const;

/** A trigger: an event by name, or a schedule. */
const TriggerSchema = z.strictObject({
  event: text({ min: 1, max: 64 }).optional().describe(
    "The event that starts it, e.g. message_received",
  ),
  schedule: z.strictObject({
    every_minutes: z.int().min(1).max(10_080).optional().describe("Every N minutes (1 to 10,080)"),
    cron: text({ min: 9, max: 100 }).optional().describe(
      "A five-field cron expression in the tenant's time zone (Africa/Kigali unless it has " +
        "another): minute hour day-of-month month day-of-week; when both day fields are " +
        "restricted, either matching runs the day",
    ),
  }).refine((s) => (s.every_minutes === undefined) !== (s.cron === undefined), {
    message: "Give exactly one of every_minutes or cron",
  }).optional(),
}).refine((t) => (t.event === undefined) !== (t.schedule === undefined), {
  message: "Give exactly one of event or schedule",
});

/** A condition on the event's payload. */
export const ConditionSchema = z.strictObject({
  path: text({ min: 1, max: 200 }).describe("A payload field, e.g. text or event.text"),
  op: z.enum(CONDITION_OPS),
  value: z.union([
    text({ max: 500, trim: false, multiline: true }),
    z.number(),
    z.boolean(),
    z.array(z.union([text({ max: 500, trim: false, multiline: true }), z.number()])).max(100),
  ]).optional().describe("What to compare with (a list for `in`; none for `exists`)"),
  case_insensitive: z.boolean().default(false),
});

/** One action: a tool call whose string arguments may hold `{{event.field}}` templates. */
const ActionSchema = z.strictObject({
  tool: text({ min: 1, max: 64 }),
  args: payload({ maxDepth: 6, maxSize: 8192 }).default({}).describe(
    "The tool's arguments; string values may hold {{event.<field>}} templates",
  ),
});

/** What `deploy_automation` takes. */
export const AutomationSpecSchema = z.strictObject({
  name: text({ min: 1, max: 100 }).describe(
    "Unique within the tenant; deploying it again replaces it",
  ),
  trigger: TriggerSchema.describe("{event: name}, or {schedule: {every_minutes: n} | {cron}}"),
  condition: ConditionSchema.optional().describe("Runs only when it holds; none: on every event"),
  actions: z.array(ActionSchema).min(1).max(10),
});

/** A checked automation spec. */
export type AutomationSpec = z.output<typeof AutomationSpecSchema>;
/** A condition. */
export type Condition = z.output<typeof ConditionSchema>;
/** An action. */
export type Action = z.output<typeof ActionSchema>;

/** The payload of a scheduled run. */
export const SCHEDULE_PAYLOAD = z.object({
  scheduled_at: z.string().describe("The slot this run is for, RFC 3339 UTC"),
});

/** What the checks need of the tenant: its events and the tools it may call. */
export interface AutomationCatalog {
  /** The events `orgId`'s automations may be triggered by (those of the packs it uses). */
  events(orgId: string): readonly PackEvent[];
  /** The IANA time zone `orgId`'s cron schedules are read in. */
  timeZone(orgId: string): string;
  /**
   * The tool's input schema as `orgId` may call it; null when there is no such tool, it is
   * internal, or the tenant's policy does not allow it.
   */
  tool(orgId: string, name: string): { input: z.ZodType } | null;
}

/** Why a saved automation does not run for its tenant now: the rule's field that no longer fits. */
export interface Suspension {
  /** The field, e.g. `trigger.event` or `actions.0.tool`. */
  path: string;
  /** Why, for staff. */
  reason: string;
}

/**
 * Whether a saved automation can run for its tenant now, judged against the
 * live catalog: its event must be one of the packs the tenant uses and each
 * action's tool one it may call. A rule saved while they were (a pack the
 * tenant has since stopped using, a tool its policy no longer allows) is
 * suspended: it does not fire, staff see the reason, and it fires again by
 * itself once the pack or tool is back. Null when it can run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { suspension } from "./model.ts";
 *
 * const catalog = { events: () => [], timeZone: () => "UTC", tool: () => null };
 * const rule = { trigger: { event: "ticket_created" }, actions: [] };
 * assert.equal(suspension(rule, "org", catalog)?.path, "trigger.event");
 * ```
 */
export function suspension(
  rule: Pick<AutomationSpec, "trigger" | "actions">,
  orgId: string,
  catalog: AutomationCatalog,
): Suspension | null {
  const event = rule.trigger.event;
  if (event !== undefined && !catalog.events(orgId).some((known) => known.name === event)) {
    return {
      path: "trigger.event",
      reason: `"${event}" belongs to a service this tenant no longer uses: the automation runs ` +
        "again once the service is back",
    };
  }
  for (const [index, action] of rule.actions.entries()) {
    if (!catalog.tool(orgId, action.tool)) {
      return {
        path: `actions.${index}.tool`,
        reason: `"${action.tool}" is no longer a tool this tenant may use: the automation runs ` +
          "again once it is",
      };
    }
  }
  return null;
}

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** A payload field's name from a path or template (`event.text` and `text` are the same). */
export function fieldOf(path: string): string {
  return path.startsWith("event.") ? path.slice("event.".length) : path;
}

/** The payload's shape: field → schema. */
function shapeOf(payload: z.ZodType): Record<string, z.ZodType> {
  return (payload as z.ZodObject).shape as Record<string, z.ZodType>;
}

/** The payload schema an automation's trigger reads. */
export function triggerPayload(
  spec: Pick<AutomationSpec, "trigger">,
  events: readonly PackEvent[],
) {
  if (spec.trigger.schedule) return SCHEDULE_PAYLOAD;
  return events.find((event) => event.name === spec.trigger.event)?.payload ?? null;
}

/**
 * Every problem of a spec for one tenant, each with the field path naming it:
 * an unknown event, a condition path or a template the payload does not have, a
 * tool the tenant may not use, arguments the tool refuses once templates are
 * replaced by values of the payload field's type, a bad cron.
 */
export function checkAutomation(
  spec: AutomationSpec,
  orgId: string,
  catalog: AutomationCatalog,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const events = catalog.events(orgId);
  if (spec.trigger.event !== undefined && !events.some((e) => e.name === spec.trigger.event)) {
    // One answer for an event no pack declares and another pack's: neither is this tenant's.
    issues.push({
      path: "trigger.event",
      message: `"${spec.trigger.event}" is not an event of this tenant's services: ${
        events.length ? `one of ${events.map((e) => e.name).join(", ")}` : "it has none"
      }`,
    });
  }
  if (spec.trigger.schedule?.cron !== undefined) {
    const problem = cronProblem(spec.trigger.schedule.cron);
    if (problem) issues.push({ path: "trigger.schedule.cron", message: problem });
  }
  const payload = triggerPayload(spec, events);
  if (!payload) return issues;
  const shape = shapeOf(payload);
  if (spec.condition) {
    const field = fieldOf(spec.condition.path);
    if (!(field in shape)) {
      issues.push({
        path: "condition.path",
        message: `The event has no field "${spec.condition.path}": ${
          Object.keys(shape).join(", ")
        }`,
      });
    }
    const { op, value } = spec.condition;
    if (op === "in" && !Array.isArray(value)) {
      issues.push({ path: "condition.value", message: "`in` needs a list of values" });
    } else if (op !== "exists" && op !== "in" && (value === undefined || Array.isArray(value))) {
      issues.push({
        path: "condition.value",
        message: `\`${op}\` needs a string, number or boolean`,
      });
    } else if ((op === "gt" || op === "lt") && typeof value !== "number") {
      issues.push({ path: "condition.value", message: `\`${op}\` needs a number` });
    }
  }
  for (const [index, action] of spec.actions.entries()) {
    const tool = catalog.tool(orgId, action.tool);
    if (!tool) {
      issues.push({
        path: `actions.${index}.tool`,
        message: `"${action.tool}" is not a tool this tenant may use in an automation`,
      });
      continue;
    }
    let templatesOk = true;
    walkStrings(action.args, [], (text, path) => {
      for (const match of text.matchAll(TEMPLATE)) {
        const field = fieldOf(match[1]);
        if (!match[1].startsWith("event.") || !(field in shape)) {
          templatesOk = false;
          issues.push({
            path: ["actions", index, "args", ...path].join("."),
            message:
              `Template {{${match[1]}}} names no field of the event: use {{event.<field>}} with ` +
              Object.keys(shape).join(", "),
          });
        }
      }
    });
    if (!templatesOk) continue;
    const sample = Object.fromEntries(
      Object.entries(shape).map(([key, schema]) => [key, placeholder(schema)]),
    );
    const parsed = tool.input.safeParse(renderArgs(action.args, sample));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        issues.push({
          path: ["actions", index, "args", ...issue.path.map(String)].join("."),
          message: issue.message,
        });
      }
    }
  }
  return issues;
}

function walkStrings(
  value: unknown,
  path: string[],
  visit: (text: string, path: string[]) => void,
): void {
  if (typeof value === "string") visit(value, path);
  else if (Array.isArray(value)) {
    value.forEach((item, i) => walkStrings(item, [...path, String(i)], visit));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) walkStrings(item, [...path, key], visit);
  }
}

/** A value of the field's type, standing in for the event's while checking arguments. */
export function placeholder(schema: z.ZodType): unknown {
  const def = (schema as z.ZodType & { def: Record<string, unknown> }).def;
  switch (def.type) {
    case "nullable":
    case "optional":
    case "default":
      return placeholder(def.innerType as z.ZodType);
    case "number":
      return 1;
    case "int":
      return 1;
    case "boolean":
      return true;
    case "enum":
      return Object.values(def.entries as Record<string, string>)[0];
    case "string": {
      // A string format (z.uuid(), z.email()…) keeps its name on the schema.
      const format = "format" in schema ? schema.format : null;
      if (format === "uuid") return "00000000-0000-4000-8000-000000000000";
      return "sample";
    }
    default:
      return "sample";
  }
}

/**
 * The args with templates filled from the payload: a string that is exactly one
 * template takes the field's value as it is (a number stays a number); within other
 * text a field is written as text (null as nothing).
 */
export function renderArgs(
  args: Record<string, unknown>,
  payload: Record<string, unknown>,
): Record<string, unknown> {
  return render(args, payload) as Record<string, unknown>;
}

function render(value: unknown, payload: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const whole = /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(value);
    if (whole) return payload[fieldOf(whole[1])] ?? null;
    return value.replace(TEMPLATE, (_, path: string) => {
      const field = payload[fieldOf(path)];
      return field === null || field === undefined ? "" : String(field);
    });
  }
  if (Array.isArray(value)) return value.map((item) => render(item, payload));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, render(item, payload)]),
    );
  }
  return value;
}

/** Whether the condition holds for the payload (no condition: always). */
export function conditionHolds(
  condition: Condition | null | undefined,
  payload: Record<string, unknown>,
): boolean {
  if (!condition) return true;
  const actual = payload[fieldOf(condition.path)];
  const fold = (v: unknown) =>
    condition.case_insensitive && typeof v === "string" ? v.toLowerCase() : v;
  const a = fold(actual);
  const expected = fold(condition.value);
  switch (condition.op) {
    case "exists":
      return actual !== null && actual !== undefined && actual !== "";
    case "equals":
      return a === expected;
    case "not_equals":
      return a !== expected;
    case "contains":
      return typeof a === "string" && typeof expected === "string" && a.includes(expected);
    case "starts_with":
      return typeof a === "string" && typeof expected === "string" && a.startsWith(expected);
    case "gt":
      return typeof a === "number" && typeof expected === "number" && a > expected;
    case "lt":
      return typeof a === "number" && typeof expected === "number" && a < expected;
    case "in":
      return Array.isArray(condition.value) && condition.value.map(fold).includes(a);
  }
}

// --- Schedules ---

const CRON_FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 6 },
] as const;

/**
 * A parsed cron expression: the allowed values of each field, and whether
 * the day-of-month and day-of-week fields are restricted (do not start with
 * `*`), which decides how the two combine.
 */
interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

function parseCron(expression: string): Cron | string {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) {
    return `A cron expression has 5 fields: current value has ${parts.length}`;
  }
  const sets: Set<number>[] = [];
  for (const [i, part] of parts.entries()) {
    const { name, min, max } = CRON_FIELDS[i];
    const set = new Set<number>();
    for (const item of part.split(",")) {
      const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
      if (!match) return `Cannot read the ${name} field "${part}"`;
      const from = match[1] === "*" ? min : Number(match[2]);
      const to = match[1] === "*"
        ? max
        : match[3] !== undefined
        ? Number(match[3])
        : match[4]
        ? max
        : from;
      const step = match[4] !== undefined ? Number(match[4]) : 1;
      // Day of week 7 is Sunday, as in most crons.
      const top = i === 4 ? 7 : max;
      if (from < min || to > top || from > to || step < 1) {
        return `The ${name} field "${part}" must stay within ${min}-${max}`;
      }
      for (let v = from; v <= to; v += step) set.add(i === 4 && v === 7 ? 0 : v);
    }
    sets.push(set);
  }
  const [minutes, hours, days, months, weekdays] = sets;
  return {
    minutes,
    hours,
    days,
    months,
    weekdays,
    // As Vixie cron: a field is unrestricted when it starts with "*" ("*/2" included).
    daysRestricted: !parts[2].startsWith("*"),
    weekdaysRestricted: !parts[4].startsWith("*"),
  };
}

/**
 * Whether a day runs, as standard (Vixie) cron decides: when both the
 * day-of-month and the day-of-week fields are restricted, either matching is
 * enough ("0 9 1,15 * 1": the 1st, the 15th and every Monday); otherwise both
 * must (one of them then allows every day).
 */
function dayRuns(cron: Cron, dayOfMonth: number, dayOfWeek: number): boolean {
  const byDate = cron.days.has(dayOfMonth);
  const byWeekday = cron.weekdays.has(dayOfWeek);
  return cron.daysRestricted && cron.weekdaysRestricted ? byDate || byWeekday : byDate && byWeekday;
}

/** What is wrong with a cron expression, or null. */
export function cronProblem(expression: string): string | null {
  const parsed = parseCron(expression);
  return typeof parsed === "string" ? parsed : null;
}

/** The time zone schedules are read in when the tenant has none: the platform's home. */
export const DEFAULT_SCHEDULE_TIME_ZONE = "Africa/Kigali";

const WALL_CLOCKS = new Map<string, Intl.DateTimeFormat>();

// The zone's offset from UTC at an instant, ms (positive east of Greenwich).
function offsetAt(timeZone: string, instant: number): number {
  let format = WALL_CLOCKS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    WALL_CLOCKS.set(timeZone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(new Date(instant))) {
    if (type !== "literal") part[type] = Number(value);
  }
  const wall = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Options for {@link nextSlot}. */
export interface NextSlotOptions {
  /**
   * The IANA time zone a cron expression's fields are read in (the
   * tenant's). `every_minutes` counts from the epoch, whatever the zone.
   * @default {@link DEFAULT_SCHEDULE_TIME_ZONE}
   */
  timeZone?: string;
}

/**
 * The first slot strictly after `after` (whole minutes) of a schedule. A
 * cron expression reads the wall clock of `options.timeZone`; a wall time
 * the zone skips (a daylight-saving gap) has no slot, and one it repeats
 * runs at its first occurrence.
 *
 * @throws {RangeError} when the cron expression is invalid or has no slot within 4 years.
 */
export function nextSlot(
  schedule: { every_minutes?: number; cron?: string },
  after: Date,
  options: NextSlotOptions = {},
): Date {
  const minute = 60_000;
  const start = Math.floor(after.getTime() / minute) * minute + minute;
  if (schedule.every_minutes !== undefined) {
    const every = schedule.every_minutes * minute;
    return new Date(Math.ceil(start / every) * every);
  }
  const cron = parseCron(schedule.cron ?? "");
  if (typeof cron === "string") throw new RangeError(`Cannot schedule as ${cron}`);
  const timeZone = options.timeZone ?? DEFAULT_SCHEDULE_TIME_ZONE;
  // The search walks the zone's wall clock (a Date read with its UTC getters), then turns the
  // wall time it finds into an instant.
  const date = new Date(start + offsetAt(timeZone, start));
  const limit = date.getTime() + 4 * 366 * 24 * 60 * minute;
  while (date.getTime() <= limit) {
    if (!cron.months.has(date.getUTCMonth() + 1)) {
      date.setUTCMonth(date.getUTCMonth() + 1, 1);
      date.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!dayRuns(cron, date.getUTCDate(), date.getUTCDay())) {
      date.setUTCDate(date.getUTCDate() + 1);
      date.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!cron.hours.has(date.getUTCHours())) {
      date.setUTCHours(date.getUTCHours() + 1, 0, 0, 0);
      continue;
    }
    if (!cron.minutes.has(date.getUTCMinutes())) {
      date.setUTCMinutes(date.getUTCMinutes() + 1, 0, 0);
      continue;
    }
    const wall = date.getTime();
    const instant = wall - offsetAt(timeZone, wall - offsetAt(timeZone, wall));
    // The instants that read as this wall time (none in a gap, two when the clock goes back an
    // hour): the first not before the start.
    const hour = 60 * minute;
    const first = [instant - hour, instant, instant + hour]
      .find((at) => at >= start && at + offsetAt(timeZone, at) === wall);
    if (first !== undefined) return new Date(first);
    date.setUTCMinutes(date.getUTCMinutes() + 1, 0, 0);
  }
  throw new RangeError(`Cannot schedule as "${schedule.cron}" has no slot within 4 years`);
}
