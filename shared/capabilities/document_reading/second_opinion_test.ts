import assert from "node:assert/strict";
import type { OcrEngine, OcrRequest } from "./ocr_engine.ts";
import type { DocumentReading, ReadField } from "./read_document.ts";
import { withSecondOpinion } from "./second_opinion.ts";

const REQUEST: OcrRequest = {
  bytes: new Uint8Array([1]),
  contentType: "image/jpeg",
  documentType: "id_card",
  today: new Date("2026-11-24T00:00:00Z"),
};

const field = (value: string, valid = true): ReadField => ({ value, confidence: 0.9, valid });

/** An engine that answers one reading and counts its reads. */
function answering(provider: string, reading: DocumentReading): OcrEngine & { reads: number } {
  return {
    provider,
    reads: 0,
    read() {
      this.reads++;
      return Promise.resolve(structuredClone(reading));
    },
  };
}

const ALL_FIELDS = [
  "full_name",
  "date_of_birth",
  "sex",
  "place_of_issue",
  "national_id",
  "issue_date",
];

function idCard(fields: Record<string, ReadField>): DocumentReading {
  return {
    kind: "document",
    type: "id_card",
    fields,
    confidence: 0.9,
    missing: ALL_FIELDS.filter((name) => !(name in fields)),
  };
}

Deno.test("withSecondOpinion() does not ask the second engine about a complete reading", async () => {
  const complete = idCard(Object.fromEntries(ALL_FIELDS.map((name) => [name, field("X")])));
  const first = answering("tesseract", complete);
  const second = answering("paddle", { kind: "not_a_document" });
  const engine = withSecondOpinion(first, second);
  assert.equal(engine.provider, "tesseract+paddle");
  assert.deepEqual(await engine.read(REQUEST), complete);
  assert.equal(second.reads, 0);
});

Deno.test("withSecondOpinion() fills missing and doubtful fields from the second engine", async () => {
  const first = answering(
    "tesseract",
    idCard({ full_name: field("NDAYISABA GRACE"), national_id: field("1200", false) }),
  );
  const second = answering(
    "paddle",
    idCard({
      full_name: field("NDAYISABAGRACE"),
      national_id: field("1200688503881271"),
      sex: field("M"),
    }),
  );
  const reading = await withSecondOpinion(first, second).read(REQUEST);
  assert.equal(second.reads, 1);
  assert.equal(reading.kind, "document");
  if (reading.kind !== "document") return;
  // The first engine's checked value stands; the second's checked values fill the gaps.
  assert.equal(reading.fields.full_name.value, "NDAYISABA GRACE");
  assert.equal(reading.fields.national_id.value, "1200688503881271");
  assert.equal(reading.fields.sex.value, "M");
  assert.deepEqual(reading.missing, ["date_of_birth", "place_of_issue", "issue_date"]);
});

Deno.test("withSecondOpinion() keeps a non-document refused and reads an unreadable page again", async () => {
  const receipt = answering("tesseract", { kind: "not_a_document" });
  const accepting = answering("paddle", idCard({ full_name: field("A B") }));
  assert.deepEqual(await withSecondOpinion(receipt, accepting).read(REQUEST), {
    kind: "not_a_document",
  });
  assert.equal(accepting.reads, 0);

  const blurred = answering("tesseract", {
    kind: "unreadable",
    type: "id_card",
    found: 1,
    expected: 6,
  });
  const reading = await withSecondOpinion(blurred, accepting).read(REQUEST);
  assert.equal(reading.kind, "document");
});

Deno.test("withSecondOpinion() passes a failing engine's error on", async () => {
  const failing: OcrEngine = {
    provider: "tesseract",
    read: () => Promise.reject(new Error("worker died")),
  };
  await assert.rejects(
    withSecondOpinion(failing, answering("paddle", { kind: "not_a_document" })).read(REQUEST),
    /worker died/,
  );
});

Deno.test("withSecondOpinion() with a budget asks the second engine only while its cost fits", async () => {
  // A clock the engines move: the first spends what `firstCost` says, the second 2000 ms.
  let now = 0;
  let firstCost = 2500;
  const incomplete = idCard({ full_name: field("NDAYISABA GRACE") });
  const first: OcrEngine = {
    provider: "tesseract",
    read() {
      now += firstCost;
      return Promise.resolve(structuredClone(incomplete));
    },
  };
  const second = answering("paddle", idCard({ sex: field("F") }));
  const slowSecond: OcrEngine = {
    provider: "paddle",
    read(request) {
      now += 2000;
      return second.read(request);
    },
  };
  const engine = withSecondOpinion(first, slowSecond, { budgetMs: 4000, clock: () => now });
  // Its first read runs (the cost is not known yet) and fills the gap.
  const asked = await engine.read(REQUEST);
  assert.equal(second.reads, 1);
  assert.equal(asked.kind === "document" && asked.fields.sex?.value, "F");
  // 2500 ms spent and 2000 ms more expected: over 4000, the first reading stands as it is.
  assert.deepEqual(await engine.read(REQUEST), incomplete);
  assert.equal(second.reads, 1);
  // A quicker first look leaves room: 1000 + 2000 fits.
  firstCost = 1000;
  await engine.read(REQUEST);
  assert.equal(second.reads, 2);
  // Without a budget the second engine is always asked.
  firstCost = 3900;
  const unbounded = withSecondOpinion(first, slowSecond, { clock: () => now });
  await unbounded.read(REQUEST);
  await unbounded.read(REQUEST);
  assert.equal(second.reads, 4);
});
