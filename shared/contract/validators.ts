/**
 * The shared vocabulary of tool inputs (the tool-surface design's `validators.ts`): zod
 * schema builders for the values every tool takes — bounded text without
 * control characters, RFC 3339 date-times in a sane range, ISO 8601
 * durations, E.164 phone numbers, whole-franc money, ids, integers Postgres
 * can hold, coordinates and bounded JSON payloads.
 *
 * Each builder refuses what the database or a downstream channel cannot take
 * (NUL bytes, lone UTF-16 surrogates, years beyond 9999, numbers beyond int4)
 * so the pipeline answers `VALIDATION_ERROR` with the field's path instead of
 * a database error reaching `INTERNAL_ERROR`. Messages are human and short;
 * zod keeps the path.
 *
 * @example A tool input built from the vocabulary
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { dateTime, id, moneyRwf, text } from "./validators.ts";
 *
 * const input = z.object({
 *   venue_id: id(),
 *   note: text({ max: 200 }).optional(),
 *   budget: moneyRwf({ max: 1_000_000 }),
 *   at: dateTime(),
 * });
 * const bad = input.safeParse({
 *   venue_id: "c0000000-0000-4000-8000-000000000001",
 *   note: "a\u0000b",
 *   budget: 1500,
 *   at: "+275760-09-13T00:00:00Z",
 * });
 * assert.equal(bad.success, false);
 * assert.deepEqual(bad.error?.issues.map((issue) => issue.path.join(".")), ["note", "at"]);
 * ```
 *
 * @module
 */
import { z } from "zod";
import { toE164, toWaId } from "./wa_id.ts";

/** Postgres `int4` bounds. */
export const INT4 = { min: -2_147_483_648, max: 2_147_483_647 } as const;

// C0 controls, DEL and C1 controls; multiline text may keep tab, line feed and carriage return.
// Matching control characters is the point of these two expressions.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// deno-lint-ignore no-control-regex
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Options for {@link text}. */
export interface TextOptions {
  /** Most characters (UTF-16 code units) after trimming. */
  max: number;
  /** Fewest characters after trimming. @default 0 */
  min?: number;
  /** Whether tab, line feed and carriage return are allowed. @default false */
  multiline?: boolean;
  /** Whether surrounding white space is removed before the checks. @default true */
  trim?: boolean;
}

/**
 * A bounded string without control characters or lone surrogates: what a
 * text column, a jsonb value and a WhatsApp message can all hold.
 *
 * @param options Length bounds, and whether line breaks are allowed.
 * @returns A zod string schema (chain `.optional()`, `.describe()` as usual).
 * @throws {RangeError} When the bounds are not `0 <= min <= max`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { text } from "./validators.ts";
 *
 * assert.equal(text({ max: 10 }).parse("  hello "), "hello");
 * assert.equal(text({ max: 10 }).safeParse("nul\u0000").success, false);
 * assert.equal(text({ max: 10 }).safeParse("\ud800").success, false);
 * assert.equal(text({ max: 20, multiline: true }).parse("two\nlines"), "two\nlines");
 * ```
 */
export function text(options: TextOptions): z.ZodString {
  const { max, min = 0, multiline = false, trim = true } = options;
  if (!(Number.isSafeInteger(min) && Number.isSafeInteger(max) && min >= 0 && min <= max)) {
    throw new RangeError(
      `Cannot build a text schema as 0 <= min <= max must hold: current values are ${min}, ${max}`,
    );
  }
  const control = multiline ? CONTROL_EXCEPT_LINES : CONTROL;
  let schema = z.string();
  if (trim) schema = schema.trim();
  if (min > 0) {
    schema = schema.min(
      min,
      min === 1 ? "must not be empty" : `must be at least ${min} characters`,
    );
  }
  return schema
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !control.test(value), {
      message: multiline
        ? "must not contain control characters other than line breaks and tabs"
        : "must not contain control characters or line breaks",
      abort: true,
    })
    .refine(
      (value) => value.isWellFormed(),
      "must not contain broken characters (lone surrogates)",
    );
}

/** Options for {@link dateTime}. */
export interface DateTimeOptions {
  /** Earliest instant accepted. @default 2000-01-01T00:00:00Z */
  min?: Date;
  /** Latest instant accepted. @default 2100-01-01T00:00:00Z */
  max?: Date;
}

const DEFAULT_MIN_DATE = new Date("2000-01-01T00:00:00Z");
const DEFAULT_MAX_DATE = new Date("2100-01-01T00:00:00Z");

/**
 * An RFC 3339 date-time with an explicit offset (`Z` or `±hh:mm`), within a
 * range Postgres and people both mean (2000 to 2100 unless told otherwise).
 * Expanded years (`+275760-09-13`), dates without a time and local times
 * without an offset are refused.
 *
 * @param options The accepted range.
 * @returns A zod string schema; the value is kept as written.
 * @throws {RangeError} When `min` is after `max` or either is not a valid date.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dateTime } from "./validators.ts";
 *
 * assert.equal(dateTime().safeParse("2025-08-24T10:00:00+02:00").success, true);
 * assert.equal(dateTime().safeParse("+275760-09-13T00:00:00Z").success, false);
 * assert.equal(dateTime().safeParse("1999-12-31T23:59:59Z").success, false);
 * ```
 */
export function dateTime(options: DateTimeOptions = {}): z.ZodType<string, string> {
  const min = options.min ?? DEFAULT_MIN_DATE;
  const max = options.max ?? DEFAULT_MAX_DATE;
  if (!(min.getTime() <= max.getTime())) {
    throw new RangeError(
      `Cannot build a date-time schema as min must not be after max: current values are ${
        String(min)
      }, ${String(max)}`,
    );
  }
  const range = `${min.toISOString()} and ${max.toISOString()}`;
  return z.string()
    .max(40, "must be a date-time like 2025-08-24T10:00:00+02:00")
    .pipe(
      z.iso.datetime({
        offset: true,
        message: "must be a date-time with an offset, like 2025-08-24T10:00:00+02:00",
        abort: true,
      }),
    )
    .refine((value) => {
      const time = Date.parse(value);
      // Not a date-time at all: the format check above has said so already.
      return Number.isNaN(time) || (time >= min.getTime() && time <= max.getTime());
    }, `must be between ${range}`);
}

/**
 * An ISO 8601 duration such as `PT15M` or `P1DT2H`.
 *
 * @returns A zod string schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isoDuration } from "./validators.ts";
 *
 * assert.equal(isoDuration().safeParse("PT15M").success, true);
 * assert.equal(isoDuration().safeParse("15 minutes").success, false);
 * ```
 */
export function isoDuration(): z.ZodType<string, string> {
  return z.string()
    .max(64, "must be an ISO 8601 duration like PT15M")
    .pipe(z.iso.duration({ message: "must be an ISO 8601 duration like PT15M" }));
}

/** Options for {@link e164Phone}. */
export interface PhoneOptions {
  /** Accept only Rwandan mobile numbers (`+2507XXXXXXXX`). @default false */
  rwandanMobile?: boolean;
}

// A phone number as people write it is short; anything longer is not one.
const MAX_PHONE_INPUT = 32;
const RWANDAN_MOBILE = /^\+2507[0-9]{8}$/;

/**
 * A phone number, normalised to E.164 (`+250788123456`). Accepts what
 * {@link toWaId} accepts: international numbers with `+`, `00` or bare
 * digits, and Rwandan local numbers (`0788 123 456`).
 *
 * @param options Whether only Rwandan mobiles are accepted.
 * @returns A zod schema whose output is the E.164 number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { e164Phone } from "./validators.ts";
 *
 * assert.equal(e164Phone().parse("0788 123 456"), "+250788123456");
 * assert.equal(e164Phone().safeParse("+").success, false);
 * assert.equal(e164Phone({ rwandanMobile: true }).safeParse("+14155550100").success, false);
 * ```
 */
export function e164Phone(options: PhoneOptions = {}): z.ZodType<string, string> {
  const rwandanOnly = options.rwandanMobile ?? false;
  return z.string()
    .min(6, "must be a phone number like +250788123456")
    .max(MAX_PHONE_INPUT, "must be a phone number like +250788123456")
    .transform((value, ctx) => {
      let e164: string;
      try {
        e164 = toE164(toWaId(value));
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a phone number like +250788123456" });
        return z.NEVER;
      }
      if (rwandanOnly && !RWANDAN_MOBILE.test(e164)) {
        ctx.addIssue({ code: "custom", message: "must be a Rwandan mobile like +250788123456" });
        return z.NEVER;
      }
      return e164;
    });
}

/** Options for the money builders. */
export interface MoneyOptions {
  /** Largest amount accepted. @default 100_000_000 */
  max?: number;
}

const DEFAULT_MAX_MONEY = 100_000_000;

function checkedMax(max: number, what: string): number {
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RangeError(
      `Cannot build ${what} as max must be a positive safe integer: current value is ${max}`,
    );
  }
  return max;
}

/**
 * An amount in whole Rwandan francs: a positive integer up to `max`
 * (RWF has no minor unit in practice).
 *
 * @param options The largest amount.
 * @returns A zod number schema.
 * @throws {RangeError} When `max` is not a positive safe integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { moneyRwf } from "./validators.ts";
 *
 * assert.equal(moneyRwf().safeParse(1500).success, true);
 * assert.equal(moneyRwf().safeParse(1500.5).success, false);
 * assert.equal(moneyRwf({ max: 1000 }).safeParse(1e308).success, false);
 * ```
 */
export function moneyRwf(options: MoneyOptions = {}): z.ZodNumber {
  const max = checkedMax(options.max ?? DEFAULT_MAX_MONEY, "a money schema");
  return z.int("must be a whole number of francs")
    .positive("must be more than 0 RWF")
    .max(max, `must be at most ${max} RWF`);
}

/**
 * An amount in a currency's minor units (cents, centimes): a whole number
 * from 0 up to `max`.
 *
 * @param options The largest amount.
 * @returns A zod number schema.
 * @throws {RangeError} When `max` is not a positive safe integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { minorUnits } from "./validators.ts";
 *
 * assert.equal(minorUnits().safeParse(0).success, true);
 * assert.equal(minorUnits().safeParse(-1).success, false);
 * ```
 */
export function minorUnits(options: MoneyOptions = {}): z.ZodNumber {
  const max = checkedMax(options.max ?? DEFAULT_MAX_MONEY, "a minor-units schema");
  return z.int("must be a whole number of minor units")
    .min(0, "must not be negative")
    .max(max, `must be at most ${max}`);
}

/**
 * A row id: a UUID such as `5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d`.
 *
 * @returns A zod string schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { id } from "./validators.ts";
 *
 * assert.equal(id().safeParse("c0000000-0000-4000-8000-000000000001").success, true);
 * assert.equal(id().safeParse("1; drop table orders").success, false);
 * ```
 */
export function id(): z.ZodUUID {
  return z.uuid("must be an id like 5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d");
}

/** Options for {@link slug}. */
export interface SlugOptions {
  /** Most characters. @default 64 */
  max?: number;
}

const SLUG = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

/**
 * A lower-case name such as `beaver-paper` or `support_handoff`: letters,
 * digits, and single `-` or `_` between them.
 *
 * @param options The longest slug.
 * @returns A zod string schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { slug } from "./validators.ts";
 *
 * assert.equal(slug().safeParse("beaver-paper").success, true);
 * assert.equal(slug().safeParse("Beaver Paper").success, false);
 * ```
 */
export function slug(options: SlugOptions = {}): z.ZodString {
  const max = checkedMax(options.max ?? 64, "a slug schema");
  return z.string()
    .max(max, `must be at most ${max} characters`)
    .regex(SLUG, "use lower-case letters and digits joined by - or _");
}

/** Options for {@link int}. */
export interface IntOptions {
  /** Smallest value. @default -2147483648 (int4) */
  min?: number;
  /** Largest value. @default 2147483647 (int4) */
  max?: number;
}

/**
 * A whole number within bounds a Postgres column can hold: `int4` unless
 * told otherwise, and never beyond JavaScript's safe integers (which `int8`
 * holds).
 *
 * @param options The bounds.
 * @returns A zod number schema.
 * @throws {RangeError} When a bound is not a safe integer or `min > max`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { int } from "./validators.ts";
 *
 * assert.equal(int({ min: 1, max: 5 }).safeParse(3).success, true);
 * assert.equal(int().safeParse(2 ** 31).success, false);
 * ```
 */
export function int(options: IntOptions = {}): z.ZodNumber {
  const { min = INT4.min, max = INT4.max } = options;
  if (!(Number.isSafeInteger(min) && Number.isSafeInteger(max) && min <= max)) {
    throw new RangeError(
      `Cannot build an integer schema as min <= max must be safe integers: current values are ${min}, ${max}`,
    );
  }
  return z.int("must be a whole number")
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
}

/**
 * A latitude in degrees, -90 to 90.
 *
 * @returns A zod number schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { latitude } from "./validators.ts";
 *
 * assert.equal(latitude().safeParse(-1.9441).success, true);
 * assert.equal(latitude().safeParse(91).success, false);
 * ```
 */
export function latitude(): z.ZodNumber {
  return z.number("must be a latitude in degrees")
    .min(-90, "must be between -90 and 90")
    .max(90, "must be between -90 and 90");
}

/**
 * A longitude in degrees, -180 to 180.
 *
 * @returns A zod number schema.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { longitude } from "./validators.ts";
 *
 * assert.equal(longitude().safeParse(30.0619).success, true);
 * assert.equal(longitude().safeParse(-181).success, false);
 * ```
 */
export function longitude(): z.ZodNumber {
  return z.number("must be a longitude in degrees")
    .min(-180, "must be between -180 and 180")
    .max(180, "must be between -180 and 180");
}

/** Options for {@link payload}. */
export interface PayloadOptions {
  /** Deepest nesting of objects and arrays (the payload itself is depth 1). @default 8 */
  maxDepth?: number;
  /** Largest size as JSON, in UTF-16 code units. @default 16384 */
  maxSize?: number;
}

/**
 * A free-form JSON object, as a jsonb column can store it: only JSON values
 * (no `undefined`, functions or non-finite numbers), no NUL or lone
 * surrogates in strings or keys, nesting and size bounded. The walk is
 * iterative and stops at the first problem, so hostile depth or size costs
 * no more than the bounds.
 *
 * @param options Depth and size bounds.
 * @returns A zod schema for a JSON object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { payload } from "./validators.ts";
 *
 * assert.equal(payload().safeParse({ item: "sugar", qty: 2 }).success, true);
 * assert.equal(payload({ maxDepth: 2 }).safeParse({ a: { b: { c: 1 } } }).success, false);
 * assert.equal(payload().safeParse({ note: "a\u0000b" }).success, false);
 * ```
 */
export function payload(
  options: PayloadOptions = {},
): z.ZodType<Record<string, unknown>, Record<string, unknown>> {
  const maxDepth = checkedMax(options.maxDepth ?? 8, "a payload schema");
  const maxSize = checkedMax(options.maxSize ?? 16_384, "a payload schema");
  return z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    const problem = jsonProblem(value, maxDepth, maxSize);
    if (problem) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  });
}

function jsonProblem(
  root: unknown,
  maxDepth: number,
  maxSize: number,
): { path: PropertyKey[]; message: string } | null {
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: root, path: [] }];
  let size = 0;
  const badText = (value: string) => CONTROL.test(value) || !value.isWellFormed();
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    size += 2;
    if (size > maxSize) return { path, message: `must be at most ${maxSize} characters as JSON` };
    if (value === null || typeof value === "boolean") continue;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) return { path, message: "must be a finite number" };
      continue;
    }
    if (typeof value === "string") {
      size += value.length;
      if (size > maxSize) return { path, message: `must be at most ${maxSize} characters as JSON` };
      if (value.includes("\u0000") || !value.isWellFormed()) {
        return { path, message: "must not contain NUL or broken characters" };
      }
      continue;
    }
    if (typeof value !== "object") return { path, message: "must be a JSON value" };
    if (path.length + 1 > maxDepth) {
      return { path, message: `must not nest deeper than ${maxDepth} levels` };
    }
    const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
    for (const [key, child] of entries) {
      size += typeof key === "string" ? key.length + 3 : 1;
      if (size > maxSize) return { path, message: `must be at most ${maxSize} characters as JSON` };
      if (typeof key === "string" && badText(key)) {
        return { path, message: "keys must not contain control characters" };
      }
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}
