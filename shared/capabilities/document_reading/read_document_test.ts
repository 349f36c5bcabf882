import assert from "node:assert/strict";
import {
  type DocumentReading,
  isComplete,
  mergeReadings,
  type ReadField,
} from "./read_document.ts";

const ok = (value: string): ReadField => ({ value, confidence: 0.9, valid: true });
const doubtful = (value: string): ReadField => ({
  value,
  confidence: 0.4,
  valid: false,
  note: "check digit",
});

function card(fields: Record<string, ReadField>, missing: string[] = []): DocumentReading {
  return { kind: "document", type: "vehicle_registration", fields, confidence: 0.8, missing };
}

Deno.test("a second look fills the first's gaps and doubts, and never overrides a checked value", () => {
  const first = card({
    plate: ok("RAB 123 C"),
    vin: doubtful("1HGCM82633A004352"),
    make: ok("TOYOTA"),
  }, ["model", "year", "owner_name", "owner_national_id", "issue_date", "expiry_date"]);
  const second = card({
    plate: ok("RAB 128 C"),
    vin: ok("JHGCM82633A004352"),
    model: ok("COROLLA"),
    year: doubtful("2O12"),
  });
  const merged = mergeReadings(first, second);
  assert.equal(merged.kind, "document");
  if (merged.kind !== "document") return;
  // The first look's checked plate stays; the second's checked VIN replaces a doubtful one.
  assert.equal(merged.fields.plate.value, "RAB 123 C");
  assert.equal(merged.fields.vin.value, "JHGCM82633A004352");
  assert.equal(merged.fields.model.value, "COROLLA");
  // A field only the second look found is kept even when doubtful: the customer confirms it.
  assert.equal(merged.fields.year.valid, false);
  assert.deepEqual(merged.missing.includes("model"), false);
  assert.ok(merged.missing.includes("owner_name"));
  assert.equal(isComplete(merged), false);
});

Deno.test("a page only the second look could read is read by it; a non-document stays refused", () => {
  const second = card({ plate: ok("RAB 123 C") });
  const unreadable: DocumentReading = {
    kind: "unreadable",
    type: "vehicle_registration",
    found: 1,
    expected: 7,
  };
  assert.deepEqual(mergeReadings(unreadable, second), second);
  assert.deepEqual(mergeReadings({ kind: "not_a_document" }, second), { kind: "not_a_document" });
  assert.deepEqual(mergeReadings(second, { kind: "not_a_document" }), second);
  const licence: DocumentReading = { ...second, type: "license" } as DocumentReading;
  assert.deepEqual(mergeReadings(second, licence), second);
});
