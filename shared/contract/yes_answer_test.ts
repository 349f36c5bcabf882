import assert from "node:assert/strict";
import { saysYes } from "./yes_answer.ts";

Deno.test("a bare yes in en/rw/fr is a yes; a yes with more is not", () => {
  for (const text of ["yes", "Oui !", "yego", "OK.", "d'accord", "👍"]) {
    assert.ok(saysYes(text), text);
  }
  for (const text of ["yes 10 reams", "oui, deux latte", "yego ndashaka imiti", "1", "no"]) {
    assert.ok(!saysYes(text), text);
  }
});
