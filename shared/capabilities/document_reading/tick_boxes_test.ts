import assert from "node:assert/strict";
import { page } from "@testing/documents/word_boxes.ts";
import { boxState, tickedOptions } from "./tick_boxes.ts";
import { readDocument } from "./read_document.ts";

const today = new Date("2026-06-01T00:00:00Z");

Deno.test("a box is told ticked or empty however OCR read its brackets", () => {
  for (const ticked of ["[X]", "[x]", "(X)", "X]", "[V]", "☒", "☑"]) {
    assert.equal(boxState(ticked), "ticked", ticked);
  }
  for (const empty of ["[]", "[CJ", "LJ", "[_]", "☐", "(J", "[7]", "[|"]) {
    assert.equal(boxState(empty), "empty", empty);
  }
  for (const word of ["PRIVATE", "X", "B", "C", "RAB"]) assert.equal(boxState(word), null, word);
});

Deno.test("the options after ticked boxes are the value; an option whose box was lost beside empty ones is", () => {
  assert.equal(tickedOptions("[CJ MOTORCYCLE TAXI [X] PRIVATE"), "PRIVATE");
  assert.equal(tickedOptions("[X]PRIVATE [ ]COMMERCIAL"), "PRIVATE");
  assert.equal(tickedOptions("[X]PARTICULIER = [UTILITAIRE [TAXI"), "PARTICULIER");
  assert.equal(tickedOptions("☐ Private ☒ Commercial ☐ Taxi"), "Commercial");
  assert.equal(tickedOptions("[X] A [X] B [] C [] D"), "A, B");
  assert.equal(tickedOptions("[X] PRIVATE"), "PRIVATE");
  // The ticked box lost (the tick and the box read as one blot, or nothing), the others empty.
  assert.equal(tickedOptions("MASCULIN | [7] FÉMININ"), "MASCULIN");
  assert.equal(
    tickedOptions("IKY'UMUNTU KU GITICYE | []UBUCURUZ [| TAGISI"),
    "IKY'UMUNTU KU GITICYE",
  );
  assert.equal(tickedOptions("A [OB Ode [Op"), "A");
  // The box's edges dropped (as a comb's are), the tick left.
  assert.equal(tickedOptions("[CJ MOTORCYCLE TAXI X PRIVATE"), "PRIVATE");
  // Nothing marked: no option; no box at all: the text as it was.
  assert.equal(tickedOptions("[] MALE [] FEMALE"), null);
  assert.equal(tickedOptions("[CJ MOTORCYCLE TAXI"), null);
  assert.equal(tickedOptions("PRIVATE"), "PRIVATE");
});

Deno.test("a form's closed choices read as the ticked option, not the first printed", () => {
  const registration = readDocument(
    page([
      [[40, "VEHICLE REGISTRATION CERTIFICATE"]],
      [[40, "Plate"], [300, "RAB 123 C"]],
      [[40, "Make"], [300, "TOYOTA"]],
      [[40, "Category of use"], [300, "[CJ MOTORCYCLE TAXI [X] PRIVATE"]],
      [[40, "Use"], [300, "[] COMMERCIAL"]],
    ]).slice(0, 4),
    { today },
  );
  assert.ok(registration.kind === "document" && registration.type === "vehicle_registration");
  assert.equal(registration.fields.usage?.value, "private");

  const licence = readDocument(
    page([
      [[40, "DRIVING LICENCE"]],
      [[40, "Driver"], [300, "MUGISHA ERIC"]],
      [[40, "DL No."], [300, "12A345678"]],
      [[40, "Vehicle classes"], [300, "[X] A [ ] B [X] C [ ] D"]],
    ]),
    { today },
  );
  assert.ok(licence.kind === "document" && licence.type === "license");
  assert.equal(licence.fields.categories?.value, "A, C");

  const id = readDocument(
    page([
      [[40, "NATIONAL IDENTITY CARD"]],
      [[40, "Names"], [300, "UWASE AIMEE"]],
      [[40, "Sex"], [300, "[ ] MALE [X] FEMALE"]],
      [[40, "ID No."], [300, "1 1990 7 0012345 0 12"]],
    ]),
    { today },
  );
  assert.ok(id.kind === "document" && id.type === "id_card");
  assert.equal(id.fields.sex?.value, "F");
});
