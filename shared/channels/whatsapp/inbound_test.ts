import assert from "node:assert/strict";
import { messageText, parseDelivery, plausibleTime, sanitiseText } from "./inbound.ts";
import { messageDelivery, statusDelivery } from "./payloads.ts";
import { createSignatureVerifier, signBody } from "./signature.ts";

const from = { from: "250788000001", name: "Aline", wamid: "wamid.A1", timestamp: 1_763_000_000 };

Deno.test("parseDelivery() reads every message type Meta sends", () => {
  const cases = [
    [{ text: "paracetamol" }, { kind: "text", text: "paracetamol" }],
    [{ buttonReply: { id: "concierge_ask", title: "Ask them" } }, {
      kind: "button_reply",
      id: "concierge_ask",
      title: "Ask them",
    }],
    [{ listReply: { id: "row_2", title: "Remera", description: "2 km" } }, {
      kind: "list_reply",
      id: "row_2",
      title: "Remera",
      description: "2 km",
    }],
    [{ quickReply: { payload: "YES", text: "Yes" } }, {
      kind: "quick_reply",
      payload: "YES",
      text: "Yes",
    }],
    [{ location: { latitude: -1.95, longitude: 30.09, name: "Home" } }, {
      kind: "location",
      latitude: -1.95,
      longitude: 30.09,
      name: "Home",
    }],
    [{ media: { type: "image", id: "M1", mimeType: "image/jpeg", caption: "this one" } }, {
      kind: "media",
      mediaType: "image",
      mediaId: "M1",
      mimeType: "image/jpeg",
      sha256: "0".repeat(64),
      caption: "this one",
      filename: undefined,
    }],
  ] as const;
  for (const [content, expected] of cases) {
    const parsed = parseDelivery(messageDelivery({ ...from, contextWamid: "wamid.OUT" }, content));
    assert.equal(parsed?.messages.length, 1);
    const [message] = parsed!.messages;
    assert.deepEqual(message.content, expected);
    assert.equal(message.wamid, "wamid.A1");
    assert.equal(message.from, "250788000001");
    assert.equal(message.profileName, "Aline");
    assert.equal(message.contextWamid, "wamid.OUT");
    assert.equal(message.sentAt.getTime(), 1_763_000_000_000);
  }
});

Deno.test("parseDelivery() keeps unknown types as unsupported and counts malformed items", () => {
  const delivery = messageDelivery(from, { text: "x" }) as {
    entry: Array<{ changes: Array<{ value: { messages: unknown[] } }> }>;
  };
  const value = delivery.entry[0].changes[0].value;
  value.messages.push({
    from: "250788000001",
    id: "wamid.R",
    timestamp: "1",
    type: "reaction",
    reaction: {},
  });
  value.messages.push({ from: "not-a-number", id: "wamid.BAD", timestamp: "1", type: "text" });
  const parsed = parseDelivery(delivery)!;
  assert.deepEqual(parsed.messages.map((m) => m.content.kind), ["text", "unsupported"]);
  assert.equal(parsed.rejected, 1);
  assert.equal(parseDelivery({ object: "page", entry: [] }), null);
  assert.equal(parseDelivery("nope"), null);
});

Deno.test("parseDelivery() reads statuses with their errors", () => {
  const parsed = parseDelivery(statusDelivery({
    wamid: "wamid.OUT",
    status: "failed",
    recipient: "250788000001",
    timestamp: 10,
    errors: [{ code: 131026, title: "Message undeliverable" }],
  }))!;
  assert.deepEqual(parsed.statuses, [{
    wamid: "wamid.OUT",
    status: "failed",
    at: new Date(10_000),
    errors: [{ code: 131026, title: "Message undeliverable" }],
    // The business number it is about: only that number's app may report on it.
    phoneNumberId: "100000000000001",
    // Who it was to: reconciles a broadcast whose wamid a dying process never saved.
    recipient: "250788000001",
  }]);
});

Deno.test("messageText() gives handlers the words of any message", () => {
  assert.equal(messageText({ kind: "button_reply", id: "x", title: "Yego" }), "Yego");
  assert.equal(messageText({ kind: "quick_reply", payload: "YES", text: "" }), "YES");
  assert.equal(messageText({ kind: "location", latitude: 0, longitude: 0 }), "");
});

Deno.test("createSignatureVerifier() accepts Meta's signature over the raw bytes only", async () => {
  const verify = createSignatureVerifier("app-secret");
  const body = new TextEncoder().encode('{"a":1}');
  const header = await signBody("app-secret", body);
  assert.match(header, /^sha256=[0-9a-f]{64}$/);
  assert.equal(await verify(body, header), true);
  assert.equal(await verify(body, header.toUpperCase().replace("SHA256", "sha256")), true);
  assert.equal(await verify(new TextEncoder().encode('{"a": 1}'), header), false);
  assert.equal(await verify(body, await signBody("other-secret", body)), false);
  assert.equal(await verify(body, null), false);
  assert.equal(await verify(body, "sha256="), false);
  assert.equal(await verify(body, `sha1=${"0".repeat(40)}`), false);
  assert.throws(() => createSignatureVerifier(""), RangeError);
});

Deno.test("parseDelivery() repairs what Postgres cannot store and flags it, keeping the original", () => {
  const receivedAt = new Date("2026-11-23T10:00:00Z");
  // Stamped by the same injected clock as the receipt: today's clock would be days from it.
  const delivery = messageDelivery({
    from: "250788000001",
    name: "A\u0000",
    timestamp: receivedAt.getTime() / 1000,
  }, { text: "x\u0000\udc00y" });
  const [message] = parseDelivery(delivery, { receivedAt })!.messages;
  assert.deepEqual(message.content, { kind: "text", text: "x\ufffd\ufffdy" });
  assert.equal(message.profileName, "A\ufffd");
  assert.deepEqual(message.flags, ["text_sanitised"]);
  assert.equal(JSON.parse(message.rawJson!).text.body, "x\u0000\udc00y");
  // A well-formed pair (an emoji) is left alone.
  assert.equal(sanitiseText("ok \ud83d\udc4d"), "ok \ud83d\udc4d");
  const future = messageDelivery({ from: "250788000001", timestamp: 99999999999999 }, {
    text: "hi",
  });
  const [late] = parseDelivery(future, { receivedAt })!.messages;
  assert.equal(late.sentAt.getTime(), receivedAt.getTime());
  assert.deepEqual(late.flags, ["timestamp_replaced"]);
});

Deno.test("plausibleTime() believes any past time and a day of clock skew, nothing beyond", () => {
  const now = new Date("2026-11-23T10:00:00Z");
  const seconds = (date: Date) => String(date.getTime() / 1000);
  assert.deepEqual(plausibleTime("1", now), { at: new Date(1000), replaced: false });
  const skewed = new Date(now.getTime() + 23 * 3600_000);
  assert.deepEqual(plausibleTime(seconds(skewed), now), { at: skewed, replaced: false });
  const tooFar = new Date(now.getTime() + 25 * 3600_000);
  assert.deepEqual(plausibleTime(seconds(tooFar), now), { at: now, replaced: true });
  assert.deepEqual(plausibleTime("9".repeat(40), now), { at: now, replaced: true });
});
