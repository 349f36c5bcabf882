import assert from "node:assert/strict";
import { PRODUCT_UNITS, productUnit } from "./product_units.ts";

// The unit column of every product the seed inserts: `..., <qty>, '<unit>')`.
async function seededUnits(): Promise<Set<string>> {
  const seed = await Deno.readTextFile(new URL("../../../supabase/seed.sql", import.meta.url));
  const inserts = seed.split(/insert into public\.products\b/).slice(1)
    .map((rest) => rest.slice(0, rest.indexOf(";")));
  assert.ok(inserts.length > 0, "the seed inserts products");
  const units = new Set<string>();
  for (const insert of inserts) {
    for (const match of insert.matchAll(/,\s*\d+\s*,\s*'([^']+)'\s*\)/g)) units.add(match[1]);
  }
  return units;
}

Deno.test("productUnit() has a rw and a fr name for every unit in the seed", async () => {
  const units = await seededUnits();
  assert.ok(units.has("glass") && units.has("plate"), `units read from the seed: ${[...units]}`);
  const missing = [...units].flatMap((unit) =>
    (["rw", "fr"] as const).flatMap((language) =>
      productUnit(unit, language) ? [] : [`${unit}.${language}`]
    )
  );
  assert.deepStrictEqual(missing, []);
});

Deno.test("productUnit() translates rw and fr and keeps English as typed", () => {
  assert.equal(productUnit("glass", "rw"), "ikirahuri");
  assert.equal(productUnit("plate", "fr"), "assiette");
  assert.equal(productUnit(" Bottle ", "rw"), "icupa");
  assert.equal(productUnit("plate", "en"), "plate");
});

Deno.test("productUnit() leaves out a unit it cannot translate rather than show English", () => {
  assert.equal(productUnit("crate", "rw"), undefined);
  assert.equal(productUnit("crate", "fr"), undefined);
  assert.equal(productUnit("crate", "en"), "crate");
  assert.equal(productUnit("", "en"), undefined);
  assert.equal(productUnit(null, "fr"), undefined);
});

Deno.test("no translated unit is the English word itself, except shared ones", () => {
  // Words French shares with English are French too; Kinyarwanda shares none.
  const sharedFr = new Set(["sachet", "tube", "kg"]);
  for (const [unit, names] of Object.entries(PRODUCT_UNITS)) {
    assert.notEqual(names.rw, unit, `rw for ${unit}`);
    if (!sharedFr.has(unit)) assert.notEqual(names.fr, unit, `fr for ${unit}`);
  }
});
