/**
 * Builds webhook deliveries in Meta's wire format, as the Cloud API sends
 * them: the simulator and the tests post these, signed, to the real webhook.
 *
 * @module
 */

/** Who a simulated message comes from and what it answers. */
export interface SenderOptions {
  /** Sender wa_id (digits). */
  from: string;
  /** Sender profile name. */
  name?: string;
  /** Message id; a fresh `wamid.` id by default. */
  wamid?: string;
  /** Unix seconds; now by default. */
  timestamp?: number;
  /** The message this one replies to. */
  contextWamid?: string;
  /** Our business number id. @default "100000000000001" */
  phoneNumberId?: string;
}

/** What a simulated message says. */
export type SimulatedContent =
  | { text: string }
  | { buttonReply: { id: string; title: string } }
  | { listReply: { id: string; title: string; description?: string } }
  | { quickReply: { payload: string; text: string } }
  | { location: { latitude: number; longitude: number; name?: string; address?: string } }
  | {
    media: {
      type: "image" | "document" | "audio" | "video" | "sticker";
      id: string;
      mimeType: string;
      caption?: string;
      /** The file's sha256 (hex), as Meta sends it. @default 64 zeros */
      sha256?: string;
      /** A document's file name. */
      filename?: string;
    };
  };

/** A fresh wamid-shaped id. */
export function newWamid(): string {
  return `wamid.${btoa(crypto.randomUUID()).replace(/=+$/, "")}`;
}

function messageItem(options: SenderOptions, content: SimulatedContent): Record<string, unknown> {
  const base: Record<string, unknown> = {
    from: options.from,
    id: options.wamid ?? newWamid(),
    timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
  };
  if (options.contextWamid) base.context = { from: "250700000000", id: options.contextWamid };
  if ("text" in content) return { ...base, type: "text", text: { body: content.text } };
  if ("buttonReply" in content) {
    return {
      ...base,
      type: "interactive",
      interactive: { type: "button_reply", button_reply: content.buttonReply },
    };
  }
  if ("listReply" in content) {
    return {
      ...base,
      type: "interactive",
      interactive: { type: "list_reply", list_reply: content.listReply },
    };
  }
  if ("quickReply" in content) return { ...base, type: "button", button: content.quickReply };
  if ("location" in content) return { ...base, type: "location", location: content.location };
  const { type, id, mimeType, caption, sha256, filename } = content.media;
  return {
    ...base,
    type,
    [type]: {
      id,
      mime_type: mimeType,
      sha256: sha256 ?? "0".repeat(64),
      ...(caption ? { caption } : {}),
      ...(filename ? { filename } : {}),
    },
  };
}

function envelope(phoneNumberId: string, value: Record<string, unknown>): Record<string, unknown> {
  return {
    object: "whatsapp_business_account",
    entry: [{
      id: "102290129340398",
      changes: [{
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: "250780000000", phone_number_id: phoneNumberId },
          ...value,
        },
      }],
    }],
  };
}

/** A delivery carrying one inbound message. */
export function messageDelivery(
  options: SenderOptions,
  content: SimulatedContent,
): Record<string, unknown> {
  return envelope(options.phoneNumberId ?? "100000000000001", {
    contacts: [{ profile: { name: options.name ?? "WhatsApp user" }, wa_id: options.from }],
    messages: [messageItem(options, content)],
  });
}

/** A delivery carrying a status update for one of our messages. */
export function statusDelivery(status: {
  wamid: string;
  status: "sent" | "delivered" | "read" | "failed";
  recipient: string;
  timestamp?: number;
  errors?: Array<{ code: number; title: string }>;
}): Record<string, unknown> {
  return envelope("100000000000001", {
    statuses: [{
      id: status.wamid,
      status: status.status,
      timestamp: String(status.timestamp ?? Math.floor(Date.now() / 1000)),
      recipient_id: status.recipient,
      ...(status.errors ? { errors: status.errors } : {}),
    }],
  });
}
