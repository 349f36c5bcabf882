import assert from "node:assert/strict";
import { asksForHelp } from "./help_request.ts";

Deno.test("asksForHelp() hears a bare request for help in en, rw and fr", () => {
  for (
    const text of [
      "help",
      "Help!",
      "aide",
      "Aide-moi stp",
      "ubufasha",
      "Mfasha?",
      "??",
      "simbyumva",
    ]
  ) {
    assert.equal(asksForHelp(text), true, text);
  }
});

Deno.test("asksForHelp() leaves a request with its own object, and a plain answer, to the flow", () => {
  for (
    const text of ["help me find a pharmacy", "ndashaka ubufasha bw'avoka", "Kimironko", "yes", "0"]
  ) {
    assert.equal(asksForHelp(text), false, text);
  }
});
