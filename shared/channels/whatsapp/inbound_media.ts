/**
 * Wraps the inbound handler so a media message reaches it with its file
 * already saved (`content.stored`): downloaded through the {@link MediaSource},
 * checked and put in Storage before the conversation sees it.
 *
 * What cannot be saved is answered at once in the user's language and
 * committed as the turn (the message is done, never retried):
 * - a type or size WhatsApp's limits exclude: nothing stored;
 * - a media id the Graph API refuses as unknown or expired (400, 404): the
 *   customer's file, not our failure, so they are asked to send it again and
 *   a warning is logged;
 * - a lookup refused for our token (401, 403): an error is logged, staff are
 *   alerted (`onCredentialsRefused`) and the customer is told it is on our
 *   side.
 *
 * Anything else (408, 429, 5xx, a timeout, a network or Storage failure) is
 * thrown: the inbound processor retries the message with backoff (the
 * webhook's 200 was long sent).
 *
 * @module
 */
import { languageOf } from "@shared/contract/language.ts";
import type { Database } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";
import type { FileStore } from "@shared/storage/file_store.ts";
import { GraphMediaError } from "./graph_media_error.ts";
import { commitTurn } from "./handler.ts";
import type { InboundHandler } from "./inbound_processor.ts";
import { MEDIA_REFUSED, MEDIA_UNAVAILABLE, type MediaSource, storeInboundMedia } from "./media.ts";
import { textMessage } from "./messages.ts";
import { resolveWhatsAppUser } from "./whatsapp_user.ts";

/** A media lookup refused for our credentials, as {@link InboundMediaOptions.onCredentialsRefused} hears of it. */
export interface CredentialsRefusal {
  /** The message whose media could not be looked up. */
  wamid: string;
  /** The sender's conversation. */
  conversationId: string;
  /** The refusal (HTTP status, Meta's code and trace id). */
  error: GraphMediaError;
}

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
  /** Where refused media ids are reported (a warning; an error for our credentials). */
  log: Pick<Logger, "warn" | "error">;
  /** Called after a reply was queued (dispatch now). */
  onQueued?: () => Promise<void>;
  /**
   * Told when the Graph API refused a lookup for our token (401, 403): alert
   * staff, once per incident. Throwing retries the message (its reply is not
   * queued twice).
   */
  onCredentialsRefused?: (refusal: CredentialsRefusal) => Promise<void>;
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
    // The caption's language, else the conversation's (the agent keeps the profile's in step).
    const language = languageOf(content.caption ?? "", user.locale);
    const answer = async (text: string) => {
      await commitTurn(options.db, {
        orgId: options.orgId,
        message,
        userId: user.userId,
        conversationId: user.conversationId,
        replies: [textMessage(text)],
        state: user.state,
      });
      await options.onQueued?.();
    };
    let saved: Awaited<ReturnType<typeof storeInboundMedia>>;
    try {
      saved = await storeInboundMedia({
        source: options.source,
        files: options.files,
        orgId: options.orgId,
        conversationId: user.conversationId,
        wamid: message.wamid,
        content,
      });
    } catch (error) {
      if (!(error instanceof GraphMediaError) || error.kind === "transient") throw error;
      const fields = { wamid: message.wamid, media_type: content.mediaType, ...error.logFields() };
      // An unknown or expired id is the customer's file: worth a look, not an alarm.
      if (error.kind === "gone") options.log.warn("wa_media_unavailable", fields);
      else options.log.error("wa_media_credentials_refused", fields);
      const thing = content.mediaType === "image" || content.mediaType === "sticker"
        ? "photo"
        : "file";
      await answer(MEDIA_UNAVAILABLE[error.kind][thing][language]);
      if (error.kind === "credentials") {
        await options.onCredentialsRefused?.({
          wamid: message.wamid,
          conversationId: user.conversationId,
          error,
        });
      }
      return;
    }
    if ("content" in saved) return await handle({ ...message, content: saved.content });
    await answer(MEDIA_REFUSED[saved.refused][language]);
  };
}
