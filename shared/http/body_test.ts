import assert from "node:assert/strict";
import { sendChunked } from "@testing/raw_http.ts";
import { readBody, refusalResponse } from "./body.ts";

const LIMIT = 1024 * 1024;

/** A real server on 127.0.0.1 whose handler reads the body through readBody. */
function serve(timeoutMs = 10_000) {
  let bytesSeen = -1;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (request) => {
      const read = await readBody(request, { maxBytes: LIMIT, timeoutMs });
      if (!read.ok) return refusalResponse(read);
      bytesSeen = read.bytes.byteLength;
      return Response.json({ ok: true, data: { bytes: bytesSeen } });
    },
  );
  return { server, port: (server.addr as Deno.NetAddr).port, seen: () => bytesSeen };
}

Deno.test("a 600 MB chunked body is refused with 413 after about the limit, never read in full", async () => {
  const { server, port } = serve();
  try {
    const exchange = await sendChunked({ path: "/", port, totalBytes: 600 * 1024 * 1024 });
    assert.equal(exchange.status, 413);
    assert.match(exchange.response, /"code":"VALIDATION_ERROR"/);
    assert.equal(exchange.sentAll, false);
    // The limit plus what the sockets' buffers hold, far from 600 MB.
    assert.ok(exchange.sentBytes < 64 * 1024 * 1024, `sent ${exchange.sentBytes} bytes`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a declared Content-Length over the limit is refused before reading", async () => {
  const { server, port } = serve();
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(
      `POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${600 * 1024 * 1024}\r\n\r\n`,
    ));
    const buffer = new Uint8Array(4096);
    const n = await conn.read(buffer);
    conn.close();
    assert.match(new TextDecoder().decode(buffer.subarray(0, n ?? 0)), /^HTTP\/1\.1 413/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a body within the limit is read whole; chunked or not", async () => {
  const { server, port } = serve();
  try {
    const exchange = await sendChunked({ path: "/", port, totalBytes: LIMIT, chunkBytes: 4096 });
    assert.equal(exchange.status, 200);
    assert.equal(exchange.sentAll, true);
    assert.match(exchange.response, new RegExp(`"bytes":${LIMIT}`));
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" });
    assert.deepEqual(await response.json(), { ok: true, data: { bytes: 2 } });
  } finally {
    await server.shutdown();
  }
});

Deno.test("a body that trickles in is cut off with 408 at its deadline", async () => {
  const { server, port, seen } = serve(300);
  try {
    const exchange = await sendChunked({
      path: "/",
      port,
      totalBytes: 1024,
      chunkBytes: 1,
      pauseMs: 50,
    });
    assert.equal(exchange.status, 408);
    assert.match(exchange.response, /"code":"TIMEOUT"/);
    assert.equal(exchange.sentAll, false);
    assert.equal(seen(), -1);
  } finally {
    await server.shutdown();
  }
});

Deno.test("a request whose headers end but whose body never comes times out", async () => {
  const { server, port } = serve(300);
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode(
      "POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{",
    ));
    const buffer = new Uint8Array(4096);
    const n = await conn.read(buffer);
    conn.close();
    assert.match(new TextDecoder().decode(buffer.subarray(0, n ?? 0)), /^HTTP\/1\.1 408/);
  } finally {
    await server.shutdown();
  }
});
