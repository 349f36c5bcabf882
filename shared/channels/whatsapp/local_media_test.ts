import assert from "node:assert/strict";
import { createLocalMediaServer, LOCAL_GRAPH_PREFIX, uploadMedia } from "./local_media.ts";
import { createGraphMediaSource, MEDIA_LIMITS } from "./media.ts";

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]);

async function withServer(fn: (base: string, token: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "easymo_wa_media_" });
  const token = "local-media-token";
  const media = createLocalMediaServer({ root, token, maxBytes: 1024 });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, media.fetch);
  try {
    await fn(`http://127.0.0.1:${(server.addr as Deno.NetAddr).port}${LOCAL_GRAPH_PREFIX}`, token);
  } finally {
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("local media: an upload comes back through the Graph two-step download", async () => {
  await withServer(async (baseUrl, token) => {
    const id = await uploadMedia({
      baseUrl,
      phoneNumberId: "100000000000001",
      token,
      bytes: JPEG,
      mimeType: "image/jpeg",
      filename: "carte.jpg",
    });
    assert.match(id, /^\d{16}$/);
    const source = createGraphMediaSource({ token, baseUrl });
    const fetched = await source.fetch(id, MEDIA_LIMITS.image);
    assert.ok("bytes" in fetched);
    assert.deepEqual(fetched.bytes, JPEG);
    assert.equal(fetched.mimeType, "image/jpeg");
    // The media type WhatsApp would not carry for an image is refused by the same path.
    assert.deepEqual(await source.fetch(id, MEDIA_LIMITS.document), { refused: "type" });
  });
});

Deno.test("local media: a wrong token, an unknown id and an oversized upload are refused", async () => {
  await withServer(async (baseUrl, token) => {
    const wrong = await fetch(`${baseUrl}/1234`, { headers: { authorization: "Bearer nope" } });
    assert.equal(wrong.status, 401);
    assert.equal((await wrong.json()).error.code, 190);
    await assert.rejects(
      () => createGraphMediaSource({ token, baseUrl }).fetch("1234", MEDIA_LIMITS.image),
      /Graph media lookup failed: HTTP 400/,
    );
    await assert.rejects(
      () =>
        uploadMedia({
          baseUrl,
          phoneNumberId: "1",
          token,
          bytes: new Uint8Array(4096),
          mimeType: "application/pdf",
          filename: "big.pdf",
        }),
      /media upload refused \(400\): \(#131053\) File too large/,
    );
    const notMultipart = await fetch(`${baseUrl}/1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(notMultipart.status, 400);
    assert.equal((await notMultipart.json()).error.code, 100);
  });
});
