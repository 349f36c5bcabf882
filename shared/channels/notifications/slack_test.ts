import assert from "node:assert/strict";
import { parseRetryAfter } from "./notification_transport.ts";
import {
  createLocalSlackTransport,
  createSlackWebhookTransport,
  escapeMrkdwn,
  formatSlackMessage,
} from "./slack.ts";
import {
  type FakeServer,
  type ReceivedSlackMessage,
  startFakeSlack,
} from "@testing/notification_servers.ts";

const TICKET = "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d";
const ORG = "a0000000-0000-4000-8000-000000000001";
const message = {
  text: "[high] refund: Wants a refund",
  urgent: false,
  ticketId: TICKET,
  orgId: ORG,
};

async function withSlack(fn: (slack: FakeServer<ReceivedSlackMessage>) => Promise<void>) {
  const slack = startFakeSlack();
  try {
    await fn(slack);
  } finally {
    await slack.close();
  }
}

Deno.test("slack transport posts a short mrkdwn message and reads 200 ok", async () => {
  await withSlack(async (slack) => {
    const transport = createSlackWebhookTransport({ webhookUrl: slack.url });
    assert.equal(transport.channel, "slack");
    assert.deepEqual(await transport.send(message), { ok: true, target: "slack:webhook" });
    assert.equal(slack.received.length, 1);
    const [body] = slack.received;
    assert.equal(body.text, "[high] refund: Wants a refund");
    assert.deepEqual(body.blocks?.[0], {
      type: "section",
      text: { type: "mrkdwn", text: "[high] refund: Wants a refund" },
    });
    assert.match(JSON.stringify(body.blocks?.[1]), /Ticket `5b8f0c2e`/);
  });
});

Deno.test("slack transport flags urgent tickets and escapes what users wrote", async () => {
  await withSlack(async (slack) => {
    const transport = createSlackWebhookTransport({
      webhookUrl: slack.url,
      ticketUrl: (id) => `https://admin.easymo.rw/inbox/${id}`,
    });
    const result = await transport.send({
      ...message,
      text: "[urgent] safety: <!channel> see <https://evil.example|bank> & run",
      urgent: true,
    });
    assert.equal(result.ok, true);
    const [body] = slack.received;
    assert.equal(
      body.text,
      ":rotating_light: *Urgent* [urgent] safety: &lt;!channel&gt; see " +
        "&lt;https://evil.example|bank&gt; &amp; run",
    );
    assert.match(
      JSON.stringify(body.blocks?.[1]),
      /<https:\/\/admin\.easymo\.rw\/inbox\/5b8f0c2e-[^|]+\|Open in Admin Inbox>/,
    );
  });
});

Deno.test("slack transport maps Slack's error answers to final or retryable failures", async () => {
  await withSlack(async (slack) => {
    const transport = createSlackWebhookTransport({ webhookUrl: slack.url });
    const cases = [
      { status: 400, body: "invalid_payload", retryable: false },
      { status: 400, body: "no_text", retryable: false },
      { status: 403, body: "action_prohibited", retryable: false },
      { status: 404, body: "channel_not_found", retryable: false },
      { status: 410, body: "channel_is_archived", retryable: false },
      { status: 500, body: "", retryable: true },
      { status: 503, body: "service_unavailable", retryable: true },
    ];
    for (const { status, body, retryable } of cases) {
      slack.script.push({ status, body });
      const result = await transport.send(message);
      assert.deepEqual(result, {
        ok: false,
        retryable,
        reason: `slack ${status}${body ? ` ${body}` : ""}`,
      }, `${status} ${body}`);
    }
  });
});

Deno.test("slack transport retries a 429 after its Retry-After", async () => {
  await withSlack(async (slack) => {
    const transport = createSlackWebhookTransport({ webhookUrl: slack.url });
    slack.script.push({ status: 429, body: "rate_limited", headers: { "Retry-After": "30" } });
    assert.deepEqual(await transport.send(message), {
      ok: false,
      retryable: true,
      reason: "slack 429 rate_limited",
      retryAfterMs: 30_000,
    });
    assert.deepEqual(await transport.send(message), { ok: true, target: "slack:webhook" });
  });
});

Deno.test("slack transport reports a timeout after the request went out as unknown, not retryable", async () => {
  await withSlack(async (slack) => {
    const transport = createSlackWebhookTransport({ webhookUrl: slack.url, timeoutMs: 200 });
    slack.script.push({ status: 200, body: "ok", hang: true });
    const result = await transport.send(message);
    assert.equal(slack.received.length, 1);
    assert.deepEqual(result, {
      ok: false,
      retryable: false,
      unknown: true,
      reason: "slack timeout after 200 ms: no answer, it may have been posted; not sent again",
    });
  });
});

Deno.test("slack transport never reveals the webhook URL", async () => {
  await withSlack(async (slack) => {
    // A wrong path: Slack answers 404 no_service.
    const wrong = createSlackWebhookTransport({ webhookUrl: `${slack.url}-revoked` });
    const result = await wrong.send(message);
    assert.deepEqual(result, { ok: false, retryable: false, reason: "slack 404 no_service" });
  });
  // Connection refused: fetch errors quote the URL.
  const closed = startFakeSlack();
  await closed.close();
  const secret = new URL(closed.url).pathname;
  const refused = await createSlackWebhookTransport({ webhookUrl: closed.url }).send(message);
  assert.equal(refused.ok, false);
  assert.ok(!refused.ok && refused.retryable);
  assert.ok(!JSON.stringify(refused).includes(secret), JSON.stringify(refused));
  assert.ok(!JSON.stringify(refused).includes("127.0.0.1:"), JSON.stringify(refused));
  // Even when an error message spells the URL out.
  const webhookUrl = "https://hooks.slack.com/services/T000/B000/s3cr3t";
  const throwing = createSlackWebhookTransport({
    webhookUrl,
    fetch: () =>
      Promise.reject(
        new TypeError(`error sending request for url (${webhookUrl}): Connection refused`),
      ),
  });
  const thrown = await throwing.send(message);
  assert.ok(!thrown.ok && thrown.retryable);
  assert.ok(!JSON.stringify(thrown).includes("s3cr3t"), JSON.stringify(thrown));
  // Invalid configuration is reported without the URL.
  assert.throws(
    () => createSlackWebhookTransport({ webhookUrl: "http://hooks.slack.com/services/s3cr3t" }),
    (error: Error) => error instanceof TypeError && !error.message.includes("s3cr3t"),
  );
});

Deno.test("formatSlackMessage cuts long text at Slack's section limit", () => {
  const long = formatSlackMessage({ text: "&".repeat(4000), urgent: false, ticketId: null });
  assert.ok(long.text.length <= 3000);
  assert.match(long.text, /(&amp;)+…$/);
  assert.equal(long.blocks?.length, 1);
  assert.equal(escapeMrkdwn("a<b>&c"), "a&lt;b&gt;&amp;c");
});

Deno.test("parseRetryAfter reads seconds and HTTP dates", () => {
  assert.equal(parseRetryAfter("7"), 7000);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter("soon"), undefined);
  const now = Date.parse("2026-11-22T10:00:00Z");
  assert.equal(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", () => now), 30_000);
});

Deno.test("local slack transport succeeds without sending", async () => {
  const lines: unknown[] = [];
  const transport = createLocalSlackTransport({ log: { info: (...line) => lines.push(line) } });
  assert.deepEqual(await transport.send(message), { ok: true, target: "local" });
  assert.deepEqual(lines, [["notification_local", { channel: "slack", ticket_id: TICKET }]]);
});
