/**
 * Provider tool-name rules and a reversible mapping from our names
 * (`^[a-z][a-z0-9_.]{0,63}$`, e.g. `markets.get_price`) to names a provider
 * accepts (`markets_get_price` for OpenAI and Anthropic).
 *
 * A {@link NameMap} is built once per export batch from every tool name in
 * it. The mapping is deterministic and independent of the order the names
 * arrive in: invalid characters become `_`; a name that then collides with
 * another tool's mapped name, or is too long, gets `_` plus six hex digits of
 * a stable hash (FNV-1a 32-bit of the original name) appended, truncated to
 * fit. A name the provider accepts unchanged always keeps it.
 *
 * @module
 */

/** What a provider accepts as a tool name. */
export interface NameRule {
  /** Provider label, used in messages. */
  readonly provider: string;
  /** What a valid name matches, anchored. */
  readonly pattern: RegExp;
  /** The longest valid name. */
  readonly maxLength: number;
  /** Matches one character that is not allowed anywhere; needs the `g` flag. */
  readonly invalidChar: RegExp;
}

/** Name rules of the providers we export to. */
export const NAME_RULES = {
  /** OpenAI function calling: `^[A-Za-z0-9_-]{1,64}$`. */
  openai: {
    provider: "openai",
    pattern: /^[A-Za-z0-9_-]{1,64}$/,
    maxLength: 64,
    invalidChar: /[^A-Za-z0-9_-]/g,
  },
  /** Anthropic tool use: `^[a-zA-Z0-9_-]{1,64}$`. */
  anthropic: {
    provider: "anthropic",
    pattern: /^[a-zA-Z0-9_-]{1,64}$/,
    maxLength: 64,
    invalidChar: /[^a-zA-Z0-9_-]/g,
  },
  /** Gemini function declarations: a letter or `_` first, then `[A-Za-z0-9_.:-]`, at most 64. */
  gemini: {
    provider: "gemini",
    pattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/,
    maxLength: 64,
    invalidChar: /[^A-Za-z0-9_.:-]/g,
  },
  /** MCP tools: 1–128 of `A-Za-z0-9_-.`. Our own names are always valid. */
  mcp: {
    provider: "mcp",
    pattern: /^[A-Za-z0-9_.-]{1,128}$/,
    maxLength: 128,
    invalidChar: /[^A-Za-z0-9_.-]/g,
  },
} as const satisfies Record<string, NameRule>;

/** Length of the hash suffix, without its `_`. */
const HASH_HEX_DIGITS = 6;

/**
 * A reversible mapping between our tool names and one provider's names,
 * built for one export batch.
 *
 * @example Mapping dotted names for OpenAI
 * ```ts
 * import assert from "node:assert/strict";
 * import { NAME_RULES, NameMap } from "./names.ts";
 *
 * const names = new NameMap(["markets.get_price"], NAME_RULES.openai);
 * assert.equal(names.toProvider("markets.get_price"), "markets_get_price");
 * assert.equal(names.fromProvider("markets_get_price"), "markets.get_price");
 * assert.equal(names.fromProvider("nope"), undefined);
 * ```
 */
export class NameMap {
  /** The rule the provider names follow. */
  readonly rule: NameRule;
  #toProvider = new Map<string, string>();
  #fromProvider = new Map<string, string>();

  /**
   * Maps every name of a batch; duplicates are mapped once.
   *
   * @param names Our tool names, in any order.
   * @param rule The provider's rule, one of {@link NAME_RULES}.
   */
  constructor(names: Iterable<string>, rule: NameRule) {
    this.rule = rule;
    const sorted = [...new Set(names)].sort();
    const candidates = new Map(sorted.map((name) => [name, sanitize(name, rule)]));
    const claims = new Map<string, string[]>();
    for (const [name, candidate] of candidates) {
      if (candidate === undefined) continue;
      claims.set(candidate, [...(claims.get(candidate) ?? []), name]);
    }
    // A candidate claimed once is kept; among several claims only a name the
    // provider accepts unchanged keeps it. Everyone else gets a hash suffix.
    const needsHash: string[] = [];
    for (const name of sorted) {
      const candidate = candidates.get(name);
      const claimants = candidate === undefined ? [] : claims.get(candidate) ?? [];
      if (candidate !== undefined && (claimants.length === 1 || candidate === name)) {
        this.#set(name, candidate);
      } else {
        needsHash.push(name);
      }
    }
    for (const name of needsHash) this.#set(name, this.#hashed(name));
  }

  /** The provider's name for one of ours, or `undefined` when it is not in the batch. */
  toProvider(name: string): string | undefined {
    return this.#toProvider.get(name);
  }

  /** Our name for a provider's name, or `undefined` when it is unknown. */
  fromProvider(providerName: string): string | undefined {
    return this.#fromProvider.get(providerName);
  }

  /** How many names the batch holds. */
  get size(): number {
    return this.#toProvider.size;
  }

  /** `[ourName, providerName]` pairs, sorted by our name. */
  entries(): [string, string][] {
    return [...this.#toProvider.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Our name → provider name, for `JSON.stringify`. */
  toJSON(): Record<string, string> {
    return Object.fromEntries(this.entries());
  }

  #set(name: string, providerName: string): void {
    this.#toProvider.set(name, providerName);
    this.#fromProvider.set(providerName, name);
  }

  #hashed(name: string): string {
    const base = (sanitize(name, this.rule, { truncate: false }) ?? "tool")
      .slice(0, this.rule.maxLength - HASH_HEX_DIGITS - 1);
    for (let attempt = 0;; attempt++) {
      const digest = fnv1a32(attempt === 0 ? name : `${name}#${attempt}`)
        .toString(16)
        .padStart(8, "0")
        .slice(0, HASH_HEX_DIGITS);
      const candidate = `${base}_${digest}`;
      if (!this.#fromProvider.has(candidate) && this.rule.pattern.test(candidate)) {
        return candidate;
      }
    }
  }
}

/**
 * The provider name a name would get without collisions, or `undefined`
 * when it needs a hash (too long, or still invalid).
 */
function sanitize(
  name: string,
  rule: NameRule,
  options: { truncate?: boolean } = {},
): string | undefined {
  let candidate = name.replace(rule.invalidChar, "_");
  if (candidate !== "" && !rule.pattern.test(candidate.slice(0, 1))) candidate = `_${candidate}`;
  if (options.truncate === false) return candidate === "" ? undefined : candidate;
  return rule.pattern.test(candidate) ? candidate : undefined;
}

/** FNV-1a, 32-bit, over the UTF-8 bytes of `text`: tiny, synchronous and stable. */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
