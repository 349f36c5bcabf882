/**
 * The chat model port the agent graph calls, independent of LangChain message
 * classes, and its OpenAI-compatible implementation.
 *
 * {@link createOpenAIModel} sends our tools as OpenAI function tools (strict
 * where the schema allows, via `toOpenAITools`) under provider-safe names
 * (`markets.get_price` → `markets_get_price`), and maps the reply's tool calls
 * back to our names with parsed arguments. A tool call naming a tool that was
 * not offered keeps its name unchanged and is flagged `unknown`, so the caller
 * can refuse it (the agent answers AUTH_ERROR). API failures become
 * {@link ModelUnavailableError}, which never carries the API key.
 *
 * @module
 */
import OpenAI from "openai";
import type { AnyTool } from "@shared/registry/registry.ts";
import { fromOpenAIArguments, type OpenAIExport, toOpenAITools } from "@shared/export/openai.ts";
import { toJsonSchema } from "@shared/export/json_schema.ts";
import type { NameMap } from "@shared/export/names.ts";

/** One tool call, by OUR tool name. */
export interface ToolCall {
  /** Provider call id, echoed back as the tool result's `tool_call_id`. */
  id: string;
  /** Our tool name (e.g. `markets.get_price`), or the provider's name unchanged when unknown. */
  name: string;
  /**
   * Parsed arguments, with the `null`s strict mode sends for omitted optionals
   * removed; the raw string when the model sent invalid JSON.
   */
  args: unknown;
  /**
   * True when the model named a tool that was not offered in this request:
   * the caller must refuse the call.
   */
  unknown?: boolean;
}

/** One message of the conversation. */
export interface ChatTurn {
  /** Who speaks. */
  role: "system" | "user" | "assistant" | "tool";
  /** The text (a tool turn: the tool's result, usually JSON). */
  content: string;
  /** Assistant turns: the tool calls it made. */
  tool_calls?: ToolCall[];
  /** Tool turns: the id of the call this answers. */
  tool_call_id?: string;
}

/** What the model answered. */
export interface ModelReply {
  /** Assistant text ("" when it only called tools). */
  content: string;
  /** Tool calls to run, in order (empty when none). */
  tool_calls: ToolCall[];
}

/** Input of {@link ChatModel.complete}. */
export interface CompleteInput {
  /** The conversation so far. */
  messages: ChatTurn[];
  /** The tools the model may call (already filtered by the caller's allowlist). */
  tools: AnyTool[];
  /** Cancels the request. */
  signal?: AbortSignal;
  /**
   * The most this call may take in all, in milliseconds, retries and their
   * back-off included: each attempt's timeout is cut to it and no retry
   * starts after it (the call then fails with reason `timeout`). How the
   * agent keeps one deadline per turn. @default no bound beyond the model's own timeout
   */
  timeoutMs?: number;
}

/** A chat model the agent graph calls. */
export interface ChatModel {
  /**
   * Where the model is served (an OpenAI-compatible base URL; never a key),
   * so failures can be told apart per endpoint. @default unknown: one endpoint
   */
  readonly endpoint?: string;
  /**
   * Asks the model for the next turn.
   *
   * @throws {ModelUnavailableError} when the model cannot be reached or refuses the request.
   */
  complete(input: CompleteInput): Promise<ModelReply>;
}

/** Why a model call failed. */
export type ModelFailure = "http" | "timeout" | "connection" | "aborted" | "invalid_response";

/** Options for {@link ModelUnavailableError}. */
export interface ModelUnavailableErrorOptions {
  /** Why it failed. */
  reason: ModelFailure;
  /** HTTP status when the API answered with an error. */
  status?: number | null;
  /** The provider's error code, e.g. `invalid_api_key`, `rate_limit_exceeded`. */
  code?: string | null;
  /** The underlying error. Not set for HTTP errors, whose messages may echo the key. */
  cause?: unknown;
}

/**
 * The model could not answer: the agent falls back to its deterministic mode
 * or answers SERVICE_UNAVAILABLE. The message never contains the API key.
 */
export class ModelUnavailableError extends Error {
  /** Why it failed. */
  readonly reason: ModelFailure;
  /** HTTP status, or `null` when no response arrived. */
  readonly status: number | null;
  /** The provider's error code, if any. */
  readonly code: string | null;

  /**
   * @param message What failed, without secrets.
   * @param options Reason, status, code and cause.
   */
  constructor(message: string, options: ModelUnavailableErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ModelUnavailableError";
    this.reason = options.reason;
    this.status = options.status ?? null;
    this.code = options.code ?? null;
  }
}

/** Options for {@link createOpenAIModel}. */
export interface CreateOpenAIModelOptions {
  /** API key, sent as the bearer token. */
  apiKey: string;
  /** OpenAI-compatible base URL, including `/v1`. @default "https://api.openai.com/v1" */
  baseURL?: string;
  /** Model name, e.g. `gpt-4o-mini`. */
  model: string;
  /**
   * Per-attempt request timeout (the client retries once); a call's own
   * {@link CompleteInput.timeoutMs} cuts it shorter. @default 30000
   */
  timeoutMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /** Sampling temperature; the provider default when omitted. */
  temperature?: number;
}

/** The default OpenAI endpoint. */
export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** The model {@link modelFromEnv} uses when `OPENAI_MODEL` is not set. */
export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

/**
 * A {@link ChatModel} over the OpenAI Chat Completions API (or any compatible endpoint).
 *
 * @param options Key, endpoint, model and request settings.
 * @returns The model.
 *
 * @example Asking a scripted server for a tool call
 * ```ts
 * import assert from "node:assert/strict";
 * import { createOpenAIModel } from "./model.ts";
 * import { startScriptedOpenAI } from "@testing/openai_server.ts";
 * import { notifyStaff } from "@shared/packs/support/mod.ts";
 *
 * await using server = startScriptedOpenAI({
 *   script: [{
 *     tool_calls: [{
 *       name: "notify_staff",
 *       arguments: { channel: "inbox", payload: { reason: "asked", summary: "Hi", priority: null } },
 *     }],
 *   }],
 * });
 * const model = createOpenAIModel({ apiKey: server.apiKey, baseURL: server.baseURL, model: "m" });
 * const reply = await model.complete({
 *   messages: [{ role: "user", content: "Call a human" }],
 *   tools: [notifyStaff],
 * });
 * assert.deepEqual(reply.tool_calls[0].args, {
 *   channel: "inbox",
 *   payload: { reason: "asked", summary: "Hi" },
 * });
 * ```
 */
export function createOpenAIModel(options: CreateOpenAIModelOptions): ChatModel {
  if (typeof options.apiKey !== "string" || options.apiKey === "") {
    throw new TypeError("Cannot create an OpenAI model as apiKey is empty");
  }
  if (typeof options.model !== "string" || options.model === "") {
    throw new TypeError("Cannot create an OpenAI model as model is empty");
  }
  const apiKey = options.apiKey;
  const baseURL = options.baseURL ?? OPENAI_DEFAULT_BASE_URL;
  const attemptMs = options.timeoutMs ?? 30_000;
  const client = new OpenAI({
    apiKey,
    // Explicit values everywhere, so the client never reads OPENAI_* from the environment.
    baseURL,
    organization: null,
    project: null,
    webhookSecret: null,
    adminAPIKey: null,
    maxRetries: 1,
    timeout: attemptMs,
    logLevel: "off",
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });

  // Exporting a tool set to OpenAI's format costs tens of milliseconds (its schemas are
  // converted and checked) and an agent offers the same tools on every call of every turn:
  // the last export of each set is kept, reused while it holds the very same tool objects
  // (a tool registered again, or a tenant's changed policy, makes a new set).
  const exports = new Map<string, ToolExport>();
  const exportOf = (tools: readonly AnyTool[]): ToolExport => {
    const key = tools.map((tool) => tool.name).join("\n");
    const kept = exports.get(key);
    if (kept && kept.tools.every((tool, i) => tool === tools[i])) return kept;
    const made: ToolExport = {
      tools: [...tools],
      exported: toOpenAITools(tools),
      offered: new Map(tools.map((tool) => [tool.name, tool])),
    };
    exports.delete(key);
    // Agents times tenants' policies: a handful of sets; the oldest goes past the bound.
    if (exports.size >= MAX_KEPT_EXPORTS) exports.delete(exports.keys().next().value!);
    exports.set(key, made);
    return made;
  };

  return {
    endpoint: baseURL.replace(/\/+$/, ""),
    async complete(input: CompleteInput): Promise<ModelReply> {
      const { exported, offered } = exportOf(input.tools);
      const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
        model: options.model,
        messages: input.messages.map((turn) => toOpenAIMessage(turn, exported.names)),
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      };
      // OpenAI rejects an empty `tools` array and `parallel_tool_calls` without tools.
      if (exported.tools.length > 0) {
        body.tools = exported.tools;
        body.tool_choice = "auto";
        body.parallel_tool_calls = false;
      }
      const budget = callBudget(input.timeoutMs);
      let completion: OpenAI.ChatCompletion;
      try {
        completion = await client.chat.completions.create(body, {
          signal: budget.signal(input.signal),
          // The client's timeout is per attempt: never longer than the whole call may take.
          timeout: Math.max(1, Math.min(attemptMs, Math.ceil(budget.ms))),
        });
      } catch (error) {
        if (budget.expired() && !input.signal?.aborted) {
          throw new ModelUnavailableError("Model request ran out of time", { reason: "timeout" });
        }
        throw toUnavailable(error, apiKey);
      } finally {
        budget.clear();
      }
      const message = completion.choices?.[0]?.message;
      if (message === undefined || message === null) {
        throw new ModelUnavailableError("Model answered without a message", {
          reason: "invalid_response",
        });
      }
      return {
        content: message.content ?? message.refusal ?? "",
        tool_calls: (message.tool_calls ?? []).map((call) =>
          fromOpenAIToolCall(call, exported.names, offered)
        ),
      };
    },
  };
}

/**
 * The model configured by `OPENAI_API_KEY`, `OPENAI_BASE_URL`,
 * `OPENAI_MODEL` (default `gpt-4o-mini`) and `OPENAI_TIMEOUT_MS` (per
 * attempt, default 30000), or `null` when no key is set: the agent then runs
 * its deterministic mode.
 *
 * @param env Where to read the variables (`Deno.env` or a stand-in).
 * @returns The model, or `null` without a key.
 *
 * @example Without a key
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelFromEnv } from "./model.ts";
 *
 * assert.equal(modelFromEnv({ get: () => undefined }), null);
 * ```
 */
export function modelFromEnv(env: Pick<Deno.Env, "get"> = Deno.env): ChatModel | null {
  const read = (name: string) => {
    const value = env.get(name)?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const apiKey = read("OPENAI_API_KEY");
  if (apiKey === undefined) return null;
  const timeout = read("OPENAI_TIMEOUT_MS");
  if (timeout !== undefined && !/^[1-9]\d{0,6}$/.test(timeout)) {
    throw new TypeError(
      `Cannot create an OpenAI model as OPENAI_TIMEOUT_MS must be milliseconds (1-9999999): current value is ${timeout}`,
    );
  }
  return createOpenAIModel({
    apiKey,
    baseURL: read("OPENAI_BASE_URL"),
    model: read("OPENAI_MODEL") ?? DEFAULT_OPENAI_MODEL,
    timeoutMs: timeout === undefined ? undefined : Number(timeout),
  });
}

/** How many tool sets' exports one model keeps. */
const MAX_KEPT_EXPORTS = 64;

/** One tool set as sent to OpenAI, and its tools by our name. */
interface ToolExport {
  tools: readonly AnyTool[];
  exported: OpenAIExport;
  offered: Map<string, AnyTool>;
}

/** A call's time limit as an abort signal that also carries the caller's. */
function callBudget(timeoutMs: number | undefined) {
  if (timeoutMs === undefined) {
    return {
      ms: Infinity,
      signal: (outer: AbortSignal | undefined) => outer,
      expired: () => false,
      clear: () => {},
    };
  }
  if (typeof timeoutMs !== "number" || Number.isNaN(timeoutMs)) {
    throw new TypeError(
      `Cannot ask the model as timeoutMs must be a number: current value is ${String(timeoutMs)}`,
    );
  }
  if (timeoutMs <= 0) {
    throw new ModelUnavailableError("No time was left for the model", { reason: "timeout" });
  }
  const limit = new AbortController();
  // Our own timer, cleared when the call ends, so nothing is left pending after it.
  const timer = setTimeout(() => limit.abort(), timeoutMs);
  return {
    ms: timeoutMs,
    signal: (outer: AbortSignal | undefined) =>
      outer === undefined ? limit.signal : AbortSignal.any([outer, limit.signal]),
    expired: () => limit.signal.aborted,
    clear: () => clearTimeout(timer),
  };
}

/** Our turn as an OpenAI message; assistant tool calls under provider names. */
function toOpenAIMessage(turn: ChatTurn, names: NameMap): OpenAI.ChatCompletionMessageParam {
  switch (turn.role) {
    case "system":
      return { role: "system", content: turn.content };
    case "user":
      return { role: "user", content: turn.content };
    case "assistant": {
      const calls = turn.tool_calls ?? [];
      if (calls.length === 0) return { role: "assistant", content: turn.content };
      return {
        role: "assistant",
        content: turn.content === "" ? null : turn.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: "function" as const,
          function: {
            name: names.toProvider(call.name) ?? providerSafeName(call.name),
            arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}),
          },
        })),
      };
    }
    case "tool":
      if (typeof turn.tool_call_id !== "string" || turn.tool_call_id === "") {
        throw new TypeError("Cannot send a tool turn as tool_call_id is missing");
      }
      return { role: "tool", tool_call_id: turn.tool_call_id, content: turn.content };
    default:
      throw new TypeError(
        `Cannot send a turn as role must be system, user, assistant or tool: current value is ${
          String((turn as { role: unknown }).role)
        }`,
      );
  }
}

/** A name OpenAI accepts (`^[A-Za-z0-9_-]{1,64}$`), for past calls of tools no longer offered. */
function providerSafeName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  return safe === "" ? "_" : safe;
}

/** A reply's tool call by our name, with parsed arguments. */
function fromOpenAIToolCall(
  call: OpenAI.ChatCompletionMessageToolCall,
  names: NameMap,
  offered: Map<string, AnyTool>,
): ToolCall {
  if (call.type !== "function") {
    // A custom (free-text) tool call: we never offer those.
    return { id: call.id, name: call.custom.name, args: call.custom.input, unknown: true };
  }
  const providerName = call.function.name;
  const name = names.fromProvider(providerName) ?? providerName;
  const tool = offered.get(name);
  const raw = call.function.arguments ?? "";
  let args: unknown;
  try {
    args = fromOpenAIArguments(
      raw === "" ? "{}" : raw,
      tool === undefined ? {} : { schema: toJsonSchema(tool) },
    );
  } catch {
    args = raw;
  }
  return tool === undefined
    ? { id: call.id, name, args, unknown: true }
    : { id: call.id, name, args };
}

/** Any failure of the client as a {@link ModelUnavailableError}, with the key redacted. */
function toUnavailable(error: unknown, apiKey: string): ModelUnavailableError {
  if (error instanceof ModelUnavailableError) return error;
  if (error instanceof OpenAI.APIUserAbortError) {
    return new ModelUnavailableError("Model request was aborted", { reason: "aborted" });
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelUnavailableError("Model request timed out", { reason: "timeout" });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new ModelUnavailableError("Model endpoint is unreachable", { reason: "connection" });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    const detail = typeof error.error === "object" && error.error !== null &&
        "message" in error.error && typeof error.error.message === "string"
      ? `: ${redact(error.error.message, apiKey)}`
      : "";
    const code = typeof error.code === "string" ? error.code : null;
    return new ModelUnavailableError(`Model API answered HTTP ${error.status}${detail}`, {
      reason: "http",
      status: error.status,
      code,
    });
  }
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new ModelUnavailableError(`Model request failed: ${redact(text, apiKey)}`, {
    reason: "invalid_response",
  });
}

/** Removes the key (and anything shaped like an OpenAI key) from a message. */
function redact(text: string, apiKey: string): string {
  return text.split(apiKey).join("[redacted]").replace(/\bsk-[A-Za-z0-9_*-]{4,}/g, "[redacted]")
    .slice(0, 500);
}
