/**
 * No English in Kinyarwanda or French replies: every pack's text table is
 * scanned for English unit and role words in its rw and fr phrases, with the
 * same word list the scan of played replies uses (testing/english_words.ts).
 */
import assert from "node:assert/strict";
import { englishWords } from "@testing/english_words.ts";
import { PACKS } from "./mod.ts";

Deno.test("no rw or fr phrase of any pack leaks an English unit or role word", () => {
  const leaks = PACKS.flatMap((pack) =>
    Object.entries(pack.texts).flatMap(([key, phrase]) =>
      (["rw", "fr"] as const).flatMap((language) => {
        const text = phrase[language] ?? "";
        return englishWords(text).length ? [`${pack.id}.${key}.${language}: ${text}`] : [];
      })
    )
  );
  assert.deepStrictEqual(leaks, []);
});

Deno.test("no phrase of any pack writes a count as 'driver(s)': one or many is said by the count", () => {
  const hedged = PACKS.flatMap((pack) =>
    Object.entries(pack.texts).flatMap(([key, phrase]) =>
      Object.entries(phrase).flatMap(([language, text]) =>
        /\p{L}\(s\)/u.test(text ?? "") ? [`${pack.id}.${key}.${language}: ${text}`] : []
      )
    )
  );
  assert.deepStrictEqual(hedged, []);
});
