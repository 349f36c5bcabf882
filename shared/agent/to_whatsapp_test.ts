/** toWhatsApp(): an agent's reply as the WhatsApp message it becomes. */
import assert from "node:assert/strict";
import { toWhatsApp } from "./whatsapp_agent.ts";

Deno.test("toWhatsApp() sends a reply with a document as that document, its text the caption", () => {
  const link = "https://example.supabase.co/storage/v1/object/sign/documents/o/s.pdf?token=t";
  const message = toWhatsApp({
    text: `Your intake summary (PDF): ${link}`,
    document: { link, filename: "LC-2026-000001.pdf", mimeType: "application/pdf", size: 4_096 },
  });
  assert.equal(message.kind, "document");
  assert.deepEqual(message.body, {
    type: "document",
    document: {
      link,
      filename: "LC-2026-000001.pdf",
      caption: `Your intake summary (PDF): ${link}`,
    },
  });
});

Deno.test("toWhatsApp() refuses a document WhatsApp would not carry, naming it", () => {
  assert.throws(
    () =>
      toWhatsApp({
        text: "too big",
        document: {
          link: "https://example.com/x.pdf",
          filename: "x.pdf",
          mimeType: "application/pdf",
          size: 200 * 1024 * 1024,
        },
      }),
    /document/,
  );
});

Deno.test("toWhatsApp() keeps a plain reply as text", () => {
  assert.equal(toWhatsApp({ text: "Hello" }).kind, "text");
});
