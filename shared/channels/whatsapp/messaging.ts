/**
 * The WhatsApp side of the messaging port (`shared/capabilities/messaging`):
 * a pack's channel-neutral message becomes a Graph API message queued in the
 * outbox, in the caller's transaction, and the dispatcher sends it.
 * Templates take WhatsApp's language codes (`rw_RW`), and body parameters
 * are flattened to one line, as Meta refuses new lines in them.
 *
 * @module
 */
import type {
  MessagingPort,
  Outgoing,
  SendOptions,
  TemplateOut,
} from "@shared/capabilities/messaging/mod.ts";
import type { Queryable } from "@shared/db/types.ts";
import {
  buttonsMessage,
  documentMessage,
  listMessage,
  type TemplateComponent,
  templateDocumentHeader,
  templateLanguage,
  templateMessage,
  textMessage,
  videoMessage,
  type WhatsAppMessage,
} from "./messages.ts";
import { enqueueMessage } from "./outbox.ts";

// Meta's limit for one body parameter.
const PARAMETER_LIMIT = 1000;

function whatsappTemplate(message: TemplateOut) {
  const components: TemplateComponent[] = [];
  if (message.document) components.push(templateDocumentHeader(message.document));
  if (message.parameters?.length) {
    components.push({
      type: "body",
      parameters: message.parameters.map((value) => ({
        type: "text",
        text: value.replace(/\s+/g, " ").trim().slice(0, PARAMETER_LIMIT),
      })),
    });
  }
  (message.choiceIds ?? []).forEach((id, index) =>
    components.push({
      type: "button",
      sub_type: "quick_reply",
      index,
      parameters: [{ type: "payload", payload: id }],
    })
  );
  return templateMessage({
    name: message.name,
    language: templateLanguage(message.language),
    ...(components.length ? { components } : {}),
  });
}

/**
 * A channel-neutral message as WhatsApp sends it.
 *
 * @throws {TypeError} When the message breaks WhatsApp's limits (a title
 *   over 20 characters, four buttons, an oversized file).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buttonsOut } from "@shared/capabilities/messaging/mod.ts";
 * import { toWhatsApp } from "@shared/channels/whatsapp/messaging.ts";
 *
 * const message = toWhatsApp(buttonsOut("Pay now?", [{ id: "pay", title: "Pay" }]));
 * assert.equal(message.kind, "buttons");
 * ```
 */
export function toWhatsApp(message: Outgoing): WhatsAppMessage {
  switch (message.kind) {
    case "text":
      return textMessage(message.text, { previewUrl: message.previewUrl });
    case "buttons":
      return buttonsMessage({ body: message.text, buttons: message.choices });
    case "list":
      return listMessage({
        body: message.text,
        button: message.button,
        sections: message.sections,
      });
    case "document":
      return documentMessage({
        link: message.link,
        filename: message.filename,
        caption: message.caption,
        file: message.file,
      });
    case "video":
      return videoMessage({ link: message.link, caption: message.caption, file: message.file });
    case "template":
      return whatsappTemplate(message);
  }
}

/** The messaging port over the WhatsApp outbox. */
export const whatsappMessaging: MessagingPort = {
  send(tx: Queryable, options: SendOptions): Promise<string> {
    return enqueueMessage(tx, {
      orgId: options.orgId,
      to: options.to,
      message: toWhatsApp(options.message),
      idempotencyKey: options.idempotencyKey,
      ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
      ...(options.fallback === undefined
        ? {}
        : { fallbackTemplate: whatsappTemplate(options.fallback) }),
      ...(options.firstStands === undefined ? {} : { firstStands: options.firstStands }),
      ...(options.atMostOnce === undefined ? {} : { atMostOnce: options.atMostOnce }),
    });
  },
};
