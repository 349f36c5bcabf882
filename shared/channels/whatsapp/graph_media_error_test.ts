import assert from "node:assert/strict";
import { classifyGraphMediaFailure, GraphMediaError, readGraphError } from "./graph_media_error.ts";

Deno.test("classifyGraphMediaFailure() retries only 408, 429, 5xx and Meta's temporary codes", () => {
  const cases: Array<[number, number | undefined, string]> = [
    [400, 100, "gone"], // unknown or expired id (subcode 33)
    [404, 100, "gone"],
    [404, undefined, "gone"],
    [410, undefined, "gone"],
    [400, 131052, "gone"], // media download error
    [401, 190, "credentials"],
    [403, 10, "credentials"],
    [403, undefined, "credentials"],
    [400, 190, "credentials"], // Meta answers some expired tokens with 400
    [400, 200, "credentials"], // permission error
    [408, undefined, "transient"],
    [429, undefined, "transient"],
    [400, 4, "transient"], // the app's request limit, answered with 400
    [400, 80007, "transient"],
    [400, 131016, "transient"], // service unavailable
    [500, 1, "transient"],
    [502, undefined, "transient"],
    [503, 2, "transient"],
  ];
  for (const [status, code, kind] of cases) {
    assert.equal(
      classifyGraphMediaFailure(status, code === undefined ? {} : { code }),
      kind,
      `${status} ${code}`,
    );
  }
});

Deno.test("readGraphError() reads Meta's error envelope and nothing else", async () => {
  const meta = new Response(
    JSON.stringify({
      error: {
        message: "Unsupported get request. Object with ID '1' does not exist",
        type: "GraphMethodException",
        code: 100,
        error_subcode: 33,
        fbtrace_id: "AbC123",
      },
    }),
    { status: 400 },
  );
  const detail = await readGraphError(meta);
  assert.deepEqual(detail, {
    code: 100,
    subcode: 33,
    type: "GraphMethodException",
    message: "Unsupported get request. Object with ID '1' does not exist",
    fbtraceId: "AbC123",
  });
  const error = new GraphMediaError(400, detail);
  assert.equal(error.kind, "gone");
  assert.equal(error.message, "Graph media lookup failed: HTTP 400 (code 100, subcode 33)");
  assert.deepEqual(await readGraphError(new Response("<html>Bad Gateway</html>")), {});
  assert.deepEqual(await readGraphError(new Response('{"error":"nope"}')), {});
  assert.deepEqual(await readGraphError(new Response('{"error":{"code":"100"}}')), {});
});
