import assert from "node:assert/strict";
import { fail, type ToolResult } from "@shared/contract/result.ts";
import type { Language } from "@shared/contract/language.ts";
import type { OfflineTurn } from "@shared/registry/pack.ts";
import {
  insuranceFlow,
  isMotorcyclePlate,
  normalizePlate,
  parseCorrections,
  usageOf,
} from "./insurance_flow.ts";
import { say } from "./texts.ts";

// Any fixed day: the flow's clock is the turn's, never the machine's.
const NOW = new Date("2026-07-01T09:00:00Z");

// A photo sent at the photo step, answered by `ocr_extract` with `refused`.
async function sendPhoto(
  refused: ToolResult,
  memory: Record<string, unknown> = {},
  language: Language = "en",
) {
  const calls: string[] = [];
  const turn: OfflineTurn = {
    agent: "insurance",
    language,
    input: { wamid: "wamid.1", text: "", media: { type: "image", ref: "storage://media/o/c/1" } },
    memory: { step: "photo", ...memory },
    menu: [],
    progress: () => Promise.resolve(),
  };
  const step = await insuranceFlow(turn, (tool) => {
    calls.push(tool);
    return Promise.resolve(tool === "ocr_extract" ? refused : fail("NOT_FOUND"));
  });
  return { step, calls };
}

Deno.test("insuranceFlow asks for the carte jaune when ocr_extract's details say another document type", async () => {
  // The message's words say nothing the flow reads: only the code and details.
  const { step } = await sendPhoto(
    fail("VALIDATION_ERROR", "Anything at all", {
      fields: [{ path: "file_url", message: "whatever" }],
      details: { refusal: "wrong_document_type", document_type: "license" },
    }),
    { tries: 1 },
  );
  assert.equal(step.replies?.[0]?.text, say("wrongDocument", "en"));
  // Another document is not a failed try: it never goes to staff on its account.
  assert.equal(step.memory?.tries, 1);
});

Deno.test("insuranceFlow says blurred for an unreadable refusal and counts the try", async () => {
  const { step } = await sendPhoto(
    fail("VALIDATION_ERROR", "wrong document type: license", {
      details: { refusal: "unreadable" },
    }),
  );
  assert.equal(step.replies?.[0]?.text, say("blurred", "en"));
  assert.equal(step.memory?.tries, 1);
});

Deno.test("insuranceFlow says not a document for a refusal that is neither", async () => {
  const { step } = await sendPhoto(
    fail("VALIDATION_ERROR", "unreadable", { details: { refusal: "not_a_document" } }),
  );
  assert.equal(step.replies?.[0]?.text, say("notADocument", "en"));
});

Deno.test("insuranceFlow asks for an empty or damaged file again, in the customer's language, without counting a try", async () => {
  for (const language of ["en", "rw", "fr"] as const) {
    for (const refusal of ["damaged_file", "not_an_image"]) {
      const { step } = await sendPhoto(
        fail("VALIDATION_ERROR", "The photo did not come through", {
          fields: [{ path: "file_url", message: "empty file" }],
          details: { refusal },
        }),
        { tries: 1 },
        language,
      );
      const text = step.replies?.[0]?.text;
      assert.equal(text, say("photoNotReceived", language), `${refusal} ${language}`);
      assert.notEqual(text, say("notADocument", language));
      // Nothing was read: no try counted (a second would hand an empty file to staff).
      assert.equal(step.memory?.tries, 1);
      assert.equal(step.memory?.step, "photo");
    }
  }
});

Deno.test("plates of every checked series are written the usual way; a motorcycle's is known", () => {
  assert.equal(normalizePlate("rab123c"), "RAB 123 C");
  assert.equal(normalizePlate("RB 913 B"), "RB 913 B");
  assert.equal(normalizePlate("GR-045-B"), "GR 045 B");
  assert.equal(normalizePlate("RAB 12 C"), null);
  assert.equal(isMotorcyclePlate("RB 913 B"), true);
  assert.equal(isMotorcyclePlate("RAB 123 C"), false);
  assert.equal(isMotorcyclePlate("GR 045 B"), false);
});

Deno.test("the use, as a card or a customer words it, and corrected like any field", () => {
  assert.equal(usageOf("MOTO-TAXI"), "taxi-moto");
  assert.equal(usageOf("moto itwara abagenzi"), "taxi-moto");
  assert.equal(usageOf("Privé"), "private");
  assert.equal(usageOf("ubucuruzi"), "commercial");
  assert.equal(usageOf("blue"), null);
  assert.deepEqual(parseCorrections("use private, year 2016", { now: NOW }), {
    changes: { usage: "private", year: 2016 },
  });
  assert.deepEqual(parseCorrections("plate RB 913 B", { now: NOW }), {
    changes: { plate: "RB 913 B" },
  });
});

Deno.test("the latest model year follows the turn's clock, not the machine's", async () => {
  // Five years after the machine's year: next year's model is valid then, and the limit named is that year's.
  const later = new Date(Date.UTC(new Date().getUTCFullYear() + 5, 6, 1));
  const nextModel = later.getUTCFullYear() + 1;
  const confirm = (text: string) =>
    insuranceFlow({
      agent: "insurance",
      language: "en",
      now: later,
      input: { wamid: "wamid.2", text },
      memory: { step: "confirm", vehicle: { plate: "RAB 123 C", make: "TOYOTA", year: 2016 } },
      menu: [],
      progress: () => Promise.resolve(),
    }, () => Promise.resolve(fail("NOT_FOUND")));
  const accepted = await confirm(`year ${nextModel}`);
  assert.equal((accepted.memory?.vehicle as { year?: number })?.year, nextModel);
  const refused = await confirm(`year ${nextModel + 1}`);
  assert.equal(refused.replies?.[0]?.text, say("badYear", "en", { max: nextModel }));
  assert.deepEqual(parseCorrections(`year ${nextModel}`, { now: later }), {
    changes: { year: nextModel },
  });
});
