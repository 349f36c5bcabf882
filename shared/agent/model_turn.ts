/**
 * One turn's use of the model. Every call the turn makes (routing, then each
 * step of acting) shares ONE deadline counted from the turn's start, so the
 * user never waits for the model longer than that whatever it does; the
 * first failure ends the model's part in the turn (the rest runs offline at
 * once, without asking again); and when the model is slow but the turn is
 * still waiting, the user is told once, in their language, that we are on it.
 *
 * @module
 */
import { type Language, phraseBook } from "@shared/contract/language.ts";
import {
  type ChatModel,
  type CompleteInput,
  type ModelReply,
  ModelUnavailableError,
} from "./model.ts";

/**
 * The model's time for a whole turn by default: the rest of a turn (storing
 * the message before, the offline flow and committing the reply after) took
 * up to 2.5 s on a loaded machine, so the reply still comes within the 15 s
 * a user may wait.
 */
export const DEFAULT_MODEL_TURN_DEADLINE_MS = 10_000;

/** How long the model may keep a user waiting before they are told we are on it. */
export const DEFAULT_MODEL_WORKING_NOTICE_MS = 3_500;

const say = phraseBook({
  working: {
    en: "One moment, I'm on it…",
    rw: "Mwihangane gato, ndabikoraho…",
    fr: "Un instant, je m'en occupe…",
  },
});

/**
 * The short "working on it" a user gets while slow work is under way.
 *
 * @param language The user's language.
 * @returns The text.
 */
export function workingText(language: Language): string {
  return say("working", language);
}

/** How a turn bounds the model; see {@link modelTurnOptionsFromEnv}. */
export interface ModelTurnSettings {
  /**
   * The model's time for the whole turn, routing and acting together, from
   * the turn's start. @default 10000
   */
  deadlineMs?: number;
  /**
   * After this long into the turn, a model call still waiting makes the user
   * hear {@link workingText} (once per turn). @default 3500
   */
  noticeAfterMs?: number;
}

/** Options for {@link createModelTurn}. */
export interface ModelTurnOptions extends ModelTurnSettings {
  /** The model. */
  model: ChatModel;
  /**
   * Tells the user we are working on it. Awaited before the slow call's
   * result is returned, so it always arrives before the reply.
   */
  notice?(language: Language): Promise<void>;
}

/** One turn's access to the model; see the module documentation. */
export interface ModelTurn {
  /**
   * Asks the model with what is left of the turn's time.
   *
   * @param input The conversation and tools (`signal` and `timeoutMs` are the turn's).
   * @param language The user's language, for the "working on it" notice.
   * @returns The model's answer.
   * @throws {ModelUnavailableError} when the model failed or ran out of time in
   * this turn, now or in an earlier call.
   */
  complete(input: Omit<CompleteInput, "timeoutMs">, language: Language): Promise<ModelReply>;
  /** The turn's first model failure, or null. */
  readonly failure: ModelUnavailableError | null;
  /** Whether the model answered at least once this turn. */
  readonly answered: boolean;
  /** Whether the user was told we are working on it. */
  readonly noticed: boolean;
}

/**
 * Starts a turn's use of the model; the deadline counts from now.
 *
 * @param options The model, the deadline and how to tell the user.
 * @returns The turn's model.
 * @throws {RangeError} when a duration is not a positive number of milliseconds.
 *
 * @example A turn whose model never answers
 * ```ts
 * import assert from "node:assert/strict";
 * import { createModelTurn } from "./model_turn.ts";
 * import { ModelUnavailableError } from "./model.ts";
 *
 * // A model that never answers, and ignores every signal.
 * const hanging = { complete: () => new Promise<never>(() => {}) };
 * const turn = createModelTurn({ model: hanging, deadlineMs: 50 });
 * await assert.rejects(turn.complete({ messages: [], tools: [] }, "en"), ModelUnavailableError);
 * assert.equal(turn.failure?.reason, "timeout");
 * ```
 */
export function createModelTurn(options: ModelTurnOptions): ModelTurn {
  const deadlineMs = positive(options.deadlineMs ?? DEFAULT_MODEL_TURN_DEADLINE_MS, "deadlineMs");
  const noticeAfterMs = positive(
    options.noticeAfterMs ?? DEFAULT_MODEL_WORKING_NOTICE_MS,
    "noticeAfterMs",
  );
  const { model } = options;
  const started = performance.now();
  let failure: ModelUnavailableError | null = null;
  let answered = false;
  let notice: Promise<void> | null = null;

  const tell = (language: Language) => {
    // Once per turn; a notice that cannot be sent never costs the reply.
    notice ??= (options.notice?.(language) ?? Promise.resolve()).catch(() => {});
  };

  return {
    get failure() {
      return failure;
    },
    get answered() {
      return answered;
    },
    get noticed() {
      return notice !== null;
    },
    async complete(input, language) {
      if (failure) throw failure;
      const elapsed = performance.now() - started;
      const left = deadlineMs - elapsed;
      let timer: ReturnType<typeof setTimeout> | undefined;
      if (options.notice && notice === null && noticeAfterMs < deadlineMs) {
        timer = setTimeout(() => tell(language), Math.max(0, noticeAfterMs - elapsed));
      }
      try {
        if (left <= 0) {
          throw new ModelUnavailableError("No time was left for the model this turn", {
            reason: "timeout",
          });
        }
        const reply = await withinDeadline(model, input, left);
        answered = true;
        return reply;
      } catch (error) {
        if (error instanceof ModelUnavailableError) failure ??= error;
        throw error;
      } finally {
        clearTimeout(timer);
        // The notice, once queued, goes out before whatever this call leads to.
        if (notice) await notice;
      }
    },
  };
}

/**
 * The model's answer within `ms`: the model is told the limit (`timeoutMs`,
 * and a signal that aborts at it), and a model that ignores both is not
 * waited for past it anyway.
 */
async function withinDeadline(
  model: ChatModel,
  input: Omit<CompleteInput, "timeoutMs">,
  ms: number,
): Promise<ModelReply> {
  const limit = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      limit.abort();
      reject(
        new ModelUnavailableError("The model ran out of time this turn", { reason: "timeout" }),
      );
    }, ms);
  });
  const signal = input.signal ? AbortSignal.any([input.signal, limit.signal]) : limit.signal;
  const call = model.complete({ ...input, signal, timeoutMs: ms });
  try {
    return await Promise.race([call, expired]);
  } catch (error) {
    // The call's own failure at the deadline (an abort) is the deadline's.
    if (limit.signal.aborted && !input.signal?.aborted) {
      throw error instanceof ModelUnavailableError && error.reason === "timeout"
        ? error
        : new ModelUnavailableError("The model ran out of time this turn", { reason: "timeout" });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    // Whichever lost the race must not surface as an unhandled rejection.
    call.catch(() => {});
    expired.catch(() => {});
  }
}

/**
 * The turn settings configured by `MODEL_TURN_DEADLINE_MS` (default 10000)
 * and `MODEL_WORKING_NOTICE_MS` (default 3500).
 *
 * @param env Where to read the variables (`Deno.env` or a stand-in).
 * @returns The settings.
 * @throws {TypeError} when a variable is set but not milliseconds.
 *
 * @example Defaults
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelTurnOptionsFromEnv } from "./model_turn.ts";
 *
 * assert.deepEqual(modelTurnOptionsFromEnv({ get: () => undefined }), {
 *   deadlineMs: 10000,
 *   noticeAfterMs: 3500,
 * });
 * ```
 */
export function modelTurnOptionsFromEnv(
  env: Pick<Deno.Env, "get"> = Deno.env,
): Required<ModelTurnSettings> {
  const read = (name: string) => millisecondsFromEnv(env, name);
  return {
    deadlineMs: read("MODEL_TURN_DEADLINE_MS") ?? DEFAULT_MODEL_TURN_DEADLINE_MS,
    noticeAfterMs: read("MODEL_WORKING_NOTICE_MS") ?? DEFAULT_MODEL_WORKING_NOTICE_MS,
  };
}

/**
 * A whole number of milliseconds (1–9999999) from the environment, or
 * undefined when unset.
 *
 * @throws {TypeError} when the variable is set but not such a number.
 */
export function millisecondsFromEnv(env: Pick<Deno.Env, "get">, name: string): number | undefined {
  const value = env.get(name)?.trim();
  if (value === undefined || value === "") return undefined;
  if (!/^[1-9]\d{0,6}$/.test(value)) {
    throw new TypeError(
      `Cannot configure the model as ${name} must be milliseconds (1-9999999): current value is ${value}`,
    );
  }
  return Number(value);
}

function positive(value: number, name: string): number {
  if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(
      `Cannot bound the model's turn as ${name} must be a positive number of milliseconds: current value is ${value}`,
    );
  }
  return value;
}
