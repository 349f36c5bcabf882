import assert from "node:assert/strict";
import { ToolFailure } from "@shared/contract/mod.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { dbTest } from "@testing/db.ts";
import { startFakeGraph } from "@testing/graph_server.ts";
import { ORG } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import { createDispatcher } from "./dispatcher.ts";
import {
  assertMessage,
  documentMessage,
  imageMessage,
  OUTBOUND_MEDIA_LIMITS,
  templateDocumentHeader,
  templateMessage,
} from "./messages.ts";
import { enqueueMessage } from "./outbox.ts";
import { recordInbound } from "./window.ts";

const PDF = new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const LINK = "https://example.supabase.co/storage/v1/object/sign/documents/o/c.pdf?token=t";
const PDF_FILE = { mimeType: "application/pdf", size: PDF.length };
const CLAUDINE = "250788555123";

function validationFields(error: unknown): string[] {
  assert.ok(error instanceof ToolFailure, String(error));
  assert.equal(error.code, "VALIDATION_ERROR");
  return (error.fields ?? []).map((field) => field.path);
}

Deno.test("documentMessage() builds Meta's document body by link or by media id", () => {
  const byLink = documentMessage({
    link: LINK,
    filename: "certificate.pdf",
    caption: "Your certificate",
    file: PDF_FILE,
  });
  assert.deepEqual(byLink, {
    kind: "document",
    body: {
      type: "document",
      document: { link: LINK, filename: "certificate.pdf", caption: "Your certificate" },
    },
  });
  const byId = documentMessage({ mediaId: "1234567890", filename: "q.pdf", file: PDF_FILE });
  assert.deepEqual(byId.body.document, { id: "1234567890", filename: "q.pdf" });
  // What the outbox reads back passes the same checks.
  assert.deepEqual(assertMessage(byLink), byLink);
  const image = imageMessage({ link: LINK, file: { mimeType: "image/png", size: 10 } });
  assert.deepEqual(image.body, { type: "image", image: { link: LINK } });
});

Deno.test("documentMessage() and imageMessage() name the malformed field", () => {
  assert.throws(
    () => documentMessage({ filename: "c.pdf", file: PDF_FILE }),
    /Cannot build a document message as link or id is required/,
  );
  assert.throws(
    () => documentMessage({ link: LINK, mediaId: "1", filename: "c.pdf", file: PDF_FILE }),
    /link or id is required, not both/,
  );
  assert.throws(
    () => documentMessage({ link: "file:///etc/passwd", filename: "c.pdf", file: PDF_FILE }),
    /link must be an http\(s\) URL/,
  );
  assert.throws(
    () => documentMessage({ link: "https://u:p@example.com/c", filename: "c.pdf", file: PDF_FILE }),
    /must not carry a user name or password/,
  );
  assert.throws(
    () => documentMessage({ link: LINK, filename: "../c.pdf", file: PDF_FILE }),
    /filename must be a file name without slashes/,
  );
  assert.throws(
    () => imageMessage({ link: LINK, caption: "x".repeat(1025), file: PDF_FILE }),
    /caption must be at most 1024 characters: current length is 1025/,
  );
});

Deno.test("documentMessage() refuses a file WhatsApp would not carry: VALIDATION_ERROR with the field", () => {
  const max = OUTBOUND_MEDIA_LIMITS.document.maxBytes;
  assert.equal(max, 100 * 1024 * 1024);
  assert.ok(documentMessage({
    link: LINK,
    filename: "big.pdf",
    file: { mimeType: "application/pdf", size: max },
  }));
  assert.throws(
    () =>
      documentMessage({
        link: LINK,
        filename: "huge.pdf",
        file: { mimeType: "application/pdf", size: max + 1 },
      }),
    (error) => validationFields(error).join() === "size",
  );
  assert.throws(
    () =>
      documentMessage({
        link: LINK,
        filename: "a.zip",
        file: { mimeType: "application/zip", size: 10 },
      }),
    (error) => validationFields(error).join() === "mimeType",
  );
  assert.throws(
    () => imageMessage({ link: LINK, file: { mimeType: "image/jpeg", size: 5 * 1024 * 1024 + 1 } }),
    (error) => validationFields(error).join() === "size",
  );
  assert.throws(
    () => imageMessage({ link: LINK, file: { mimeType: "image/gif", size: 10 } }),
    (error) => validationFields(error).join() === "mimeType",
  );
});

dbTest(
  "a document goes out by a signed Storage link: Meta's wire format, Meta fetches the PDF; " +
    "outside the window its template carries the document header; a repeated key queues once",
  async (db) => {
    await using graph = await startFakeGraph();
    const storage = await startTestStorage(db);
    try {
      const path = `${ORG.easymo}/certificates/c-1.pdf`;
      await storage.files.upload({
        bucket: "documents",
        path,
        bytes: PDF,
        contentType: "application/pdf",
      });
      const { url } = await storage.files.signedUrl({
        bucket: "documents",
        path,
        expiresInSeconds: 7 * 86_400,
      });
      const message = documentMessage({
        link: url,
        filename: "certificate.pdf",
        caption: "Your insurance certificate",
        file: PDF_FILE,
      });
      const fallbackTemplate = templateMessage({
        name: "document_ready",
        language: "en",
        components: [
          templateDocumentHeader({ link: url, filename: "certificate.pdf" }),
          { type: "body", parameters: [{ type: "text", text: "Insurance certificate" }] },
        ],
      });
      const dispatcher = createDispatcher({
        db,
        transport: graph.adapter(),
        log: memoryLogger(),
        pairIntervalMs: 0,
      });

      // Inside the window: the document itself.
      await recordInbound(db, { waId: CLAUDINE, orgId: ORG.easymo, at: new Date() });
      const enqueue = () =>
        enqueueMessage(db, {
          orgId: ORG.easymo,
          to: CLAUDINE,
          message,
          idempotencyKey: "certificate:c-1",
          fallbackTemplate,
        });
      const id = await enqueue();
      assert.equal(await enqueue(), id, "the same key queues nothing new");
      assert.equal((await dispatcher.drain()).sent, 1);
      assert.equal(graph.accepted.length, 1);
      const sent = graph.accepted[0];
      assert.equal(sent.body.type, "document");
      assert.deepEqual(sent.body.document, {
        link: url,
        filename: "certificate.pdf",
        caption: "Your insurance certificate",
      });
      assert.ok(sent.fetched && "bytes" in sent.fetched, JSON.stringify(sent.fetched));
      assert.equal(sent.fetched.status, 200);
      assert.deepEqual(sent.fetched.bytes, PDF);
      assert.equal(sent.fetched.mimeType, "application/pdf");
      const [row] = await db.query<{ kind: string; status: string; wamid: string }>(
        "select kind, status, wamid from public.wa_outbox where id = $1",
        [id],
      );
      assert.deepEqual(row, { kind: "document", status: "sent", wamid: sent.wamid });

      // Outside the window: the approved template with the same document as its header.
      await db.query(
        "update public.wa_contacts set last_inbound_at = now() - interval '25 hours' where wa_id = $1",
        [CLAUDINE],
      );
      await enqueueMessage(db, {
        orgId: ORG.easymo,
        to: CLAUDINE,
        message,
        idempotencyKey: "certificate:c-1:again",
        fallbackTemplate,
      });
      assert.equal((await dispatcher.drain()).sent, 1);
      const template = graph.accepted[1].body;
      assert.equal(template.type, "template");
      assert.deepEqual(
        (template.template as { components: unknown[] }).components[0],
        {
          type: "header",
          parameters: [{ type: "document", document: { link: url, filename: "certificate.pdf" } }],
        },
      );
      await dispatcher.stop();
    } finally {
      await storage.close();
    }
  },
);

dbTest("an uploaded media id Meta does not know is refused by the Graph API", async (db) => {
  await using graph = await startFakeGraph();
  await recordInbound(db, { waId: CLAUDINE, orgId: ORG.easymo, at: new Date() });
  await enqueueMessage(db, {
    orgId: ORG.easymo,
    to: CLAUDINE,
    message: imageMessage({ mediaId: "999", file: { mimeType: "image/jpeg", size: 10 } }),
    idempotencyKey: "image:unknown-id",
  });
  const dispatcher = createDispatcher({
    db,
    transport: graph.adapter(),
    log: memoryLogger(),
    pairIntervalMs: 0,
  });
  const summary = await dispatcher.drain();
  assert.equal(summary.failed, 1);
  const [row] = await db.query<{ status: string; last_error_code: number }>(
    "select status, last_error_code from public.wa_outbox where idempotency_key = 'image:unknown-id'",
  );
  assert.deepEqual(row, { status: "failed", last_error_code: 100 });
  await dispatcher.stop();
});
