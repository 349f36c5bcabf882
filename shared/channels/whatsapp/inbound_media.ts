/**
 * Wraps the inbound handler so a media message reaches it with its file
 * already saved (`content.stored`): downloaded through the {@link MediaSource},
 * checked and put in Storage before the conversation sees it. A refused file
 * (a type or size WhatsApp limits exclude) is answered in the user's language
 * and committed as the turn, nothing stored. A failed download or upload is
 * thrown: the inbound processor retries the message (the webhook's 200 was
 * long sent).
 *
 * @module
 */
import { languageOf } from "@shared/contract/language.ts";
import type { Database } from "@shared/db/types.ts";
import type { FileStore } from "@shared/storage/file_store.ts";
import { commitTurn } from "./handler.ts";
import type { InboundHandler } from "./inbound_processor.ts";
import { MEDIA_REFUSED, type MediaSource, storeInboundMedia } from "./media.ts";
import { textMessage } from "./messages.ts";
import { resolveWhatsAppUser } from "./whatsapp_user.ts";

/** Options for {@link withInboundMedia}. */
export interface InboundMediaOptions {
  /** The database. */
  db: Database;
  /** The org of the business number. */
  orgId: string;
  /** Where media bytes come from (Graph API, or the dev server's local Graph). */
  source: MediaSource;
  /** Where they are saved. */
  files: FileStore;
  /** Called after a refusal was queued (dispatch now). */
  onQueued?: () => Promise<void>;
}

/** The handler, with media saved before it runs. */
export function withInboundMedia(
  handle: InboundHandler,
  options: InboundMediaOptions,
): InboundHandler {
  return async (message) => {
    const content = message.content;
    if (content.kind !== "media" || content.stored) return await handle(message);
    const user = await resolveWhatsAppUser(options.db, {
      orgId: options.orgId,
      waId: message.from,
      profileName: message.profileName,
    });
    const saved = await storeInboundMedia({
      source: options.source,
      files: options.files,
      orgId: options.orgId,
      conversationId: user.conversationId,
      wamid: message.wamid,
      content,
    });
    if ("content" in saved) return await handle({ ...message, content: saved.content });
    const language = languageOf(content.caption ?? "", user.locale);
    await commitTurn(options.db, {
      orgId: options.orgId,
      message,
      userId: user.userId,
      conversationId: user.conversationId,
      replies: [textMessage(MEDIA_REFUSED[saved.refused][language])],
      state: user.state,
    });
    await options.onQueued?.();
  };
}
