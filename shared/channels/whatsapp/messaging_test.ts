import assert from "node:assert/strict";
import {
  buttonsOut,
  documentOut,
  listOut,
  templateOut,
  textOut,
} from "@shared/capabilities/messaging/mod.ts";
import { dbTest } from "@testing/db.ts";
import { ORG } from "@testing/seed.ts";
import { toWhatsApp, whatsappMessaging } from "./messaging.ts";

Deno.test("toWhatsApp() gives each neutral message WhatsApp's wire form", () => {
  assert.deepEqual(toWhatsApp(textOut("Muraho")).body, {
    type: "text",
    text: { body: "Muraho", preview_url: false },
  });
  const buttons = toWhatsApp(buttonsOut("Pay?", [{ id: "pay", title: "Pay" }])).body as {
    interactive: { action: { buttons: unknown[] } };
  };
  assert.deepEqual(buttons.interactive.action.buttons, [
    { type: "reply", reply: { id: "pay", title: "Pay" } },
  ]);
  const list = toWhatsApp(listOut({
    text: "Pick a venue",
    button: "Venues",
    sections: [{ rows: [{ id: "v1", title: "Café", description: "0.4 km" }] }],
  }));
  assert.equal(list.kind, "list");
  const document = toWhatsApp(documentOut({
    link: "https://files.example/c.pdf",
    filename: "c.pdf",
    file: { mimeType: "application/pdf", size: 2048 },
  }));
  assert.deepEqual(document.body, {
    type: "document",
    document: { link: "https://files.example/c.pdf", filename: "c.pdf" },
  });
});

Deno.test("a template takes WhatsApp's language code, one-line parameters and quick replies", () => {
  const message = toWhatsApp(templateOut({
    name: "ride_offer",
    language: "rw",
    parameters: ["Kimihurura\nnear the market", "1 km"],
    choiceIds: ["ride:1:accept", "ride:1:decline"],
    document: { link: "https://files.example/c.pdf", filename: "c.pdf" },
  }));
  assert.deepEqual(message.body, {
    type: "template",
    template: {
      name: "ride_offer",
      language: { code: "rw_RW" },
      components: [
        {
          type: "header",
          parameters: [{
            type: "document",
            document: { link: "https://files.example/c.pdf", filename: "c.pdf" },
          }],
        },
        {
          type: "body",
          parameters: [
            { type: "text", text: "Kimihurura near the market" },
            { type: "text", text: "1 km" },
          ],
        },
        {
          type: "button",
          sub_type: "quick_reply",
          index: 0,
          parameters: [{ type: "payload", payload: "ride:1:accept" }],
        },
        {
          type: "button",
          sub_type: "quick_reply",
          index: 1,
          parameters: [{ type: "payload", payload: "ride:1:decline" }],
        },
      ],
    },
  });
});

Deno.test("a message over WhatsApp's limits is refused, naming the field", () => {
  assert.throws(
    () => toWhatsApp(buttonsOut("Pick", [{ id: "a", title: "A title far over twenty" }])),
    (error: unknown) => error instanceof TypeError && /title/.test(error.message),
  );
});

dbTest("whatsappMessaging.send() queues the message and its fallback once per key", async (db) => {
  const send = () =>
    db.transaction((tx) =>
      whatsappMessaging.send(tx, {
        orgId: ORG.easymo,
        to: "+250788123456",
        message: textOut("Your order is ready."),
        fallback: templateOut({ name: "payment_update", language: "fr", parameters: ["Prête"] }),
        idempotencyKey: "port-test:ready",
      })
    );
  const first = await send();
  assert.equal(await send(), first);
  const rows = await db.query<
    { to_wa_id: string; kind: string; body: unknown; fallback_template: unknown }
  >(
    "select to_wa_id, kind, body, fallback_template from public.wa_outbox where idempotency_key = $1",
    ["port-test:ready"],
  );
  assert.equal(rows.length, 1);
  assert.equal(rows[0].to_wa_id, "250788123456");
  assert.equal(rows[0].kind, "text");
  assert.deepEqual(rows[0].body, {
    type: "text",
    text: { body: "Your order is ready.", preview_url: false },
  });
  assert.deepEqual(rows[0].fallback_template, {
    type: "template",
    template: {
      name: "payment_update",
      language: { code: "fr" },
      components: [{ type: "body", parameters: [{ type: "text", text: "Prête" }] }],
    },
  });
});
