/**
 * Search by meaning, when an embeddings provider is configured: the tools'
 * texts and the need are embedded (OpenAI's `/v1/embeddings`, through the
 * same key and endpoint as the model) and ranked by cosine similarity, then
 * fused with the keyword ranking (reciprocal rank fusion). A provider that
 * fails or is slow never fails a search: it falls back to keywords.
 *
 * @module
 */
import type { SearchHit } from "./tool_search.ts";

/** Turns texts into vectors, one per text, in order. */
export interface TextEmbedder {
  /**
   * Embeds `texts`.
   *
   * @throws {Error} when the provider fails or `signal` aborts.
   */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Options for {@link createOpenAIEmbedder}. */
export interface OpenAIEmbedderOptions {
  /** The API key. */
  apiKey: string;
  /** An OpenAI-compatible endpoint, including `/v1`. @default "https://api.openai.com/v1" */
  baseURL?: string;
  /** The embedding model. @default "text-embedding-3-small" */
  model?: string;
  /** One request's time limit. @default 2000 */
  timeoutMs?: number;
}

/** The embedding model used when `OPENAI_EMBEDDING_MODEL` is not set. */
export const DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small";

/**
 * An embedder over OpenAI's `/v1/embeddings` (or a compatible endpoint).
 *
 * @throws {TypeError} when the key is empty.
 */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): TextEmbedder {
  if (!options.apiKey) throw new TypeError("Cannot create an embedder as apiKey is empty");
  // A plain request in OpenAI's wire format rather than its client: every function carries the
  // discovery tools, and only the agent function may carry the client (scripts/ci/check_bundles.ts).
  const url = `${(options.baseURL ?? "https://api.openai.com/v1").replace(/\/+$/, "")}/embeddings`;
  const model = options.model ?? DEFAULT_EMBEDDING_MODEL;
  const timeoutMs = options.timeoutMs ?? 2_000;
  return {
    async embed(texts, signal) {
      // No retry: a search waits for none, keywords answer at once instead.
      const limit = AbortSignal.timeout(timeoutMs);
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "authorization": `Bearer ${options.apiKey}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ model, input: texts }),
        signal: signal ? AbortSignal.any([signal, limit]) : limit,
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`The embeddings provider answered HTTP ${response.status}`);
      }
      const body = await response.json() as {
        data?: Array<{ index: number; embedding: number[] }>;
      };
      const vectors = [...body.data ?? []].sort((a, b) => a.index - b.index)
        .map((item) => item.embedding);
      if (vectors.length !== texts.length || vectors.some((vector) => !Array.isArray(vector))) {
        throw new Error(`The embeddings provider answered ${vectors.length} of ${texts.length}`);
      }
      return vectors;
    },
  };
}

/**
 * The embedder configured by `OPENAI_API_KEY`, `OPENAI_BASE_URL` and
 * `OPENAI_EMBEDDING_MODEL` (default `text-embedding-3-small`); null without
 * a key or with `OPENAI_EMBEDDING_MODEL=off` (keywords only).
 */
export function embedderFromEnv(env: Pick<Deno.Env, "get"> = Deno.env): TextEmbedder | null {
  const read = (name: string) => env.get(name)?.trim() || undefined;
  const apiKey = read("OPENAI_API_KEY");
  const model = read("OPENAI_EMBEDDING_MODEL");
  if (!apiKey || model === "off") return null;
  return createOpenAIEmbedder({ apiKey, baseURL: read("OPENAI_BASE_URL"), model });
}

/** Cosine similarity of two vectors (0 when either is all zeros). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Reciprocal rank fusion of rankings (best first): each name scores
 * `Σ 1 / (k + rank)`; a name one ranking lacks gains nothing from it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fuseRankings } from "./tool_embeddings.ts";
 * const fused = fuseRankings([["a", "b"], ["b", "c"]], 3);
 * assert.equal(fused[0].name, "b");
 * ```
 */
export function fuseRankings(rankings: ReadonlyArray<readonly string[]>, limit: number, k = 60) {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((name, rank) => scores.set(name, (scores.get(name) ?? 0) + 1 / (k + rank + 1)));
  }
  return [...scores].map(([name, score]): SearchHit => ({
    name,
    score: Math.round(score * 100_000) / 100_000,
  })).sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).slice(0, limit);
}
