import assert from "node:assert/strict";
import { createHttpSmsTransport, createLocalSmsTransport, formatSmsText } from "./sms.ts";
import { startFakeSmsGateway } from "@testing/notification_servers.ts";

const TICKET = "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d";
const ORG = "a0000000-0000-4000-8000-000000000001";
const message = {
  text: "[urgent] safety: Driver behaving badly",
  urgent: true,
  ticketId: TICKET,
  orgId: ORG,
};
const STAFF = ["+250788000101", "+250788000102"];

Deno.test("http sms transport posts {from, to, text} with the bearer key", async () => {
  const gateway = startFakeSmsGateway({ apiKey: "sms-key" });
  try {
    const transport = createHttpSmsTransport({
      endpoint: gateway.url,
      apiKey: "sms-key",
      sender: "EasyMO",
      to: STAFF,
    });
    assert.equal(transport.channel, "sms");
    assert.deepEqual(await transport.send(message), { ok: true, target: "sms:on-call" });
    assert.deepEqual(gateway.received, [{
      from: "EasyMO",
      to: STAFF,
      text: "EasyMO #5b8f0c2e [urgent] safety: Driver behaving badly",
    }]);
    assert.deepEqual(gateway.authorizations, ["Bearer sms-key"]);
  } finally {
    await gateway.close();
  }
});

Deno.test("http sms transport: bad key is final, 429 and 5xx are retried", async () => {
  const gateway = startFakeSmsGateway({ apiKey: "sms-key" });
  try {
    const options = { endpoint: gateway.url, sender: "EasyMO", to: STAFF };
    const wrongKey = createHttpSmsTransport({ ...options, apiKey: "old-key" });
    const result = await wrongKey.send(message);
    assert.deepEqual(result, {
      ok: false,
      retryable: false,
      reason: 'sms 401 {"error":"unauthorized"}',
    });
    const transport = createHttpSmsTransport({ ...options, apiKey: "sms-key" });
    gateway.script.push(
      { status: 429, body: "slow down", headers: { "retry-after": "2" } },
      { status: 502, body: `bad gateway for ${STAFF[0]}` },
    );
    assert.deepEqual(await transport.send(message), {
      ok: false,
      retryable: true,
      reason: "sms 429 slow down",
      retryAfterMs: 2000,
    });
    // Phone numbers echoed by a provider never reach last_error.
    assert.deepEqual(await transport.send(message), {
      ok: false,
      retryable: true,
      reason: "sms 502 bad gateway for [redacted]",
    });
  } finally {
    await gateway.close();
  }
});

Deno.test("http sms transport refuses incomplete configuration", () => {
  const options = {
    endpoint: "https://sms.example/v1/sms",
    apiKey: "k",
    sender: "EasyMO",
    to: STAFF,
  };
  assert.throws(() => createHttpSmsTransport({ ...options, to: [" "] }), TypeError);
  assert.throws(() => createHttpSmsTransport({ ...options, apiKey: "" }), TypeError);
  assert.throws(
    () => createHttpSmsTransport({ ...options, endpoint: "http://sms.example/v1/sms" }),
    TypeError,
  );
});

Deno.test("formatSmsText keeps messages short", () => {
  const text = formatSmsText({ ...message, text: "x".repeat(500) }, 306, "EasyMO");
  assert.equal(text.length, 306);
  assert.ok(text.startsWith("EasyMO #5b8f0c2e x"));
  assert.ok(text.endsWith("…"));
});

Deno.test("local sms transport succeeds without sending", async () => {
  assert.deepEqual(await createLocalSmsTransport().send(message), { ok: true, target: "local" });
});
