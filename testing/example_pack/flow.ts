/**
 * The library desk's offline flow: ask for the title, then hold the book
 * through the pack's own tool and give the reference.
 *
 * @module
 */
import type { OfflineFlow } from "@shared/registry/pack.ts";
import { say } from "./texts.ts";
import { libraryRequestBook } from "./tools.ts";

/** The desk's conversation, without a model. */
export const libraryFlow: OfflineFlow = async (turn, callTool) => {
  const { language, memory, input } = turn;
  if (memory.askedTitle !== true) {
    return { replies: [{ text: say("ask_title", language) }], memory: { askedTitle: true } };
  }
  const title = input.text.trim();
  const result = await callTool("library_request_book", { title }, "request");
  // Read through the tool's own output schema: no cast.
  const held = result.ok ? libraryRequestBook.output.safeParse(result.data) : undefined;
  if (held?.success) {
    const ref = held.data.reference;
    return { replies: [{ text: say("requested", language, { title, ref }) }], done: true };
  }
  // A title the tool refuses is asked again; anything else ends the conversation politely.
  if (!result.ok && result.error.code === "VALIDATION_ERROR") {
    return { replies: [{ text: say("bad_title", language) }] };
  }
  return { replies: [{ text: say("failed", language) }], done: true };
};
