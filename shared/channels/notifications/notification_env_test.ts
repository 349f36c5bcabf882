import assert from "node:assert/strict";
import { memoryLogger } from "@shared/runtime/log.ts";
import { notificationTransportsFromEnv } from "./notification_env.ts";

const message = { text: "[urgent] safety: x", urgent: true, ticketId: null, orgId: "org" };

function env(values: Record<string, string>) {
  return { get: (name: string) => values[name] };
}

Deno.test("notificationTransportsFromEnv: nothing set means local transports", async () => {
  const log = memoryLogger();
  const transports = notificationTransportsFromEnv({ env: env({}), log });
  assert.deepEqual(await transports.slack?.send(message), { ok: true, target: "local" });
  assert.deepEqual(await transports.sms?.send(message), { ok: true, target: "local" });
  assert.deepEqual(log.lines.map((line) => [line.event, line.channel]), [
    ["notification_transport_local", "slack"],
    ["notification_transport_local", "sms"],
    ["notification_local", "slack"],
    ["notification_local", "sms"],
  ]);
});

Deno.test("notificationTransportsFromEnv: fallback none leaves channels unsent", () => {
  const log = memoryLogger();
  const transports = notificationTransportsFromEnv({ env: env({}), fallback: "none", log });
  assert.deepEqual(transports, {});
  assert.deepEqual(log.lines.map((line) => [line.level, line.event, line.channel]), [
    ["warn", "notification_transport_missing", "slack"],
    ["warn", "notification_transport_missing", "sms"],
  ]);
});

Deno.test("notificationTransportsFromEnv builds the Slack and SMS transports", async () => {
  const requests: Array<{ url: string; body: unknown; authorization: string | null }> = [];
  const transports = notificationTransportsFromEnv({
    env: env({
      SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T000/B000/s3cr3t",
      SMS_ENDPOINT: "https://sms.example/v1/sms",
      SMS_API_KEY: "sms-key",
      SMS_SENDER: "EasyMO",
      STAFF_SMS_TO: "+250788000101, +250788000102",
    }),
    fetch: (input, init) => {
      requests.push({
        url: String(input),
        body: JSON.parse(String(init?.body)),
        authorization: new Headers(init?.headers).get("authorization"),
      });
      return Promise.resolve(new Response("ok"));
    },
  });
  assert.deepEqual(await transports.slack?.send(message), { ok: true, target: "slack:webhook" });
  assert.deepEqual(await transports.sms?.send(message), { ok: true, target: "sms:on-call" });
  assert.equal(requests[0].url, "https://hooks.slack.com/services/T000/B000/s3cr3t");
  assert.deepEqual(requests[1], {
    url: "https://sms.example/v1/sms",
    body: {
      from: "EasyMO",
      to: ["+250788000101", "+250788000102"],
      text: "EasyMO [urgent] safety: x",
    },
    authorization: "Bearer sms-key",
  });
});

Deno.test("notificationTransportsFromEnv refuses half an SMS configuration", () => {
  assert.throws(
    () => notificationTransportsFromEnv({ env: env({ SMS_ENDPOINT: "https://sms.example" }) }),
    { message: "Cannot send staff SMS as SMS_API_KEY, SMS_SENDER, STAFF_SMS_TO not set" },
  );
});
