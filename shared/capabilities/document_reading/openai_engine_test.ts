import assert from "node:assert/strict";
import { readModelAnswer } from "./openai_engine.ts";

const TODAY = new Date("2026-11-24T00:00:00Z");

function answer(page: string, fields: Record<string, string | null>, legibility = 0.9): string {
  return JSON.stringify({ page, legibility, fields });
}

Deno.test("a vision model's reading passes the same checks: a moto taxi's plate and use", () => {
  const reading = readModelAnswer(
    answer("vehicle_registration", {
      plate: "RB 913 B",
      vin: "MD6ED18ZXCA940395",
      make: "TVS",
      model: "HLX125",
      year: "2019",
      usage: "Moto-taxi",
      owner_name: "BIZIMANA JOSIANE",
    }),
    TODAY,
  );
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.plate.value, "RB 913 B");
  assert.equal(reading.fields.plate.valid, true);
  assert.equal(reading.fields.usage.value, "taxi-moto");
  // The model's VIN is checked like OCR's: a wrong check digit is doubtful, with its note.
  const wrongVin = readModelAnswer(
    answer("vehicle_registration", {
      plate: "RAB 123 C",
      vin: "MD6ED18ZXCA940396",
      make: "TOYOTA",
      year: "2016",
    }),
    TODAY,
  );
  assert.equal(wrongVin.kind, "document");
  if (wrongVin.kind !== "document") return;
  assert.equal(wrongVin.fields.vin.valid, false);
  assert.ok(wrongVin.fields.vin.note);
});

Deno.test("a vision model's licence number it cannot check is kept, doubtful, with a note", () => {
  const reading = readModelAnswer(
    answer("license", {
      full_name: "MUKAMANA ALINE",
      date_of_birth: "17/12/1986",
      national_id: "1198670012345012",
      licence_number: "RW/DL/004512",
    }),
    TODAY,
  );
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  assert.equal(reading.fields.licence_number.value, "RW/DL/004512");
  assert.equal(reading.fields.licence_number.valid, false);
  assert.match(reading.fields.licence_number.note ?? "", /cannot check/);
});

Deno.test("a vision model's answer with too little read is refused as unreadable, like OCR's", () => {
  const reading = readModelAnswer(
    answer("vehicle_registration", { plate: "RAB 123 C", make: "TOYOTA" }, 0.3),
    TODAY,
  );
  assert.equal(reading.kind, "unreadable");
  assert.deepEqual(readModelAnswer(answer("not_a_document", {}), TODAY), {
    kind: "not_a_document",
  });
});
