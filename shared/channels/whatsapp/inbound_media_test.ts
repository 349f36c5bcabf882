import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { startFakeGraph } from "@testing/graph_server.ts";
import { memoryLogger } from "@shared/runtime/log.ts";
import { ORG } from "@testing/seed.ts";
import { startTestStorage } from "@testing/storage.ts";
import { type InboundMessage, parseDelivery } from "./inbound.ts";
import { withInboundMedia } from "./inbound_media.ts";
import { createGraphMediaSource } from "./media.ts";
import { messageDelivery, newWamid, type SimulatedContent } from "./payloads.ts";

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 2, 3]);

function inbound(content: SimulatedContent): InboundMessage {
  const parsed = parseDelivery(
    messageDelivery({ from: "250788555001", name: "Claudine", wamid: newWamid() }, content),
  );
  return parsed!.messages[0];
}

dbTest(
  "inbound media: two-step Graph download, checked, saved to Storage, then handled",
  async (db) => {
    await using graph = await startFakeGraph();
    const storage = await startTestStorage(db);
    try {
      const seen: InboundMessage[] = [];
      const handle = withInboundMedia((message) => {
        seen.push(message);
        return Promise.resolve();
      }, {
        db,
        orgId: ORG.easymo,
        source: createGraphMediaSource({ token: graph.token, baseUrl: graph.baseUrl }),
        files: storage.files,
        log: memoryLogger(),
      });

      const id = await graph.addMedia(JPEG, "image/jpeg");
      const message = inbound({
        media: { type: "image", id, mimeType: "image/jpeg", caption: "carte jaune" },
      });
      await handle(message);
      assert.equal(seen.length, 1);
      const content = seen[0].content;
      assert.ok(content.kind === "media" && content.stored);
      const [convo] = await db.query<{ id: string }>(
        `select c.id from public.conversations c join public.profiles p on p.id = c.user_id
       where p.phone = '+250788555001'`,
      );
      assert.equal(content.stored.path, `${ORG.easymo}/${convo.id}/${message.wamid}`);
      assert.equal(content.stored.size, JPEG.length);
      assert.equal(content.caption, "carte jaune");
      const saved = await storage.files.download({ bucket: "media", path: content.stored.path });
      assert.deepEqual(saved.bytes, JPEG);
      assert.equal(saved.contentType, "image/jpeg");
      // Both steps carried the token.
      assert.ok(
        graph.requests.filter((r) => r.path.includes(id) || r.path.includes("attach"))
          .every((r) => r.authorized),
      );

      // A retry of the same message saves the same file again, no conflict.
      await handle(message);
      assert.equal(seen.length, 2);
    } finally {
      await storage.close();
    }
  },
);

dbTest(
  "inbound media: a wrong type or size is answered in the user's language, nothing stored",
  async (db) => {
    await using graph = await startFakeGraph();
    const storage = await startTestStorage(db);
    try {
      const seen: InboundMessage[] = [];
      const handle = withInboundMedia((message) => {
        seen.push(message);
        return Promise.resolve();
      }, {
        db,
        orgId: ORG.easymo,
        source: createGraphMediaSource({ token: graph.token, baseUrl: graph.baseUrl }),
        files: storage.files,
        log: memoryLogger(),
      });
      const gif = await graph.addMedia(JPEG, "image/gif");
      await handle(inbound({ media: { type: "image", id: gif, mimeType: "image/gif" } }));
      // Meta says 6 MB: refused before the bytes are fetched.
      const big = await graph.addMedia(JPEG, "image/jpeg", { fileSize: 6 * 1024 * 1024 });
      await handle(
        inbound({
          media: {
            type: "image",
            id: big,
            mimeType: "image/jpeg",
            caption: "Muraho, ndashaka ubwishingizi bw'imodoka yanjye",
          },
        }),
      );
      assert.equal(seen.length, 0);
      const replies = await db.query<{ body: string }>(
        `select body from public.messages where direction = 'outbound' order by created_at`,
      );
      assert.equal(replies.length, 2);
      assert.match(replies[0].body, /JPEG or PNG/);
      assert.match(replies[1].body, /MB 5/);
      const outbox = await db.query(
        "select 1 from public.wa_outbox where to_wa_id = '250788555001'",
      );
      assert.equal(outbox.length, 2);
      assert.equal((await db.query("select 1 from storage.objects")).length, 0);
      assert.equal(graph.requests.filter((r) => r.path.includes("attachments")).length, 0);
    } finally {
      await storage.close();
    }
  },
);

dbTest(
  "inbound media: a sha256 mismatch, a 5xx, a 429 or a timeout throws (retried), nothing stored",
  async (db) => {
    await using graph = await startFakeGraph();
    const storage = await startTestStorage(db);
    try {
      const log = memoryLogger();
      // A generous time limit for the answers that come at once (a loaded machine may take a
      // while), a short one only where the answer is held back on purpose.
      const handler = (timeoutMs: number) =>
        withInboundMedia(() => Promise.resolve(), {
          db,
          orgId: ORG.easymo,
          source: createGraphMediaSource({ token: graph.token, baseUrl: graph.baseUrl, timeoutMs }),
          files: storage.files,
          log,
        });
      const handle = handler(10_000);
      const corrupt = await graph.addMedia(JPEG, "image/jpeg", { sha256: "ab".repeat(32) });
      await assert.rejects(
        handle(inbound({ media: { type: "image", id: corrupt, mimeType: "image/jpeg" } })),
        /sha256/,
      );
      const id = await graph.addMedia(JPEG, "image/jpeg");
      graph.scriptMedia(id, { status: 503 }, { status: 429 }, { status: 500 }, {
        status: 200,
        delayMs: 5_000,
      });
      const photo = inbound({ media: { type: "image", id, mimeType: "image/jpeg" } });
      await assert.rejects(handle(photo), /HTTP 503 \(code 2\)/);
      await assert.rejects(handle(photo), /HTTP 429 \(code 4\)/);
      await assert.rejects(handle(photo), /HTTP 500 \(code 1\)/);
      await assert.rejects(handler(200)(photo), (error: Error) => error.name === "TimeoutError");
      assert.equal(graph.mediaLookups(id), 4);
      assert.equal((await db.query("select 1 from storage.objects")).length, 0);
      assert.equal((await db.query("select 1 from public.messages")).length, 0);
      assert.deepEqual(log.lines, []);
    } finally {
      await storage.close();
    }
  },
);

dbTest(
  "inbound media: a refused id is answered, not thrown: 400/404 with a warning, 401/403 with an error and staff told",
  async (db) => {
    await using graph = await startFakeGraph();
    const storage = await startTestStorage(db);
    try {
      const log = memoryLogger();
      const refusals: string[] = [];
      const options = {
        db,
        orgId: ORG.easymo,
        source: createGraphMediaSource({ token: graph.token, baseUrl: graph.baseUrl }),
        files: storage.files,
        log,
        onCredentialsRefused: (refusal: { wamid: string }) => {
          refusals.push(refusal.wamid);
          return Promise.resolve();
        },
      };
      const handled: string[] = [];
      const handle = withInboundMedia((message) => {
        handled.push(message.wamid);
        return Promise.resolve();
      }, options);
      // Unknown to Meta (400, GraphMethodException 100/33), then expired (404).
      await handle(inbound({ media: { type: "image", id: "999", mimeType: "image/jpeg" } }));
      const expired = await graph.addMedia(JPEG, "image/jpeg");
      graph.scriptMedia(expired, { status: 404 });
      await handle(
        inbound({
          media: { type: "document", id: expired, mimeType: "application/pdf", caption: "bonjour" },
        }),
      );
      // Our token: expired (401, 190/463) and without the permission (403, code 10).
      const ours = await graph.addMedia(JPEG, "image/jpeg");
      graph.scriptMedia(ours, { status: 401 }, { status: 403 });
      const tokenRefused = inbound({ media: { type: "image", id: ours, mimeType: "image/jpeg" } });
      await handle(tokenRefused);
      const permissionRefused = inbound({
        media: { type: "image", id: ours, mimeType: "image/jpeg" },
      });
      await handle(permissionRefused);

      assert.deepEqual(handled, []);
      const replies = await db.query<{ body: string }>(
        "select body from public.messages where direction = 'outbound' order by seq",
      );
      assert.deepEqual(replies.map((reply) => reply.body), [
        "Sorry, I couldn't open your photo. Please send it again. Send 0 for the menu.",
        "Désolé, je n'ai pas pu ouvrir votre fichier. Merci de le renvoyer. Envoyez 0 pour le menu.",
        "Sorry, I couldn't open your photo because of a problem on our side. Our team has been " +
        "told. Please send it again a little later. Send 0 for the menu.",
        "Sorry, I couldn't open your photo because of a problem on our side. Our team has been " +
        "told. Please send it again a little later. Send 0 for the menu.",
      ]);
      assert.deepEqual(refusals, [tokenRefused.wamid, permissionRefused.wamid]);
      const logged = log.lines.map(({ level, event, status, code, subcode }) => ({
        level,
        event,
        status,
        code,
        subcode,
      }));
      assert.deepEqual(logged, [
        { level: "warn", event: "wa_media_unavailable", status: 400, code: 100, subcode: 33 },
        { level: "warn", event: "wa_media_unavailable", status: 404, code: 100, subcode: 33 },
        {
          level: "error",
          event: "wa_media_credentials_refused",
          status: 401,
          code: 190,
          subcode: 463,
        },
        {
          level: "error",
          event: "wa_media_credentials_refused",
          status: 403,
          code: 10,
          subcode: undefined,
        },
      ]);
      assert.ok(log.lines.every((line) => typeof line.fbtrace_id === "string"));
      assert.equal((await db.query("select 1 from storage.objects")).length, 0);
    } finally {
      await storage.close();
    }
  },
);
