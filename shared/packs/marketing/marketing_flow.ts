/**
 * Marketing & Sales offline: a staff member picks an approved template,
 * fills its variables one by one, picks the audience (everyone opted in, or
 * one language) and a time, reads the confirmation (the template, the
 * reach, the time after quiet hours, from `broadcast_schedule`'s read-back)
 * and confirms. The tools decide everything (approval, variables, reach,
 * quiet hours); the flow only asks and reads their typed answers.
 *
 * @module
 */
import { z } from "zod";
import type { Language } from "@shared/contract/language.ts";
import { formatKigaliDate } from "@shared/capabilities/format/mod.ts";
import { keptCallMemory, typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import type { OfflineStep, OfflineToolCaller } from "@shared/registry/pack.ts";
import { callTyped, readResult } from "@shared/registry/tool_call.ts";
import { broadcastSchedule } from "./broadcast_schedule.ts";
import { broadcastTemplates } from "./broadcast_templates.ts";
import { say } from "./texts.ts";

const AUDIENCES = ["all", "en", "rw", "fr"] as const;

/** What the flow keeps between turns (version 1). */
const marketingMemory = z.object({
  stage: z.enum(["template", "variables", "audience", "when"]).nullish(),
  templateId: z.uuid().nullish(),
  templateName: z.string().nullish(),
  names: z.array(z.string()).optional(),
  values: z.record(z.string(), z.string()).optional(),
  audience: z.enum(AUDIENCES).nullish(),
  ...keptCallMemory,
});

type Turn = TypedTurn<z.output<typeof marketingMemory>>;

// A new campaign starts from nothing: memory is merged between turns.
const CLEAR = {
  stage: null,
  templateId: null,
  templateName: null,
  names: [],
  values: {},
  audience: null,
  lastResult: null,
  lastTool: null,
};

/**
 * Reads a time as staff type it: `2026-12-05 18:00` (Kigali time) or an
 * ISO 8601 time with its offset; null when it is neither.
 */
export function readWhen(text: string): string | null {
  const trimmed = text.trim();
  const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})$/.exec(trimmed);
  const iso = local ? `${local[1]}T${local[2]}:${local[3]}:00+02:00` : trimmed;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(iso)) return null;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}

async function offerTemplates(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const listed = await callTyped(callTool, broadcastTemplates, {}, "templates");
  if (!listed.ok) {
    return {
      replies: [{ text: say("refused", turn.language, { why: listed.error.msg }) }],
      done: true,
    };
  }
  if (listed.data.templates.length === 0) {
    return { replies: [{ text: say("noTemplates", turn.language) }], done: true };
  }
  return {
    replies: [{
      text: say("pickTemplate", turn.language),
      rows: listed.data.templates.slice(0, 10).map((template) => ({
        id: `tpl:${template.id}`,
        title: template.name.slice(0, 24),
        description: `${template.language} · ${template.variables.join(", ") || "—"}`.slice(0, 72),
      })),
      list: {
        button: say("templatesButton", turn.language),
        section: say("templatesButton", turn.language),
      },
    }],
    memory: { ...CLEAR, stage: "template" },
  };
}

async function pickTemplate(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const listed = await callTyped(callTool, broadcastTemplates, {}, "templates");
  const templates = listed.ok ? listed.data.templates : [];
  const choice = turn.input.choice ?? "";
  const typed = Number(turn.input.text.trim());
  const template = choice.startsWith("tpl:")
    ? templates.find((t) => t.id === choice.slice(4))
    : Number.isInteger(typed) && typed >= 1
    ? templates[typed - 1]
    : undefined;
  if (!template) return await offerTemplates(turn, callTool);
  const memory = {
    ...CLEAR,
    templateId: template.id,
    templateName: template.name,
    names: template.variables,
    values: {},
  };
  return template.variables.length
    ? {
      replies: [{ text: say("askVariable", turn.language, { name: template.variables[0] }) }],
      memory: { ...memory, stage: "variables" },
    }
    : askAudience(turn.language, memory);
}

function askAudience(language: Language, memory: Record<string, unknown>): OfflineStep {
  const titles = {
    all: say("audienceAll", language),
    en: say("audienceEn", language),
    rw: say("audienceRw", language),
    fr: say("audienceFr", language),
  };
  return {
    replies: [{
      text: say("askAudience", language),
      rows: AUDIENCES.map((audience) => ({ id: `aud:${audience}`, title: titles[audience] })),
      list: { button: say("audienceButton", language), section: say("audienceButton", language) },
    }],
    memory: { ...memory, stage: "audience" },
  };
}

function fillVariable(turn: Turn): OfflineStep {
  const names = turn.memory.names ?? [];
  const values = { ...turn.memory.values };
  const next = names.find((name) => !(name in values));
  const value = turn.input.text.trim();
  if (next && value) values[next] = value.slice(0, 1024);
  const missing = names.find((name) => !(name in values));
  if (missing) {
    return {
      replies: [{ text: say("askVariable", turn.language, { name: missing }) }],
      memory: { values },
    };
  }
  return askAudience(turn.language, { values });
}

function pickAudience(turn: Turn): OfflineStep {
  const picked = AUDIENCES.find((audience) => turn.input.choice === `aud:${audience}`);
  if (!picked) return askAudience(turn.language, {});
  return {
    replies: [{ text: say("askWhen", turn.language) }],
    memory: { audience: picked, stage: "when" },
  };
}

async function schedule(turn: Turn, callTool: OfflineToolCaller): Promise<OfflineStep> {
  const when = readWhen(turn.input.text);
  if (!when) return { replies: [{ text: say("badWhen", turn.language) }] };
  const audience = turn.memory.audience;
  const args = {
    template_id: turn.memory.templateId,
    audience: audience && audience !== "all"
      ? { segment: "opted_in", filters: { language: audience } }
      : { segment: "opted_in" },
    when,
    variables: turn.memory.values ?? {},
    language: turn.language,
  };
  const result = await callTool(broadcastSchedule.name, args, "schedule");
  if (!result.ok && result.error.code === "CONFIRMATION_REQUIRED") {
    return {
      pending: {
        tool: broadcastSchedule.name,
        args,
        key: `${turn.input.wamid}:schedule`,
        summary: result.error.confirmation?.summary ?? result.error.msg,
        callId: "schedule",
      },
    };
  }
  if (!result.ok && result.error.fields?.some((field) => field.path === "when")) {
    return { replies: [{ text: say("badWhen", turn.language) }] };
  }
  return outcome(turn.language, readResult(broadcastSchedule, result));
}

function outcome(
  language: Language,
  result: ReturnType<typeof readResult<typeof broadcastSchedule.output>>,
): OfflineStep {
  if (result.ok) {
    return {
      replies: [{
        text: say("scheduled", language, {
          reach: result.data.estimated_reach,
          template: result.data.template.name,
          when: formatKigaliDate(result.data.scheduled_at, language, { time: true }),
          campaign: result.data.campaign_id.slice(0, 8),
        }),
      }],
      memory: CLEAR,
      done: true,
    };
  }
  const text = result.error.code === "CANCELLED"
    ? say("notScheduled", language)
    : say("refused", language, {
      why: result.error.fields?.map((field) => `${field.path}: ${field.message}.`).join(" ") ??
        `${result.error.msg}.`,
    });
  return { replies: [{ text }], memory: CLEAR, done: true };
}

/** The Marketing & Sales flow and its memory, spread into the agent. */
export const marketingFlow = typedFlow({
  version: 1,
  memory: marketingMemory,
  async step(turn, callTool) {
    if (turn.memory.lastTool === broadcastSchedule.name && turn.memory.lastResult) {
      return outcome(turn.language, readResult(broadcastSchedule, turn.memory.lastResult));
    }
    switch (turn.memory.stage) {
      case "template":
        return await pickTemplate(turn, callTool);
      case "variables":
        return fillVariable(turn);
      case "audience":
        return pickAudience(turn);
      case "when":
        return await schedule(turn, callTool);
      default:
        return await offerTemplates(turn, callTool);
    }
  },
});
