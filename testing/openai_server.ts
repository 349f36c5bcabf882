/**
 * A scripted OpenAI-compatible server on 127.0.0.1 for tests: no model is
 * reachable from the build machines, so tests point the real `openai` client
 * at this server instead. It speaks the non-streaming `/v1/chat/completions`
 * wire format, checks the bearer key (401 with OpenAI's error envelope
 * otherwise), answers from a script, and records every request so tests can
 * assert what the model was given.
 *
 * @module
 */
import type OpenAI from "openai";

/** The request body the client sent to `/v1/chat/completions`, as parsed JSON (not validated). */
export type ChatCompletionRequestBody = OpenAI.ChatCompletionCreateParamsNonStreaming;

/** One tool call the scripted model makes. */
export interface ScriptedToolCall {
  /** Call id. @default `call_<request>_<index>` */
  id?: string;
  /** Provider (OpenAI-side) function name, e.g. `markets_get_price`. */
  name: string;
  /** Arguments: a string is sent verbatim (e.g. broken JSON); anything else is JSON-encoded. */
  arguments: unknown;
}

/** A successful completion the scripted model returns. */
export interface ScriptedReply {
  /** Assistant text. @default null when there are tool calls, "" otherwise */
  content?: string | null;
  /** Tool calls; when non-empty `finish_reason` is `"tool_calls"`. */
  tool_calls?: ScriptedToolCall[];
}

/** An HTTP error the scripted server answers with, in OpenAI's error envelope. */
export interface ScriptedError {
  /** HTTP status, e.g. 500 or 429. */
  status: number;
  /** The `error` object (a string becomes its `message`). */
  error: string | { message: string; type?: string; code?: string | null; param?: string | null };
  /** Extra response headers, e.g. `{"retry-after-ms": "0"}` or `{"x-should-retry": "false"}`. */
  headers?: Record<string, string>;
}

/** One scripted step: a reply or an error. */
export type ScriptStep = ScriptedReply | ScriptedError;

/** What a script function is told besides the request body. */
export interface ScriptContext {
  /** 0-based index of this chat completion request among the authorised ones. */
  index: number;
  /**
   * Aborted when the server closes. (Not tied to `request.signal`: in Deno 2.9
   * that also aborts after successful responses and logs a warning.)
   */
  signal: AbortSignal;
}

/** A function choosing each answer, or a list of answers consumed in order. */
export type Script =
  | ((body: ChatCompletionRequestBody, context: ScriptContext) => ScriptStep | Promise<ScriptStep>)
  | ScriptStep[];

/** One request the server received. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** URL path, e.g. `/v1/chat/completions`. */
  path: string;
  /** Whether the bearer key matched. */
  authorized: boolean;
  /** The parsed JSON body (`null` when absent or not JSON). */
  body: ChatCompletionRequestBody | null;
}

/** Options for {@link startScriptedOpenAI}. */
export interface StartScriptedOpenAIOptions {
  /** The answers. */
  script: Script;
  /** The bearer key the server accepts. @default a random `sk-test-…` key */
  apiKey?: string;
}

/** A running scripted server. */
export interface ScriptedOpenAI extends AsyncDisposable {
  /** Base URL for the `openai` client, ending with `/v1`. */
  baseURL: string;
  /** The key the server accepts. */
  apiKey: string;
  /** Every request received, in order (unauthorised ones too). */
  requests: RecordedRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts a scripted OpenAI-compatible server on a free loopback port.
 *
 * @param options The script and the accepted key.
 * @returns The server's base URL, key, recorded requests and `close()`; supports `await using`.
 *
 * @example A server answering with one tool call
 * ```ts
 * import assert from "node:assert/strict";
 * import OpenAI from "openai";
 * import { startScriptedOpenAI } from "./openai_server.ts";
 *
 * await using server = startScriptedOpenAI({
 *   script: [{ tool_calls: [{ name: "notify_staff", arguments: { text: "hi" } }] }],
 * });
 * const client = new OpenAI({ apiKey: server.apiKey, baseURL: server.baseURL });
 * const completion = await client.chat.completions.create({
 *   model: "gpt-4o-mini",
 *   messages: [{ role: "user", content: "hello" }],
 * });
 * assert.equal(completion.choices[0].finish_reason, "tool_calls");
 * assert.equal(server.requests.length, 1);
 * ```
 */
export function startScriptedOpenAI(options: StartScriptedOpenAIOptions): ScriptedOpenAI {
  const apiKey = options.apiKey ?? `sk-test-${crypto.randomUUID()}`;
  const requests: RecordedRequest[] = [];
  const queue = Array.isArray(options.script) ? [...options.script] : undefined;
  const scriptFunction = Array.isArray(options.script) ? undefined : options.script;
  const closing = new AbortController();
  let served = 0;

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const authorized = request.headers.get("authorization") === `Bearer ${apiKey}`;
    const text = await request.text();
    let body: ChatCompletionRequestBody | null = null;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    requests.push({ method: request.method, path: url.pathname, authorized, body });

    if (!authorized) {
      const sent = (request.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, "");
      // Like some OpenAI-compatible proxies, echo the key in full: callers must not leak it.
      return errorResponse({
        status: 401,
        error: {
          message: `Incorrect API key provided: ${sent}.`,
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      });
    }
    if (request.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      return errorResponse({
        status: 404,
        error: { message: `Unknown request URL: ${request.method} ${url.pathname}.`, code: null },
      });
    }
    if (body === null || typeof body !== "object") {
      return errorResponse({
        status: 400,
        error: { message: "We could not parse the JSON body of your request.", code: null },
      });
    }

    const index = served++;
    let step: ScriptStep | undefined;
    if (queue !== undefined) {
      step = queue.shift();
    } else if (scriptFunction !== undefined) {
      step = await scriptFunction(body, { index, signal: closing.signal });
    }
    if (step === undefined) {
      return errorResponse({
        status: 500,
        error: { message: `Scripted OpenAI server has no reply left for request ${index}.` },
        headers: { "x-should-retry": "false" },
      });
    }
    if ("status" in step) return errorResponse(step);
    return Response.json(completion(step, body, index));
  };

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, handler);
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    apiKey,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** The `chat.completion` object for a scripted reply. */
function completion(step: ScriptedReply, body: ChatCompletionRequestBody, index: number) {
  const calls = (step.tool_calls ?? []).map((call, position) => ({
    id: call.id ?? `call_${index}_${position}`,
    type: "function" as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string"
        ? call.arguments
        : JSON.stringify(call.arguments),
    },
  }));
  const content = step.content !== undefined ? step.content : calls.length > 0 ? null : "";
  return {
    id: `chatcmpl-scripted-${index}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: typeof body.model === "string" ? body.model : "scripted",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content,
        refusal: null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      },
      logprobs: null,
      finish_reason: calls.length > 0 ? "tool_calls" : "stop",
    }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** An error in OpenAI's envelope: `{error: {message, type, param, code}}`. */
function errorResponse(step: ScriptedError): Response {
  const error = typeof step.error === "string" ? { message: step.error } : step.error;
  return Response.json(
    {
      error: {
        message: error.message,
        type: error.type ?? (step.status >= 500 ? "server_error" : "invalid_request_error"),
        param: error.param ?? null,
        code: error.code ?? null,
      },
    },
    { status: step.status, headers: step.headers },
  );
}
