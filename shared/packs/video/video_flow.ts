/**
 * The Sora-2 Video studio's conversation with a staff member, without a
 * model: the brief in their words, then a brand kit, a format and a length
 * picked from buttons, and `sora_generate_video`. The tool is
 * `confirmRequired`, so its own read-back (model, size, length, brand kit,
 * estimated cost) is the one question before a job is queued: the flow asks
 * nothing of its own there. After the confirmation they are told the job is
 * queued; the video itself arrives from the
 * background poll when it is ready. A brief that states a length or a
 * resolution is sent back with the reason before anything else, as the tool
 * would refuse it; every other refusal comes from the tool, by its field.
 *
 * @module
 */
import { z } from "zod";
import type { Language } from "@shared/contract/language.ts";
import type { AgentReply, OfflineStep, OfflineToolCaller } from "@shared/registry/pack.ts";
import { keptCallMemory, typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import { callTyped, readKeptResult } from "@shared/registry/tool_call.ts";
import { statedFormat } from "./prompt_rules.ts";
import { estimatedMinutes, soraGenerateVideo } from "./sora_generate_video.ts";
import { say } from "./texts.ts";

/** What the flow keeps: where it is and what the staff member picked. */
const memory = z.object({
  stage: z.enum(["brief", "kit", "size", "seconds"]).nullish(),
  brief: z.string().max(2000).nullish(),
  kitId: z.uuid().nullish(),
  kitName: z.string().max(100).nullish(),
  size: z.enum(["1280x720", "720x1280"]).nullish(),
  seconds: z.union([z.literal(4), z.literal(8), z.literal(12)]).nullish(),
  ...keptCallMemory,
});

type Memory = z.output<typeof memory>;
type Turn = TypedTurn<Memory>;

/** `search_supabase` as the flow reads brand kits. */
const KITS = {
  name: "search_supabase",
  output: z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }),
} as const;

const SIZES = { "1280x720": "landscape", "720x1280": "portrait" } as const;

/** Starts over: nothing kept (memory is merged between turns, so each key is cleared). */
const CLEARED: Memory = {
  stage: null,
  brief: null,
  kitId: null,
  kitName: null,
  size: null,
  seconds: null,
  lastResult: null,
  lastTool: null,
};

function text(reply: string): AgentReply {
  return { text: reply };
}

function askBrief(language: Language): OfflineStep {
  return { replies: [text(say("askBrief", language))], memory: { ...CLEARED, stage: "brief" } };
}

async function askKit(turn: Turn, callTool: OfflineToolCaller, brief: string) {
  const found = await callTyped(callTool, KITS, {
    table: "brand_kits",
    columns: ["id", "name"],
    order: { column: "name" },
    limit: 10,
  }, "kits");
  const language = turn.language;
  if (!found.ok) return { replies: [text(say("refused", language, { reason: found.error.msg }))] };
  if (!found.data.items.length) {
    return { replies: [text(say("noKit", language))], memory: CLEARED, done: true };
  }
  return {
    replies: [{
      text: say("askKit", language),
      rows: found.data.items.map((kit) => ({ id: `kit:${kit.id}`, title: kit.name.slice(0, 24) })),
      list: { button: say("kitsButton", language), section: say("kitsButton", language) },
    }],
    memory: { ...CLEARED, stage: "kit" as const, brief },
  };
}

function sizeButtons(language: Language): AgentReply {
  return {
    text: say("askSize", language),
    buttons: [
      { id: "size:1280x720", title: say("landscape", language) },
      { id: "size:720x1280", title: say("portrait", language) },
    ],
  };
}

function secondsButtons(language: Language): AgentReply {
  return {
    text: say("askSeconds", language),
    buttons: [
      { id: "seconds:4", title: say("seconds4", language) },
      { id: "seconds:8", title: say("seconds8", language) },
      { id: "seconds:12", title: say("seconds12", language) },
    ],
  };
}

function pickOne(reply: AgentReply, language: Language): OfflineStep {
  return { replies: [text(say("pickOne", language)), reply] };
}

/** The structured brief the tool takes, from the staff member's words. */
export function briefArgs(
  memory: { brief: string; kitId: string; size: keyof typeof SIZES; seconds: 4 | 8 | 12 },
) {
  return {
    prompt: {
      scene: memory.brief,
      cinematography: {
        camera_shot: "Steady, well-framed shots that follow the action",
        lighting_palette: "Natural, bright light in the brand's colours",
      },
      actions: [{ time: `0-${memory.seconds}s`, description: memory.brief.slice(0, 500) }],
    },
    params: { model: "sora-2", size: memory.size, seconds: memory.seconds },
    brand_kit_id: memory.kitId,
  };
}

async function generate(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const { brief, kitId, size, seconds } = turn.memory;
  const language = turn.language;
  if (!brief || !kitId || !size || !seconds) return askBrief(language);
  const args = { ...briefArgs({ brief, kitId, size, seconds }), language };
  const result = await callTool(soraGenerateVideo.name, args, "generate");
  if (!result.ok && result.error.code === "CONFIRMATION_REQUIRED") {
    // The tool's read-back is the one question: the channel asks it and calls again with the token.
    return {
      pending: {
        tool: soraGenerateVideo.name,
        args,
        key: `${turn.input.wamid}:generate`,
        summary: result.error.confirmation?.summary ?? result.error.msg,
        callId: "generate",
      },
      memory: { seconds },
    };
  }
  return outcome(language, seconds, result);
}

/** What the staff member is told of the call: queued, not set up, refused or cancelled. */
function outcome(language: Language, seconds: number, stored: unknown): OfflineStep {
  const result = readKeptResult(soraGenerateVideo, stored);
  if (!result || result.ok) {
    return {
      replies: [text(say("queued", language, { minutes: String(estimatedMinutes(seconds)) }))],
      memory: CLEARED,
      done: true,
    };
  }
  const code = result.error.code;
  const reply = code === "CANCELLED"
    ? say("notQueued", language)
    : code === "SERVICE_UNAVAILABLE"
    ? say("unavailable", language)
    : code === "AUTH_ERROR"
    ? say("notStaff", language)
    : say("refused", language, {
      reason: result.error.fields?.map((field) => `${field.path} ${field.message}`).join("; ") ??
        result.error.msg,
    });
  return { replies: [text(reply)], memory: CLEARED, done: true };
}

async function step(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const { language, input } = turn;
  const choice = input.choice ?? "";
  // Back from the tool's confirmation: its result, kept by the channel.
  if (turn.memory.lastTool === soraGenerateVideo.name && turn.memory.lastResult) {
    return outcome(language, turn.memory.seconds ?? 8, turn.memory.lastResult);
  }
  switch (turn.memory.stage) {
    case undefined:
    case null:
      return askBrief(language);
    case "brief": {
      const brief = input.text.trim();
      if (brief.length < 15) return { replies: [text(say("briefTooShort", language))] };
      const stated = statedFormat(brief);
      if (stated) {
        return { replies: [text(say("briefStatesFormat", language, { phrase: stated.phrase }))] };
      }
      return await askKit(turn, callTool, brief.slice(0, 2000));
    }
    case "kit": {
      const id = choice.startsWith("kit:") ? choice.slice(4) : "";
      if (!z.uuid().safeParse(id).success) {
        return { replies: [text(say("pickOne", language))] };
      }
      return {
        replies: [sizeButtons(language)],
        memory: { stage: "size", kitId: id, kitName: input.text.slice(0, 100) },
      };
    }
    case "size": {
      const size = choice.slice(5);
      if (!choice.startsWith("size:") || !(size in SIZES)) {
        return pickOne(sizeButtons(language), language);
      }
      return {
        replies: [secondsButtons(language)],
        memory: { stage: "seconds", size: size as keyof typeof SIZES },
      };
    }
    case "seconds": {
      const seconds = Number(choice.slice(8));
      if (!choice.startsWith("seconds:") || ![4, 8, 12].includes(seconds)) {
        return pickOne(secondsButtons(language), language);
      }
      return await generate(
        { ...turn, memory: { ...turn.memory, seconds: seconds as 4 | 8 | 12 } },
        callTool,
      );
    }
  }
}

/**
 * The studio's flow and its memory, spread into the agent. Version 2: the
 * flow's own confirmation stage gave way to the tool's read-back.
 */
export const videoFlow = typedFlow({ version: 2, memory, step });
