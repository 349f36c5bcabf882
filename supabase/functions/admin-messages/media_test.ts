import assert from "node:assert/strict";
import { FILE_STORE } from "@shared/storage/file_store.ts";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import { createAdminApp } from "./app.ts";
import { attachmentOf, coarse } from "./media.ts";

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 9, 9]);

Deno.test("attachmentOf() rounds a location to 3 decimals and never exposes a Storage path", () => {
  assert.equal(coarse(-1.95304), -1.953);
  assert.equal(coarse(30.09056), 30.091);
  assert.deepEqual(
    attachmentOf({
      kind: "location",
      content: { kind: "location", latitude: -1.95304, longitude: 30.09056, name: "Kimihurura" },
    }),
    { kind: "location", latitude: -1.953, longitude: 30.091, name: "Kimihurura" },
  );
  const image = attachmentOf({
    kind: "media",
    content: {
      kind: "media",
      mediaType: "image",
      mediaId: "1",
      caption: "carte jaune",
      stored: { bucket: "media", path: "org/c/w", mimeType: "image/jpeg", size: 14, sha256: "x" },
    },
  });
  assert.deepEqual(image, {
    kind: "image",
    mime_type: "image/jpeg",
    caption: "carte jaune",
    size: 14,
    available: true,
  });
  assert.deepEqual(
    attachmentOf({
      kind: "document",
      body: { type: "document", document: { link: "https://x/y", filename: "c.pdf" } },
    }),
    { kind: "document", filename: "c.pdf", available: false },
  );
  assert.equal(attachmentOf({ kind: "text", content: { kind: "text", text: "hi" } }), null);
  assert.equal(attachmentOf(null), null);
});

/** Aline's conversation with a photo, a PDF and a location, and a ticket on it. */
async function seedThread(
  db: TestDatabase,
  files: import("@shared/storage/file_store.ts").FileStore,
) {
  const [conversation] = await db.query<{ id: string }>(
    `insert into public.conversations (org_id, user_id, channel) values ($1, $2, 'whatsapp') returning id`,
    [ORG.easymo, USER.aline],
  );
  const imagePath = `${ORG.easymo}/${conversation.id}/wamid.photo`;
  const pdfPath = `${ORG.easymo}/${conversation.id}/wamid.pdf`;
  await files.upload({ bucket: "media", path: imagePath, bytes: JPEG, contentType: "image/jpeg" });
  const pdf = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");
  await files.upload({
    bucket: "media",
    path: pdfPath,
    bytes: pdf,
    contentType: "application/pdf",
  });
  const insert = async (payload: unknown) => {
    const [row] = await db.query<{ id: string }>(
      `insert into public.messages (org_id, conversation_id, user_id, direction, sender, body, payload)
       values ($1, $2, $3, 'inbound', 'user', null, $4) returning id`,
      [ORG.easymo, conversation.id, USER.aline, payload],
    );
    return row.id;
  };
  const stored = (path: string, mimeType: string, size: number) => ({
    bucket: "media",
    path,
    mimeType,
    size,
    sha256: "0".repeat(64),
  });
  const image = await insert({
    kind: "media",
    content: {
      kind: "media",
      mediaType: "image",
      mediaId: "11",
      caption: "carte jaune",
      stored: stored(imagePath, "image/jpeg", JPEG.length),
    },
  });
  const document = await insert({
    kind: "media",
    content: {
      kind: "media",
      mediaType: "document",
      mediaId: "12",
      filename: "quote.pdf",
      stored: stored(pdfPath, "application/pdf", pdf.length),
    },
  });
  const location = await insert({
    kind: "location",
    content: { kind: "location", latitude: -1.953049, longitude: 30.090512, name: "Kimihurura" },
  });
  // A payload pointing at another org's file (it cannot happen through the worker).
  const foreign = await insert({
    kind: "media",
    content: {
      kind: "media",
      mediaType: "image",
      mediaId: "13",
      stored: stored(`${ORG.beaver}/x/wamid.y`, "image/jpeg", 3),
    },
  });
  return { conversation: conversation.id, image, document, location, foreign, pdf };
}

dbTest(
  "admin-messages media: staff get a short-lived link to their org's file; other org's staff 404, customers 403",
  async (db) => {
    const storage = await startTestStorage(db);
    const rt = await createTestRuntime(db, {
      provide: [{ key: FILE_STORE, value: storage.files }],
    });
    const app = createAdminApp(rt);
    try {
      const thread = await seedThread(db, storage.files);
      const ticket = await rt.callAs(USER.aline, "notify_staff", {
        channel: "inbox",
        payload: { convo_id: thread.conversation, reason: "document check", summary: "Photo sent" },
      }, { idempotencyKey: crypto.randomUUID() });
      assert.ok(ticket.ok, JSON.stringify(ticket));
      const call = async (userId: string | null, path: string) => {
        const token = userId ? await rt.tokenFor(userId) : null;
        const response = await app.request(`/admin-messages${path}`, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
        return { status: response.status, body: await response.json() };
      };

      // The transcript: attachments, coarse coordinates, no Storage path.
      const detail = await call(USER.jean, `/tickets/${ticket.data.ticket_id}`);
      assert.equal(detail.status, 200, JSON.stringify(detail.body));
      const byId = new Map(
        (detail.body.data.messages as Array<{ id: string; attachment: unknown }>)
          .map((m) => [m.id, m.attachment]),
      );
      assert.deepEqual(byId.get(thread.location), {
        kind: "location",
        latitude: -1.953,
        longitude: 30.091,
        name: "Kimihurura",
      });
      assert.deepEqual(byId.get(thread.document), {
        kind: "document",
        mime_type: "application/pdf",
        filename: "quote.pdf",
        size: thread.pdf.length,
        available: true,
      });
      assert.ok(!JSON.stringify(detail.body).includes("wamid.photo"), "no Storage path leaks");

      // EasyMO staff: a signed link that serves the bytes.
      const image = await call(USER.jean, `/messages/${thread.image}/media`);
      assert.equal(image.status, 200, JSON.stringify(image.body));
      assert.equal(image.body.data.mime_type, "image/jpeg");
      const expiresIn = Date.parse(image.body.data.expires_at) - Date.now();
      assert.ok(expiresIn > 0 && expiresIn <= 300_000, `expires in ${expiresIn} ms`);
      const bytes = new Uint8Array(await (await fetch(image.body.data.url)).arrayBuffer());
      assert.deepEqual(bytes, JPEG);
      const pdf = await call(USER.grace, `/messages/${thread.document}/media`);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.body.data.filename, "quote.pdf");

      // Beaver's staff: the same ids do not exist for them.
      for (const id of [thread.image, thread.document]) {
        const other = await call(USER.paul, `/messages/${id}/media`);
        assert.equal(other.status, 404, JSON.stringify(other.body));
        assert.equal(other.body.error.code, "NOT_FOUND");
      }
      // The customer: staff only.
      assert.equal((await call(USER.aline, `/messages/${thread.image}/media`)).status, 403);
      assert.equal((await call(null, `/messages/${thread.image}/media`)).status, 401);
      // A location has no file; a malformed id or a path outside the org is not found.
      for (const id of [thread.location, "not-a-uuid", thread.foreign, crypto.randomUUID()]) {
        const missing = await call(USER.jean, `/messages/${id}/media`);
        assert.equal(missing.status, 404, `${id}: ${JSON.stringify(missing.body)}`);
      }
      // The file gone from Storage (the retention sweep): not found, not a broken link.
      await storage.files.remove({
        bucket: "media",
        paths: [`${ORG.easymo}/${thread.conversation}/wamid.photo`],
      });
      assert.equal((await call(USER.jean, `/messages/${thread.image}/media`)).status, 404);
    } finally {
      await rt.platform.close();
      await storage.close();
    }
  },
);

dbTest(
  "admin-messages ticket of a legal case: its documents as short-lived links, for the org's staff only",
  async (db) => {
    const storage = await startTestStorage(db);
    const rt = await createTestRuntime(db, {
      provide: [{ key: FILE_STORE, value: storage.files }],
    });
    const app = createAdminApp(rt);
    try {
      for (
        const [name, bytes, type] of [["id.jpg", JPEG, "image/jpeg"], [
          "gone.jpg",
          JPEG,
          "image/jpeg",
        ]] as const
      ) {
        await storage.files.upload({
          bucket: "media",
          path: `${ORG.easymo}/legal-test/${name}`,
          bytes,
          contentType: type,
        });
      }
      const args = {
        category: "land",
        summary: "A neighbour built a wall on my plot in Gasabo last month.",
        docs: [`${ORG.easymo}/legal-test/id.jpg`, `${ORG.easymo}/legal-test/gone.jpg`].map((p) =>
          `storage://media/${p}`
        ),
        client_name: "Aline Uwase",
        client_phone: "+250788000001",
      };
      const asked = await rt.callAs(USER.jean, "case_intake", args, { idempotencyKey: "case-1" });
      const filed = await rt.callAs(USER.jean, "case_intake", args, {
        idempotencyKey: "case-1",
        confirmation: asked.error.confirmation.token,
      });
      assert.ok(filed.ok, JSON.stringify(filed));
      // One file leaves Storage after filing: counted, not a broken link.
      await storage.files.remove({ bucket: "media", paths: [`${ORG.easymo}/legal-test/gone.jpg`] });
      const call = async (userId: string) => {
        const response = await app.request(`/admin-messages/tickets/${filed.data.ticket_id}`, {
          headers: { authorization: `Bearer ${await rt.tokenFor(userId)}` },
        });
        return { status: response.status, body: await response.json() };
      };
      const detail = await call(USER.jean);
      assert.equal(detail.status, 200, JSON.stringify(detail.body));
      const legal = detail.body.data.legal_case;
      assert.equal(legal.reference_number, filed.data.reference_number);
      assert.equal(legal.category, "land");
      assert.equal(legal.unlinked, 1);
      assert.deepEqual(
        legal.documents.map((d: { number: number; image: boolean; mime_type: string }) => [
          d.number,
          d.image,
          d.mime_type,
        ]),
        [[1, true, "image/jpeg"]],
      );
      const bytes = new Uint8Array(await (await fetch(legal.documents[0].url)).arrayBuffer());
      assert.deepEqual(bytes, JPEG);
      // Beaver's staff do not find the ticket at all.
      assert.equal((await call(USER.paul)).status, 404);
      // A ticket of no case has none.
      const plain = await rt.callAs(USER.aline, "notify_staff", {
        channel: "inbox",
        payload: { reason: "question", summary: "Hello" },
      }, { idempotencyKey: crypto.randomUUID() });
      const response = await app.request(`/admin-messages/tickets/${plain.data.ticket_id}`, {
        headers: { authorization: `Bearer ${await rt.tokenFor(USER.jean)}` },
      });
      assert.equal((await response.json()).data.legal_case, null);
    } finally {
      await rt.platform.close();
      await storage.close();
    }
  },
);
