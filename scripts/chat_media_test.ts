/**
 * The simulator's media commands end to end: `/image` and `/doc` upload a
 * file to the dev server's local Graph media endpoints and send the message;
 * the worker downloads it through the production two-step path and saves it
 * to Storage; a type WhatsApp does not carry is answered, nothing stored.
 *
 * @module
 */
import assert from "node:assert/strict";
import { startTestDevServer } from "@testing/dev_cli.ts";
import { messageLines, mimeTypeOf } from "./_chat_render.ts";

const ALINE = "00000000-0000-4000-8000-000000000001";
// A 1×1 PNG.
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);
const PDF = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");

Deno.test("mimeTypeOf() gives a phone's content type by extension", () => {
  assert.equal(mimeTypeOf("carte.JPG"), "image/jpeg");
  assert.equal(mimeTypeOf("/tmp/q.pdf"), "application/pdf");
  assert.equal(mimeTypeOf("archive.zip"), "application/octet-stream");
});

Deno.test("messageLines() shows an outbound document or image by its name and link", () => {
  const link = "http://127.0.0.1:54321/storage/v1/object/sign/documents/o/c.pdf?token=t";
  assert.deepEqual(
    messageLines({
      type: "document",
      document: { link, filename: "certificate.pdf", caption: "Your certificate" },
    }),
    ["📄 certificate.pdf — Your certificate", `   ${link}`],
  );
  assert.deepEqual(messageLines({ type: "image", image: { id: "123" } }), [
    "🖼 photo",
    "   media id 123",
  ]);
  const template = messageLines({
    type: "template",
    template: {
      name: "document_ready",
      language: { code: "en" },
      components: [
        {
          type: "header",
          parameters: [{ type: "document", document: { link, filename: "c.pdf" } }],
        },
        { type: "body", parameters: [{ type: "text", text: "Insurance certificate" }] },
      ],
    },
  });
  assert.deepEqual(template.slice(0, 2), ["📄 c.pdf", `   ${link}`]);
  assert.match(template[2], /^template document_ready \(en\): .*Insurance certificate/);
});

Deno.test({
  name: "chat: /image and /doc upload to the local Graph, the file is saved to Storage; " +
    "a type WhatsApp refuses is answered and not stored",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startTestDevServer({ prefix: "easymo-chat-media-" });
    const { root, env } = server;
    try {
      await Deno.writeFile(`${root}/carte.png`, PNG);
      await Deno.writeFile(`${root}/quote.pdf`, PDF);
      await Deno.writeFile(`${root}/notes.zip`, new Uint8Array([80, 75, 3, 4]));
      const script = `${root}/script.txt`;
      await Deno.writeTextFile(
        script,
        [
          `/image ${root}/carte.png voici ma carte jaune du véhicule`,
          `/doc ${root}/quote.pdf`,
          `/doc ${root}/notes.zip`,
          `/doc ${root}/missing.pdf`,
          "/quit",
        ].join("\n"),
      );
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "scripts/chat.ts", "--url", server.url, "--script", script],
        env,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(output.stdout);
      assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
      // Aline's profile says Kinyarwanda, but she captioned her photo in French: the
      // conversation's language became hers, and the refusal is in French.
      assert.match(stdout, /je ne peux pas recevoir ce type de fichier/);
      assert.match(stdout, /✗ cannot read .*missing\.pdf/);

      // A turn's transcript commits when its answer does: the photo's waits for the OCR,
      // which a busy machine may not finish before the simulator quits.
      const inbound = () =>
        server.runtime.platform.db.query<{ content: Record<string, unknown> }>(
          `select payload->'content' as content from public.messages
           where user_id = $1 and direction = 'inbound' and payload->>'kind' = 'media'
           order by created_at`,
          [ALINE],
        );
      let rows = await inbound();
      for (let waited = 0; rows.length < 3 && waited < 120_000; waited += 250) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        rows = await inbound();
      }
      const stored = rows.map((row) => row.content)
        .filter((content) => content.stored) as Array<
          { mediaType: string; caption?: string; filename?: string; stored: { path: string } }
        >;
      assert.deepEqual(stored.map((c) => [c.mediaType, c.caption ?? c.filename]), [
        ["image", "voici ma carte jaune du véhicule"],
        ["document", "quote.pdf"],
      ]);
      const files = server.runtime.platform.files;
      const image = await files.download({ bucket: "media", path: stored[0].stored.path });
      assert.deepEqual(image.bytes, PNG);
      assert.equal(image.contentType, "image/png");
      const pdf = await files.download({ bucket: "media", path: stored[1].stored.path });
      assert.deepEqual(pdf.bytes, PDF);
      // The zip reached the conversation's transcript as a refusal, not a file.
      assert.equal(rows.length, 3);
      assert.equal(rows[2].content.stored, undefined);
    } finally {
      await server.close();
    }
  },
});
