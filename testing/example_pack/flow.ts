/**
 * The library desk's offline flow: ask for the title, then hold the book
 * through the pack's own tool and give the reference. What it keeps between
 * turns is typed and versioned (`typedFlow`): a deploy that changes it bumps
 * the version, and kept conversations are migrated or restarted plainly.
 *
 * @module
 */
import { z } from "zod";
import { type FlowMemory, typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import type { OfflineFlow, OfflineStep, OfflineToolCaller } from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { say } from "./texts.ts";
import { libraryRequestBook } from "./tools.ts";

/** What the desk keeps between turns (version 1): whether it asked for the title. */
const libraryMemory = z.object({ askedTitle: z.boolean().nullish() });

async function libraryStep(
  turn: TypedTurn<z.output<typeof libraryMemory>>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const { language, memory, input } = turn;
  if (memory.askedTitle !== true) {
    return { replies: [{ text: say("ask_title", language) }], memory: { askedTitle: true } };
  }
  const title = input.text.trim();
  // Read through the tool's own output schema: no cast.
  const result = await callTyped(callTool, libraryRequestBook, { title }, "request");
  if (result.ok) {
    const ref = result.data.reference;
    return { replies: [{ text: say("requested", language, { title, ref }) }], done: true };
  }
  // A title the tool refuses is asked again; anything else ends the conversation politely.
  if (result.error.code === "VALIDATION_ERROR") {
    return { replies: [{ text: say("bad_title", language) }] };
  }
  return { replies: [{ text: say("failed", language) }], done: true };
}

const library = typedFlow({ version: 1, memory: libraryMemory, step: libraryStep });

/** The desk's conversation, without a model. */
export const libraryFlow: OfflineFlow = library.offlineFlow;

/** What the desk's flow keeps between turns, typed and versioned. */
export const libraryFlowMemory: FlowMemory = library.memory;
