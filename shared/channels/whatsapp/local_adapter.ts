/**
 * The local transport: nothing leaves the machine. Every message is
 * accepted with a made-up wamid, so the outbox shows what would have been
 * sent (status `sent`) without a Meta account.
 *
 * @module
 */
import type { WhatsAppTransport } from "./transport.ts";

/** The prefix of the wamids {@link createLocalAdapter} makes up. */
export const LOCAL_WAMID_PREFIX = "wamid.local.";

/**
 * Creates the local transport: the default when no Graph API token is
 * configured. It accepts every message with `wamid.local.<uuid>`.
 *
 * @returns A transport that succeeds without sending anything.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createLocalAdapter } from "./local_adapter.ts";
 * import { textMessage } from "./messages.ts";
 *
 * const result = await createLocalAdapter().send("250788123456", textMessage("hi").body);
 * assert.ok(result.ok && result.wamid.startsWith("wamid.local."));
 * ```
 */
export function createLocalAdapter(): WhatsAppTransport {
  return {
    send(_to, _body) {
      return Promise.resolve({ ok: true, wamid: `${LOCAL_WAMID_PREFIX}${crypto.randomUUID()}` });
    },
  };
}
