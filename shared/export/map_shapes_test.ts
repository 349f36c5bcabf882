import assert from "node:assert/strict";
import { z } from "zod";
import { payload } from "@shared/contract/mod.ts";
import { mapShapeOf, withMapShape } from "./map_shapes.ts";

Deno.test("withMapShape() declares a shape that copies of the map inherit", () => {
  const shape = z.object({ plate: z.string() });
  const map = withMapShape(payload({ maxSize: 100 }), shape);
  assert.equal(mapShapeOf(map), shape);
  assert.equal(mapShapeOf(map.describe("The details.")), shape);
  assert.equal(mapShapeOf(map.meta({ title: "Details" }).describe("x")), shape);
  assert.equal(mapShapeOf(payload()), undefined);
  // Validation is the map's own: the shape only describes it.
  assert.equal(map.safeParse({ flight: "WB 464" }).success, true);
});

Deno.test("withMapShape() refuses a schema that is not a map", () => {
  assert.throws(
    () => withMapShape(z.object({ a: z.string() }), z.object({ a: z.string() })),
    new TypeError(
      "Cannot declare a map's shape as the schema must be a z.record: current type is object",
    ),
  );
});
