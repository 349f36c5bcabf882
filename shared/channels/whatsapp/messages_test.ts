import assert from "node:assert/strict";
import {
  assertMessage,
  buttonsMessage,
  LIMITS,
  listMessage,
  templateMessage,
  textMessage,
  videoMessage,
} from "./messages.ts";
import { ToolFailure } from "@shared/contract/result.ts";

function rows(count: number, prefix = "r") {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}` }));
}

Deno.test("textMessage() builds Meta's text body", () => {
  assert.deepEqual(textMessage("Muraho", { previewUrl: true }), {
    kind: "text",
    body: { type: "text", text: { body: "Muraho", preview_url: true } },
  });
  assert.equal(textMessage("x".repeat(LIMITS.textBody)).body.text.body.length, 4096);
});

Deno.test("textMessage() rejects empty, blank and over-long text with the field named", () => {
  assert.throws(() => textMessage(""), {
    name: "TypeError",
    message: "Cannot build a text message as body must not be empty",
  });
  assert.throws(() => textMessage("   \n"), { message: /body must not be blank/ });
  assert.throws(() => textMessage("x".repeat(4097)), {
    name: "TypeError",
    message: "Cannot build a text message as body must be at most 4096 characters: " +
      "current length is 4097",
  });
});

Deno.test("buttonsMessage() builds reply buttons with header and footer", () => {
  const message = buttonsMessage({
    header: "Order 42",
    body: "Confirm the order?",
    footer: "EasyMO",
    buttons: [{ id: "yes", title: "Yes" }, { id: "no", title: "No" }],
  });
  assert.equal(message.kind, "buttons");
  assert.deepEqual(message.body, {
    type: "interactive",
    interactive: {
      type: "button",
      header: { type: "text", text: "Order 42" },
      body: { text: "Confirm the order?" },
      footer: { text: "EasyMO" },
      action: {
        buttons: [
          { type: "reply", reply: { id: "yes", title: "Yes" } },
          { type: "reply", reply: { id: "no", title: "No" } },
        ],
      },
    },
  });
});

Deno.test("buttonsMessage() enforces Meta's limits", async (t) => {
  const ok = { body: "Pick one", buttons: [{ id: "a", title: "A" }] };
  await t.step("one to three buttons", () => {
    assert.throws(() => buttonsMessage({ ...ok, buttons: [] }), {
      message: "Cannot build a buttons message as buttons must have at least 1 item(s)",
    });
    assert.throws(() => buttonsMessage({ ...ok, buttons: rows(4) }), {
      message: "Cannot build a buttons message as buttons must have at most 3 items: " +
        "current count is 4",
    });
    assert.equal(
      buttonsMessage({ ...ok, buttons: rows(3) }).body.interactive.action.buttons.length,
      3,
    );
  });
  await t.step("title at most 20, id at most 256", () => {
    assert.equal(
      buttonsMessage({ ...ok, buttons: [{ id: "a", title: "x".repeat(20) }] }).kind,
      "buttons",
    );
    assert.throws(() => buttonsMessage({ ...ok, buttons: [{ id: "a", title: "x".repeat(21) }] }), {
      name: "TypeError",
      message: "Cannot build a buttons message as buttons[0].title must be at most 20 " +
        "characters: current length is 21",
    });
    assert.throws(
      () => buttonsMessage({ ...ok, buttons: [{ id: "i".repeat(257), title: "A" }] }),
      { message: /buttons\[0\]\.id must be at most 256 characters/ },
    );
  });
  await t.step("body at most 1024, header and footer at most 60", () => {
    assert.throws(() => buttonsMessage({ ...ok, body: "b".repeat(1025) }), {
      message: /as body must be at most 1024 characters: current length is 1025/,
    });
    assert.throws(() => buttonsMessage({ ...ok, header: "h".repeat(61) }), {
      message: /as header must be at most 60/,
    });
    assert.throws(() => buttonsMessage({ ...ok, footer: "" }), {
      message: /as footer must not be empty/,
    });
  });
  await t.step("unique button ids", () => {
    assert.throws(
      () => buttonsMessage({ ...ok, buttons: [{ id: "a", title: "A" }, { id: "a", title: "B" }] }),
      {
        message:
          'Cannot build a buttons message as buttons must have unique button ids: "a" repeats',
      },
    );
  });
});

Deno.test("listMessage() builds sections and rows", () => {
  const message = listMessage({
    body: "Pharmacies near you",
    button: "Choose",
    sections: [
      { title: "Kicukiro", rows: [{ id: "p1", title: "Conseil", description: "0.8 km" }] },
      { title: "Remera", rows: [{ id: "p2", title: "Vine" }] },
    ],
  });
  assert.equal(message.kind, "list");
  assert.deepEqual(message.body.interactive.action, {
    button: "Choose",
    sections: [
      { title: "Kicukiro", rows: [{ id: "p1", title: "Conseil", description: "0.8 km" }] },
      { title: "Remera", rows: [{ id: "p2", title: "Vine" }] },
    ],
  });
  assert.equal(message.body.interactive.type, "list");
});

Deno.test("listMessage() enforces Meta's limits", async (t) => {
  const ok = { body: "Choose", button: "Open", sections: [{ rows: rows(1) }] };
  await t.step("at most 10 rows over all sections", () => {
    assert.equal(listMessage({ ...ok, sections: [{ rows: rows(10) }] }).kind, "list");
    assert.throws(
      () =>
        listMessage({
          ...ok,
          sections: [{ title: "A", rows: rows(6, "a") }, { title: "B", rows: rows(5, "b") }],
        }),
      {
        name: "TypeError",
        message: "Cannot build a list message as sections must have at most 10 rows in all: " +
          "current count is 11",
      },
    );
  });
  await t.step("row title 24, description 72, button label 20", () => {
    assert.throws(
      () => listMessage({ ...ok, sections: [{ rows: [{ id: "a", title: "t".repeat(25) }] }] }),
      {
        message:
          /sections\[0\]\.rows\[0\]\.title must be at most 24 characters: current length is 25/,
      },
    );
    assert.throws(
      () =>
        listMessage({
          ...ok,
          sections: [{ rows: [{ id: "a", title: "A", description: "d".repeat(73) }] }],
        }),
      { message: /sections\[0\]\.rows\[0\]\.description must be at most 72 characters/ },
    );
    assert.throws(() => listMessage({ ...ok, button: "b".repeat(21) }), {
      message: /as button must be at most 20 characters: current length is 21/,
    });
  });
  await t.step("titles on several sections, unique row ids, no empty sections", () => {
    assert.throws(
      () => listMessage({ ...ok, sections: [{ rows: rows(1, "a") }, { rows: rows(1, "b") }] }),
      { message: /sections\[0\]\.title is required when a list has several sections/ },
    );
    assert.throws(
      () =>
        listMessage({
          ...ok,
          sections: [{ title: "A", rows: rows(1) }, { title: "B", rows: rows(1) }],
        }),
      { message: /must have unique row ids: "r0" repeats/ },
    );
    assert.throws(() => listMessage({ ...ok, sections: [{ rows: [] }] }), {
      message: /sections\[0\]\.rows must have at least 1 item/,
    });
  });
});

Deno.test("templateMessage() builds a template with a language object", () => {
  const message = templateMessage({
    name: "stock_check",
    language: "en_US",
    components: [
      { type: "body", parameters: [{ type: "text", text: "Amoxicillin" }] },
      {
        type: "button",
        sub_type: "quick_reply",
        index: "0",
        parameters: [{ type: "payload", payload: "YES" }],
      },
    ],
  });
  assert.deepEqual(message.body.template.language, { code: "en_US" });
  assert.equal(message.body.template.components?.length, 2);
  assert.deepEqual(templateMessage({ name: "hello_world", language: "en" }).body, {
    type: "template",
    template: { name: "hello_world", language: { code: "en" } },
  });
});

Deno.test("templateMessage() rejects malformed names, languages and components", () => {
  assert.throws(() => templateMessage({ name: "Stock Check", language: "en" }), {
    name: "TypeError",
    message: "Cannot build a template message as name must be lowercase letters, digits and " +
      "underscores",
  });
  assert.throws(() => templateMessage({ name: "x", language: "english" }), {
    message: /as language must be a language code/,
  });
  assert.throws(
    () =>
      templateMessage({
        name: "x",
        language: "en",
        components: [{ type: "footer" as "body" }],
      }),
    { message: /as components\[0\]\.type must be "header" or "body" or "button"/ },
  );
});

Deno.test("assertMessage() re-checks a stored or hand-made message", () => {
  const message = buttonsMessage({ body: "Ok?", buttons: [{ id: "y", title: "Yes" }] });
  assert.deepEqual(assertMessage(structuredClone(message)), message);
  assert.throws(() => assertMessage({ kind: "sticker", body: {} }), {
    message:
      "Cannot send the message as its kind must be text, buttons, list, template, image, document " +
      'or video: current value is "sticker"',
  });
  // A body of another kind than claimed.
  assert.throws(() => assertMessage({ kind: "list", body: message.body }), TypeError);
  // Meta's paths, not the builders' names, for a raw body.
  assert.throws(
    () =>
      assertMessage({
        kind: "text",
        body: { type: "text", text: { body: "", preview_url: false } },
      }),
    { message: "Cannot send the message as text.body must not be empty" },
  );
  assert.throws(
    () => assertMessage({ kind: "text", body: { type: "text", text: { body: "hi" }, to: "1" } }),
    TypeError,
  );
});

Deno.test("videoMessage() sends an MP4 by link, and refuses what WhatsApp would not carry", () => {
  const link = "https://example.supabase.co/storage/v1/object/sign/media/o/videos/v.mp4?token=t";
  const message = videoMessage({
    link,
    caption: "Your video is ready",
    file: { mimeType: "video/mp4", size: 2_400_000 },
  });
  assert.deepEqual(message, {
    kind: "video",
    body: { type: "video", video: { link, caption: "Your video is ready" } },
  });
  assert.deepEqual(assertMessage(structuredClone(message)), message);
  for (
    const file of [{ mimeType: "video/webm", size: 1000 }, {
      mimeType: "video/mp4",
      size: 17 * 1024 * 1024,
    }]
  ) {
    assert.throws(() => videoMessage({ link, file }), ToolFailure);
  }
});
