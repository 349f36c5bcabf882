/**
 * The flow contract's memory: an agent's offline flow declares what it keeps
 * between turns as a schema with a version. A deploy that changes the memory
 * bumps the version; a conversation that resumes with memory of another
 * version (or memory its schema refuses) is migrated by the flow's
 * `migrate`, or restarted with a plain message to the user. It never reaches
 * the flow as something the flow cannot read.
 *
 * @module
 */
import { z } from "zod";
import type {
  FlowMemory,
  OfflineFlow,
  OfflineStep,
  OfflineToolCaller,
  OfflineTurn,
} from "./pack.ts";

export type { FlowMemory };

/** How a conversation's kept memory resumes, from {@link resumeMemory}. */
export type MemoryResume =
  /** Readable as it is. */
  | { kind: "current"; memory: Record<string, unknown> }
  /** Read through `migrate`: the flow continues from `memory`. */
  | { kind: "migrated"; memory: Record<string, unknown>; from: number }
  /** Unreadable: the flow starts again, and the user is told. */
  | { kind: "restart"; from: number; issues: string };

/** The memory key holding each agent's memory version. */
export const MEMORY_VERSIONS = "memoryVersions";

/**
 * The version `memory` was kept at for `agent`: 0 when it predates versions
 * (conversations kept before the flow declared its memory).
 */
export function keptVersion(memory: Record<string, unknown>, agent: string): number {
  const versions = memory[MEMORY_VERSIONS];
  if (typeof versions !== "object" || versions === null || !(agent in versions)) return 0;
  const version: unknown = Object.getOwnPropertyDescriptor(versions, agent)?.value;
  return typeof version === "number" ? version : 0;
}

/** `memory` stamped as kept at `version` for `agent`. */
export function stampVersion(
  memory: Record<string, unknown>,
  agent: string,
  version: number,
): Record<string, unknown> {
  const versions = memory[MEMORY_VERSIONS];
  const kept = typeof versions === "object" && versions !== null ? versions : {};
  return { [MEMORY_VERSIONS]: { ...kept, [agent]: version } };
}

// Memory is merged between turns and a cleared key is kept as null: absent, to the schema.
function present(memory: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(memory).filter(([key, value]) => value !== null && key !== MEMORY_VERSIONS),
  );
}

/**
 * Decides how `agent`'s kept memory resumes under `declared`: as it is when
 * it was kept at this version (or before versions) and the schema reads it;
 * else through `migrate`; else a restart.
 */
export function resumeMemory(
  declared: FlowMemory,
  agent: string,
  memory: Record<string, unknown>,
): MemoryResume {
  const from = keptVersion(memory, agent);
  const old = present(memory);
  // Memory kept before versions existed is read as it is when the schema reads it.
  if (from === declared.version || from === 0) {
    if (declared.schema.safeParse(old).success) return { kind: "current", memory };
  }
  const migrated = declared.migrate?.(old, from) ?? null;
  const parsed = migrated === null ? null : declared.schema.safeParse(migrated);
  if (parsed?.success) return { kind: "migrated", memory: parsed.data, from };
  const refused = parsed ?? declared.schema.safeParse(old);
  const issues = refused.success
    ? `kept at version ${from}, now ${declared.version}`
    : refused.error.issues.map((issue) => issue.path.join(".") || "memory").join(", ");
  return { kind: "restart", from, issues };
}

/** A flow's turn with its memory typed by its schema. */
export interface TypedTurn<M> extends Omit<OfflineTurn, "memory"> {
  /** The flow's memory, read by its schema. */
  memory: M;
}

/** What {@link typedFlow} declares. */
export interface TypedFlowSpec<S extends z.ZodObject> {
  /** The memory's version: bump it when the schema changes. */
  version: number;
  /** The memory's schema; `{}` must pass. */
  memory: S;
  /** See {@link FlowMemory.migrate}. */
  migrate?(old: Record<string, unknown>, fromVersion: number): z.input<S> | null;
  /**
   * One step of the flow. What it keeps is checked by the schema when the
   * next turn reads it: a key kept in a shape the schema refuses restarts
   * the conversation rather than reaching the flow.
   */
  step(turn: TypedTurn<z.output<S>>, callTool: OfflineToolCaller): Promise<OfflineStep>;
}

/**
 * An offline flow whose memory has a type and a version: spread it into the
 * agent (`{ id, ...typedFlow({...}) }`). The graph checks kept memory with
 * {@link resumeMemory} before the flow runs, so the flow reads it typed.
 *
 * @throws {TypeError} when `{}` does not pass the memory's schema (a new conversation could not start).
 */
export function typedFlow<S extends z.ZodObject>(
  spec: TypedFlowSpec<S>,
): {
  offlineFlow: (turn: OfflineTurn, callTool: OfflineToolCaller) => Promise<OfflineStep>;
  memory: FlowMemory;
} {
  if (!spec.memory.safeParse({}).success) {
    throw new TypeError(
      "Cannot declare a flow as its memory's schema refuses {}: every key must be optional",
    );
  }
  if (!Number.isInteger(spec.version) || spec.version < 1) {
    throw new TypeError(
      `Cannot declare a flow as its memory's version must be a whole number from 1: current value is ${spec.version}`,
    );
  }
  return {
    offlineFlow: (turn, callTool) =>
      spec.step({ ...turn, memory: spec.memory.parse(present(turn.memory)) }, callTool),
    memory: { version: spec.version, schema: spec.memory, migrate: spec.migrate },
  };
}

/**
 * An offline flow that keeps nothing between turns (a welcome, a plain
 * "not yet"), declared as such: its memory is the empty schema at version 1,
 * so what the conversation kept for other agents never reaches it, and a
 * deploy never restarts it. Spread it into the agent as {@link typedFlow}'s.
 *
 * @example
 * ```ts
 * import { statelessFlow } from "@shared/registry/flow_memory.ts";
 * const agent = {
 *   id: "greeter",
 *   ...statelessFlow(() => Promise.resolve({ replies: [{ text: "Hello" }] })),
 * };
 * ```
 */
export function statelessFlow(
  flow: OfflineFlow,
): { offlineFlow: OfflineFlow; memory: FlowMemory } {
  return typedFlow({
    version: 1,
    memory: z.object({}),
    step: (turn, callTool) => flow({ ...turn, memory: {} }, callTool),
  });
}

/**
 * The memory fields of a call kept for confirmation (`callWithConfirmation`
 * and `confirmedOutcome`): its result, read back with the tool's own schema
 * by `readKeptResult`, and the tool's name. Spread into a flow's memory schema.
 */
export const keptCallMemory = {
  lastResult: z.unknown().optional(),
  lastTool: z.string().nullish(),
};
