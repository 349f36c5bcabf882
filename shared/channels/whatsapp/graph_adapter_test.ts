import assert from "node:assert/strict";
import { createGraphAdapter } from "./graph_adapter.ts";
import { createLocalAdapter } from "./local_adapter.ts";
import { buttonsMessage, templateMessage, textMessage } from "./messages.ts";
import { type FakeGraph, startFakeGraph } from "@testing/graph_server.ts";

const WA = "250788123456";

function adapterFor(graph: FakeGraph, options: { token?: string; timeoutMs?: number } = {}) {
  return createGraphAdapter({
    token: options.token ?? graph.token,
    phoneNumberId: graph.phoneNumberId,
    baseUrl: graph.baseUrl,
    timeoutMs: options.timeoutMs,
  });
}

Deno.test("createGraphAdapter() posts Meta's request and returns the wamid", async () => {
  await using graph = await startFakeGraph();
  const transport = adapterFor(graph);
  const message = buttonsMessage({ body: "Open?", buttons: [{ id: "y", title: "Yes" }] });
  const result = await transport.send(WA, message.body);
  assert.ok(result.ok);
  assert.match(result.wamid, /^wamid\./);
  assert.equal(graph.requests.length, 1);
  const [request] = graph.requests;
  assert.equal(request.path, `/v21.0/${graph.phoneNumberId}/messages`);
  assert.equal(request.authorized, true);
  assert.deepEqual(request.body, {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: WA,
    ...message.body,
  });
  assert.equal(graph.accepted[0].wamid, result.wamid);

  const template = await transport.send(WA, templateMessage({ name: "hi", language: "en" }).body);
  assert.ok(template.ok);
});

Deno.test("createGraphAdapter() reads Meta's error envelope", async () => {
  await using graph = await startFakeGraph({
    responses: {
      [WA]: [{ code: 131047 }, { code: 130429, retryAfterSec: 3 }, { code: 131056 }],
    },
  });
  const transport = adapterFor(graph);
  const body = textMessage("hi").body;
  assert.deepEqual(await transport.send(WA, body), {
    ok: false,
    code: 131047,
    title: "Re-engagement message",
    details: "Message failed to send because more than 24 hours have passed since the " +
      "customer last replied to this number.",
    retryable: false,
  });
  const throttled = await transport.send(WA, body);
  assert.ok(!throttled.ok);
  assert.equal(throttled.code, 130429);
  assert.equal(throttled.retryable, true);
  assert.equal(throttled.retryAfterMs, 3000);
  const pair = await transport.send(WA, body);
  assert.ok(!pair.ok);
  assert.equal(pair.code, 131056);
  assert.equal(pair.retryable, true);
  // Script used up: success again.
  assert.ok((await transport.send(WA, body)).ok);
});

Deno.test("createGraphAdapter() reports a bad token or number id without leaking the token", async () => {
  await using graph = await startFakeGraph();
  const secret = "EAAG-very-secret-token";
  const badToken = await adapterFor(graph, { token: secret }).send(WA, textMessage("x").body);
  assert.ok(!badToken.ok);
  assert.equal(badToken.code, 190);
  assert.equal(badToken.retryable, false);
  assert.ok(!JSON.stringify(badToken).includes(secret));
  assert.equal(graph.requests[0].authorized, false);

  const wrongNumber = await createGraphAdapter({
    token: graph.token,
    phoneNumberId: "999",
    baseUrl: graph.baseUrl,
  }).send(WA, textMessage("x").body);
  assert.ok(!wrongNumber.ok);
  assert.equal(wrongNumber.code, 100);
  assert.match(wrongNumber.title, /Unsupported post request/);
  assert.equal(graph.accepted.length, 0);
});

Deno.test("createGraphAdapter() treats replies without a Graph envelope by status", async () => {
  await using graph = await startFakeGraph({
    responses: {
      [WA]: [
        { raw: { status: 502, body: "<html>Bad Gateway</html>" } },
        { raw: { status: 200, body: "{}" } },
      ],
    },
  });
  const transport = adapterFor(graph);
  const gateway = await transport.send(WA, textMessage("x").body);
  assert.deepEqual(gateway, {
    ok: false,
    code: 0,
    title: "Unexpected Graph API reply: HTTP 502",
    retryable: true,
  });
  // Accepted or not is unknown: not retried, to avoid a duplicate.
  const empty = await transport.send(WA, textMessage("x").body);
  assert.ok(!empty.ok);
  assert.equal(empty.retryable, false);
});

Deno.test("createGraphAdapter() turns network errors and timeouts into retryable failures", async () => {
  const graph = await startFakeGraph({ responses: { [WA]: [{ delayMs: 5_000 }] } });
  const slow = await adapterFor(graph, { timeoutMs: 50 }).send(WA, textMessage("x").body);
  assert.deepEqual(slow, {
    ok: false,
    code: 0,
    title: "Graph API request timed out after 50 ms",
    retryable: true,
  });
  const baseUrl = graph.baseUrl;
  await graph.close();
  // Nothing listens there any more: connection refused.
  const refused = await createGraphAdapter({
    token: "t",
    phoneNumberId: "1",
    baseUrl,
  }).send(WA, textMessage("x").body);
  assert.ok(!refused.ok);
  assert.equal(refused.code, 0);
  assert.equal(refused.retryable, true);
  assert.match(refused.title, /^Graph API request failed: /);

  const thrown = await createGraphAdapter({
    token: "t",
    phoneNumberId: "1",
    fetch: () => Promise.reject(new TypeError("dns error")),
  }).send(WA, textMessage("x").body);
  assert.deepEqual(thrown, {
    ok: false,
    code: 0,
    title: "Graph API request failed: dns error",
    retryable: true,
  });
});

Deno.test("createGraphAdapter() rejects a missing token or phone-number id", () => {
  assert.throws(() => createGraphAdapter({ token: "", phoneNumberId: "1" }), TypeError);
  assert.throws(() => createGraphAdapter({ token: "t", phoneNumberId: "+250788" }), {
    name: "TypeError",
    message: /phoneNumberId must be digits/,
  });
});

Deno.test("createLocalAdapter() accepts everything with a local wamid", async () => {
  const transport = createLocalAdapter();
  const a = await transport.send(WA, textMessage("x").body);
  const b = await transport.send(WA, textMessage("x").body);
  assert.ok(a.ok && b.ok);
  assert.match(a.wamid, /^wamid\.local\.[0-9a-f-]{36}$/);
  assert.notEqual(a.wamid, b.wamid);
});
