import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { readFixture, readManifest } from "@testing/documents/generate.ts";
import { startScriptedOpenAI } from "@testing/openai_server.ts";
import { createTestRuntime, type TestData } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { rememberReadings } from "@testing/ocr.ts";
import { startTestStorage } from "@testing/storage.ts";
import { ROOMY_PACKS } from "@testing/roomy_packs.ts";
import type { Database } from "@shared/db/types.ts";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { OCR_ENGINE, type OcrEngine } from "./ocr_engine.ts";
import { createOpenAIEngine } from "./openai_engine.ts";
import { storageReference } from "./ocr_extract.ts";
import { createTesseractEngine } from "./tesseract_engine.ts";
import { MIN_SIDE_PX } from "./picture_size.ts";
import { Jimp } from "jimp";

// One tesseract worker for the file: OCR is the slow part (closed by the last test). Each
// photo is read once per process; the second database reuses the reading.
const tesseract = rememberReadings(createTesseractEngine());
const TODAY = new Date("2026-11-24T08:00:00Z");

/** The production OpenAI engine, talking to a loopback OpenAI-compatible server. */
function openaiEngine(server: { apiKey: string; baseURL: string }): OcrEngine {
  return createOpenAIEngine({
    apiKey: server.apiKey,
    baseURL: server.baseURL,
    model: "gpt-4o-mini",
  });
}

async function setup(db: Database, engine: OcrEngine = tesseract) {
  const storage = await startTestStorage(db);
  const runtime = await createTestRuntime(db, {
    // What a reading gives is checked here, not how fast a loaded machine reads.
    packs: ROOMY_PACKS,
    now: () => TODAY,
    provide: [{ key: FILE_STORE, value: storage.files }, { key: OCR_ENGINE, value: engine }],
  });
  const [convo] = await db.query<{ id: string }>(
    "insert into public.conversations (org_id, user_id) values ($1, $2) returning id",
    [ORG.easymo, USER.aline],
  );
  const upload = async (file: string, bytes?: Uint8Array) => {
    const path = `${ORG.easymo}/${convo.id}/${file}`;
    await storage.files.upload({
      bucket: "media",
      path,
      bytes: bytes ?? await readFixture("heldout", file),
      contentType: "image/jpeg",
    });
    return { path, url: `storage://media/${path}` };
  };
  const close = async () => {
    await runtime.platform.close();
    await storage.close();
  };
  return { storage, runtime, upload, close, convo: convo.id };
}

dbTest(
  "ocr_extract reads a carte jaune, stores its fields, deletes the photo and logs it",
  async (db) => {
    const { runtime, upload, storage, close, convo } = await setup(db);
    try {
      const entry = (await readManifest("heldout")).find((e) =>
        e.file === "01_vehicle_registration_clean.jpg"
      )!;
      const { url, path } = await upload(entry.file);
      const args = { file_url: url, document_type: "vehicle_registration" };
      const result = await runtime.callAs(USER.aline, "ocr_extract", args, {
        idempotencyKey: "ocr-1",
        context: { convo_id: convo },
      });
      assert.equal(result.ok, true, JSON.stringify(result));
      const data = result.data;
      for (const field of ["plate", "vin", "owner_national_id", "issue_date", "expiry_date"]) {
        assert.equal(data.fields[field], entry.fields[field], field);
      }
      assert.ok(data.confidence > 0.8 && data.confidence <= 1, String(data.confidence));
      assert.equal(data.raw_media, "redacted");
      assert.equal(data.provider, "tesseract");
      const [row] = await db.query<Record<string, unknown>>(
        `select org_id, user_id, conversation_id, raw_redacted_at, raw_redaction_note, fields->>'plate' as plate
       from public.document_extractions where id = $1`,
        [data.extraction_id],
      );
      assert.equal(row.org_id, ORG.easymo);
      assert.equal(row.conversation_id, convo);
      assert.equal(row.plate, entry.fields.plate);
      assert.ok(row.raw_redacted_at);
      assert.equal(row.raw_redaction_note, "raw media redacted post-extraction");
      await assert.rejects(storage.files.download({ bucket: "media", path }), {
        code: "NOT_FOUND",
      });

      // A retry with the same key replays the stored answer (the photo is gone: nothing is re-read).
      const replay = await runtime.callAs(USER.aline, "ocr_extract", args, {
        idempotencyKey: "ocr-1",
        context: { convo_id: convo },
      });
      assert.deepEqual(replay, result);

      // Another customer of the org cannot read Aline's extraction; staff can.
      const seen = async (user: string) =>
        (await db.asCaller(
          { sub: user, role: "authenticated" },
          (tx) => tx.query("select id from public.document_extractions"),
        )).length;
      assert.equal(await seen(USER.eric), 0);
      assert.equal(await seen(USER.jean), 1);
    } finally {
      await close();
    }
  },
);

dbTest(
  "ocr_extract refuses a receipt and an unreadable photo, keeps them, and tells a damaged file apart",
  async (db) => {
    const { runtime, upload, storage, close } = await setup(db);
    try {
      for (
        const [file, reason] of [
          ["22_receipt_clean.jpg", "not a document"],
          ["21_vehicle_registration_unreadable.jpg", "not a document"],
        ]
      ) {
        const { url, path } = await upload(file);
        const result = await runtime.callAs(USER.aline, "ocr_extract", {
          file_url: url,
          document_type: "vehicle_registration",
        }, { idempotencyKey: `refuse-${file}` });
        assert.equal(result.ok, false);
        assert.equal(result.error.code, "VALIDATION_ERROR");
        assert.deepEqual(result.error.fields, [{ path: "file_url", message: reason }]);
        // What the flow branches on: a code and a detail, not the message's words.
        assert.deepEqual(result.error.details, { refusal: "not_a_document" });
        assert.match(result.error.msg, /vehicle registration/);
        // Refused photos stay for staff; the bucket's retention removes them.
        await storage.files.download({ bucket: "media", path });
      }
      const photo = await readFixture("heldout", "01_vehicle_registration_clean.jpg");
      const files: Array<[string, Uint8Array, string]> = [
        ["empty.jpg", new Uint8Array(), "empty file"],
        // Cut off in transit: its header (and size) whole, its picture not.
        ["cut.jpg", photo.subarray(0, Math.floor(photo.length / 2)), "damaged file"],
        [
          "letter.jpg",
          new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog >>"),
          "damaged file",
        ],
        [
          "noise.jpg",
          Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251),
          "damaged file",
        ],
      ];
      for (const [file, bytes, reason] of files) {
        const { url } = await upload(file, bytes);
        const result = await runtime.callAs(USER.aline, "ocr_extract", {
          file_url: url,
          document_type: "vehicle_registration",
        }, { idempotencyKey: `damaged-${file}` });
        assert.equal(result.ok, false, file);
        assert.equal(result.error.code, "VALIDATION_ERROR", file);
        assert.deepEqual(result.error.fields, [{ path: "file_url", message: reason }], file);
        // What the flow branches on: "send it again", never "this is not your card".
        assert.deepEqual(result.error.details, { refusal: "damaged_file" }, file);
        assert.match(result.error.msg, /did not come through/, file);
      }
      const [{ count }] = await db.query<{ count: number }>(
        "select count(*)::int as count from public.document_extractions",
      );
      assert.equal(count, 0);
    } finally {
      await close();
    }
  },
);

dbTest(
  "ocr_extract refuses bad input: internet URLs, other orgs' files, unknown types",
  async (db) => {
    const { runtime, close } = await setup(db);
    try {
      const call = (args: unknown) =>
        runtime.callAs(USER.aline, "ocr_extract", args, { idempotencyKey: crypto.randomUUID() });
      for (
        const url of [
          "http://169.254.169.254/latest/meta-data",
          "https://example.com/a.jpg",
          "file:///etc/passwd",
          "storage://private/x/y/z",
          `storage://media/${ORG.easymo}/../x`,
        ]
      ) {
        const result = await call({ file_url: url, document_type: "id_card" });
        assert.equal(result.error.code, "VALIDATION_ERROR", url);
        assert.equal(result.error.fields[0].path, "file_url");
      }
      const foreign = await call({
        file_url: `storage://media/${ORG.beaver}/c/photo.jpg`,
        document_type: "id_card",
      });
      assert.equal(foreign.error.code, "AUTH_ERROR");
      const unknown = await call({
        file_url: `storage://media/${ORG.easymo}/c/p.jpg`,
        document_type: "passport",
      });
      assert.equal(unknown.error.code, "VALIDATION_ERROR");
      assert.equal(unknown.error.fields[0].path, "document_type");
      const missing = await call({
        file_url: `storage://media/${ORG.easymo}/c/none.jpg`,
        document_type: "id_card",
      });
      assert.equal(missing.error.code, "NOT_FOUND");
    } finally {
      await close();
    }
  },
);

dbTest(
  "ocr_extract with OpenAI vision: structured output checked; a provider failure invents nothing",
  async (db) => {
    await using openai = startScriptedOpenAI({
      script: [
        {
          content: JSON.stringify({
            page: "id_card",
            legibility: 0.95,
            fields: {
              full_name: "MUTONI GRACE",
              date_of_birth: "09/07/1991",
              sex: "F",
              place_of_issue: "HUYE",
              // An OCR-style slip the check must catch: the birth year in the ID says 1981.
              national_id: "1 1981 7 0012345 0 12",
              issue_date: "02/03/2020",
            },
          }),
        },
        { status: 500, error: "upstream failed", headers: { "x-should-retry": "false" } },
      ],
    });
    const engine = openaiEngine(openai);
    const { runtime, upload, storage, close } = await setup(db, engine);
    try {
      const first = await upload("13_id_card_clean.jpg");
      const ok = await runtime.callAs(USER.aline, "ocr_extract", {
        file_url: first.url,
        document_type: "id_card",
      }, { idempotencyKey: "openai-1" });
      assert.equal(ok.ok, true, JSON.stringify(ok));
      assert.equal(ok.data.provider, "openai");
      assert.equal(ok.data.fields.full_name, "MUTONI GRACE");
      assert.equal(ok.data.fields.national_id, "1198170012345012");
      assert.match(ok.data.notes.national_id, /birth year/);
      assert.ok(ok.data.field_confidence.national_id < 0.5);
      const sent: TestData = openai.requests[0].body;
      assert.equal(sent.response_format.type, "json_schema");
      assert.equal(sent.response_format.json_schema.strict, true);
      const image = sent.messages[1].content.find((part: { type: string }) =>
        part.type === "image_url"
      );
      assert.match(image.image_url.url, /^data:image\/jpeg;base64,\/9j\//);

      const second = await upload("14_id_card_rotated.jpg");
      const failed = await runtime.callAs(USER.aline, "ocr_extract", {
        file_url: second.url,
        document_type: "id_card",
      }, { idempotencyKey: "openai-2" });
      assert.equal(failed.ok, false);
      assert.equal(failed.error.code, "SERVICE_UNAVAILABLE");
      await storage.files.download({ bucket: "media", path: second.path });
      const [{ count }] = await db.query<{ count: number }>(
        "select count(*)::int as count from public.document_extractions",
      );
      assert.equal(count, 1);
    } finally {
      await close();
    }
  },
);

dbTest(
  "a thumbnail is refused as unreadable, a cut-off photo as damaged, before any engine reads them (no paid call)",
  async (db) => {
    await using openai = startScriptedOpenAI({ script: [] });
    const engine = openaiEngine(openai);
    const { runtime, upload, storage, close } = await setup(db, engine);
    try {
      const small = new Jimp({
        width: MIN_SIDE_PX * 2,
        height: MIN_SIDE_PX - 1,
        color: 0xffffffff,
      });
      const { url, path } = await upload(
        "sticker.jpg",
        new Uint8Array(await small.getBuffer("image/jpeg")),
      );
      const refused = await runtime.callAs(USER.aline, "ocr_extract", {
        file_url: url,
        document_type: "license",
      }, { idempotencyKey: "thumb-1" });
      assert.equal(refused.ok, false);
      assert.equal(refused.error.code, "VALIDATION_ERROR");
      assert.match(refused.error.msg, /too small to read \(400 × 199 pixels\)/);
      // The flow counts it as an unreadable photo (a retry, then staff after two).
      assert.deepEqual(refused.error.fields, [{ path: "file_url", message: "unreadable" }]);
      assert.deepEqual(refused.error.details, { refusal: "unreadable" });
      // Nothing was extracted, so the photo stays for staff to see.
      await storage.files.download({ bucket: "media", path });
      // A photo cut off in transit (its header whole) is damaged, found without the engine.
      const whole = new Uint8Array(
        await new Jimp({ width: 600, height: 400 }).getBuffer("image/jpeg"),
      );
      const cut = await upload("cut.jpg", whole.subarray(0, whole.length - 2));
      const damaged = await runtime.callAs(USER.aline, "ocr_extract", {
        file_url: cut.url,
        document_type: "license",
      }, { idempotencyKey: "cut-1" });
      assert.deepEqual(damaged.error?.details, { refusal: "damaged_file" });
      assert.equal(openai.requests.length, 0);
    } finally {
      await close();
    }
  },
);

Deno.test("file references: our Storage by bucket and path only", () => {
  assert.deepEqual(storageReference("storage://media/org/c/f.jpg"), {
    bucket: "media",
    path: "org/c/f.jpg",
  });
  assert.deepEqual(
    storageReference("https://x.supabase.co/storage/v1/object/sign/media/org/c/f.jpg?token=abc"),
    { bucket: "media", path: "org/c/f.jpg" },
  );
  assert.equal(storageReference("https://x.supabase.co/f.jpg"), null);
  assert.equal(storageReference("storage://media/org/%2e%2e/f.jpg"), null);
  assert.equal(storageReference("not a url"), null);
});

Deno.test("close the shared tesseract worker", async () => {
  await tesseract.close?.();
});
