import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { normalizePlaceText } from "./places.ts";
import { PLACE_NAMES } from "./place_names.ts";

dbTest(
  "every place of the gazetteer, by name and alias, is a language-neutral name",
  async (db) => {
    const rows = await db.query<{ name: string; aliases: string[] }>(
      "select name, aliases from public.places order by slug",
    );
    assert.ok(rows.length > 0);
    const known = new Set(PLACE_NAMES.map(normalizePlaceText));
    const missing = rows.flatMap((row) => [row.name, ...row.aliases])
      .map(normalizePlaceText)
      .filter((name) => !known.has(name));
    assert.deepStrictEqual(missing, []);
  },
);
