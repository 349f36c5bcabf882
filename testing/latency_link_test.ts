import assert from "node:assert/strict";
import { openLatencyLink } from "./latency_link.ts";

Deno.test("latency link forwards both ways, in order, and closes cleanly", async () => {
  // An echo server that upper-cases what it gets.
  const server = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const conn of server) {
      (async () => {
        for await (const chunk of conn.readable.pipeThrough(new TextDecoderStream())) {
          await conn.write(new TextEncoder().encode(chunk.toUpperCase()));
        }
      })().catch(() => {});
    }
  })();
  const link = openLatencyLink({
    targetPort: (server.addr as Deno.NetAddr).port,
    roundTripMs: 2,
  });
  const client = await Deno.connect({ hostname: "127.0.0.1", port: link.port });
  const sent = Array.from({ length: 20 }, (_, i) => `chunk ${i};`);
  for (const chunk of sent) await client.write(new TextEncoder().encode(chunk));
  const expected = sent.join("").toUpperCase();
  let received = "";
  const reader = client.readable.pipeThrough(new TextDecoderStream()).getReader();
  while (received.length < expected.length) {
    const { value, done } = await reader.read();
    if (done) break;
    received += value;
  }
  assert.equal(received, expected);
  await reader.cancel();
  await link.close();
  server.close();
  await serving.catch(() => {});
});
