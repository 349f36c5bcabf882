/**
 * No English in Kinyarwanda or French replies: every pack's text table is
 * scanned for English unit and role words in its rw and fr phrases.
 */
import assert from "node:assert/strict";
import { PACKS } from "./mod.ts";

// English words a translation must not keep (units, roles), as whole words ("payée" is French).
const ENGLISH =
  /(?<!\p{L})(glass|plate|bottle|piece|cup|vendors?|drivers?|riders?|ride|order|pay|price|the|and|your|please)(?!\p{L})/iu;

Deno.test("no rw or fr phrase of any pack leaks an English unit or role word", () => {
  const leaks = PACKS.flatMap((pack) =>
    Object.entries(pack.texts).flatMap(([key, phrase]) =>
      (["rw", "fr"] as const).flatMap((language) => {
        // Placeholders and links are not words a person reads as English.
        const text = (phrase[language] ?? "").replace(/\{\w+\}/g, "").replace(/https?:\S+/g, "");
        return ENGLISH.test(text) ? [`${pack.id}.${key}.${language}: ${phrase[language]}`] : [];
      })
    )
  );
  assert.deepStrictEqual(leaks, []);
});
