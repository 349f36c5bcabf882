/**
 * Typed shapes for free-form maps. A map (`z.record`, `payload()`) is fine
 * for dialects that take JSON Schema's `additionalProperties`, but Gemini's
 * schema subset has no maps. When the tool knows what a map holds (e.g.
 * `generate_pdf`'s `data` is one template's fields), it declares that shape
 * with {@link withMapShape}; a dialect without maps describes the shape
 * instead of the map. Validation is unchanged: the map's own schema still
 * checks the arguments, and the tool checks the shape with its own paths.
 *
 * Modelled on zod's metadata registries: keyed by schema, and inherited by
 * the copies `.describe()`, `.meta()` and the like make. (A zod registry
 * itself cannot hold schemas as metadata: its types rewrite them.)
 *
 * @module
 */
import type { z } from "zod";

const SHAPES = new WeakMap<z.core.$ZodType, z.ZodType>();

/**
 * Declares what a free-form map holds, for dialects that cannot describe a map.
 *
 * @param map A `z.record` schema (as `payload()` makes).
 * @param shape What the map holds; an object schema or a union of them.
 * @returns `map` itself, now with its shape declared.
 * @throws {TypeError} when `map` is not a `z.record`.
 *
 * @example A map whose values follow one of two shapes
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "zod";
 * import { mapShapeOf, withMapShape } from "./map_shapes.ts";
 *
 * const shape = z.union([z.object({ plate: z.string() }), z.object({ flight: z.string() })]);
 * const data = withMapShape(z.record(z.string(), z.unknown()), shape).describe("The fields.");
 * assert.equal(mapShapeOf(data), shape);
 * ```
 */
export function withMapShape<T extends z.ZodType>(map: T, shape: z.ZodType): T {
  const type = map._zod.def.type;
  if (type !== "record") {
    throw new TypeError(
      `Cannot declare a map's shape as the schema must be a z.record: current type is ${type}`,
    );
  }
  SHAPES.set(map, shape);
  return map;
}

/**
 * The shape declared for a map, or for the schema it was copied from.
 *
 * @param schema Any zod schema.
 * @returns The declared shape, or `undefined`.
 */
export function mapShapeOf(schema: z.core.$ZodType): z.ZodType | undefined {
  // Copies (`.describe()`, `.meta()`, added checks) point at what they were made from.
  for (let at: z.core.$ZodType | undefined = schema; at; at = at._zod.parent) {
    const shape = SHAPES.get(at);
    if (shape) return shape;
  }
  return undefined;
}
