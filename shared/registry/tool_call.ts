/**
 * Tool calls typed by the tool's own schemas: a flow passes the tool's
 * definition (or, for a tool another pack owns, the part of its output the
 * flow reads) and gets `data` typed by its output schema, so no flow
 * re-declares a tool's output with a cast.
 *
 * The result is read through the output schema, not cast: a tool whose output
 * no longer matches what a flow reads fails loudly where it is read, in the
 * flow's own tests, instead of leaving `undefined` in a reply.
 *
 * @module
 */
import type { z } from "zod";
import type { ToolResult } from "@shared/contract/result.ts";

/**
 * What a typed call needs of a tool: its name and output schema. A tool from
 * `defineTool` is one; so is `{ name, output }` naming the fields a flow reads
 * of a tool it cannot import.
 */
export interface ToolShape<O extends z.ZodType> {
  /** The tool's registered name. */
  readonly name: string;
  /** Its output schema, or the part of it the caller reads. */
  readonly output: O;
}

/** Any tool caller a flow is given: by name, with its own trailing parameters (a step, a key). */
export type NamedToolCaller<R extends unknown[]> = (
  tool: string,
  args: unknown,
  ...rest: R
) => Promise<ToolResult>;

/**
 * Calls `tool` through `caller` and returns its result with `data` typed by
 * the tool's output schema.
 *
 * @param caller The flow's tool caller.
 * @param tool The tool's definition, or its name and the output it is read as.
 * @param args The arguments; the pipeline checks them against the tool's input schema (a flow
 *   may send a field it lacks and branch on the VALIDATION_ERROR naming it).
 * @param rest The caller's own parameters (an offline flow's step name).
 * @returns The result; a failure is passed on as it came.
 * @throws {TypeError} when a successful result does not match the output schema.
 *
 * @example Typed data
 * ```ts
 * import { z } from "zod";
 * import { callTyped } from "@shared/registry/tool_call.ts";
 * const lookup = { name: "place_lookup", output: z.object({ found: z.boolean() }) };
 * const caller = (_tool: string, _args: unknown, _step: string) =>
 *   Promise.resolve({ ok: true as const, data: { found: true } });
 * const result = await callTyped(caller, lookup, { text: "Kimironko" }, "place");
 * if (result.ok) console.log(result.data.found);
 * ```
 */
export async function callTyped<O extends z.ZodType, R extends unknown[]>(
  caller: NamedToolCaller<R>,
  tool: ToolShape<O>,
  args: unknown,
  ...rest: R
): Promise<ToolResult<z.output<O>>> {
  return readResult(tool, await caller(tool.name, args, ...rest));
}

/**
 * Reads a tool's result kept untyped (a confirmed call's result in a flow's
 * memory) as `tool`'s: `data` parsed by its output schema.
 *
 * @throws {TypeError} when `stored` is not a tool result, or its data does not match the output schema.
 */
export function readResult<O extends z.ZodType>(
  tool: ToolShape<O>,
  stored: unknown,
): ToolResult<z.output<O>> {
  if (!isToolResult(stored)) {
    throw new TypeError(`Cannot read ${tool.name}'s result as it is not a tool result`);
  }
  return stored.ok ? { ok: true, data: readData(tool, stored.data) } : stored;
}

/**
 * Reads a successful call's `data` as `tool`'s: parsed by its output schema.
 *
 * @throws {TypeError} when `data` does not match the output schema.
 */
export function readData<O extends z.ZodType>(tool: ToolShape<O>, data: unknown): z.output<O> {
  const parsed = tool.output.safeParse(data);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => issue.path.join(".") || "data").join(", ");
    throw new TypeError(
      `Cannot read ${tool.name}'s result as its output schema says: check ${where}`,
    );
  }
  return parsed.data;
}

/**
 * Like {@link readResult} for a result that may not be there: null when
 * `stored` is null or undefined.
 */
export function readKeptResult<O extends z.ZodType>(
  tool: ToolShape<O>,
  stored: unknown,
): ToolResult<z.output<O>> | null {
  return stored === null || stored === undefined ? null : readResult(tool, stored);
}

/** Whether `value` has a tool result's shape: `{ ok: true, data }` or `{ ok: false, error }`. */
export function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== "object" || value === null || !("ok" in value)) return false;
  return value.ok === true ? "data" in value : value.ok === false && "error" in value;
}
