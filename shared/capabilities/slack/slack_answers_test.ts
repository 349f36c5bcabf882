import assert from "node:assert/strict";
import { classifySlackFailure, classifySlackResponse, slackErrorWord } from "./mod.ts";

Deno.test("classifySlackResponse() takes any 2xx, retries 408/429/5xx, and is final otherwise", () => {
  for (const status of [200, 201, 202, 204]) {
    assert.deepEqual(classifySlackResponse(status, "ok"), { ok: true }, String(status));
  }
  assert.deepEqual(classifySlackResponse(429, "", 30_000), {
    ok: false,
    retryable: true,
    reason: "slack 429",
    retryAfterMs: 30_000,
  });
  for (const status of [408, 500, 502, 503]) {
    const answer = classifySlackResponse(status, "");
    assert.equal(answer.ok === false && answer.retryable, true, String(status));
  }
  for (
    const [status, word] of [
      [400, "invalid_payload"],
      [401, "invalid_token"],
      [403, "action_prohibited"],
      [404, "no_service"],
      [410, "channel_is_archived"],
    ] as const
  ) {
    assert.deepEqual(classifySlackResponse(status, word), {
      ok: false,
      retryable: false,
      reason: `slack ${status} ${word}`,
    });
  }
});

Deno.test("slackErrorWord() keeps Slack's one word and nothing else", () => {
  assert.equal(slackErrorWord(" no_service\n"), "no_service");
  assert.equal(slackErrorWord("<html>Bad gateway</html>"), null);
  assert.equal(slackErrorWord(""), null);
});

Deno.test("classifySlackFailure() is not_sent only when no connection was made", async () => {
  // A port nothing listens on: refused.
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response("ok"),
  );
  const port = server.addr.port;
  await server.shutdown();
  const refused = await fetch(`http://127.0.0.1:${port}/`, { method: "POST" }).catch((e) => e);
  assert.equal(classifySlackFailure(refused), "not_sent", String(refused));
  // A name that cannot resolve (RFC 2606 reserves .invalid).
  const unresolved = await fetch("http://hooks.slack.invalid/", { method: "POST" }).catch((e) => e);
  assert.equal(classifySlackFailure(unresolved), "not_sent", String(unresolved));
  // Timeouts and aborts may have reached Slack.
  assert.equal(
    classifySlackFailure(new DOMException("Signal timed out.", "TimeoutError")),
    "unknown",
  );
  assert.equal(classifySlackFailure(new DOMException("aborted", "AbortError")), "unknown");
  assert.equal(classifySlackFailure(new TypeError("connection reset by peer")), "unknown");
});
