/**
 * The one way generated tools and document imports reach outside: an HTTP
 * fetch that refuses loopback, private, link-local, CGNAT, multicast and
 * reserved addresses (IPv4 and IPv6, IPv4-mapped and NAT64 forms included),
 * also when a DNS name resolves to one, checks every redirect again (followed
 * by hand), stops at a deadline and stops reading past a size while the body
 * streams. A tenant configured for private networks (an operator's setting)
 * skips the address check only.
 *
 * The connection goes to the address that was checked
 * (`pinned_request.ts`), never to a second resolution of the name, so a
 * zone that answers a public address to the check and a private one to the
 * connection (DNS rebinding) reaches the public one; TLS is still verified
 * against the host name.
 *
 * @module
 */

import { pinnedRequest } from "./pinned_request.ts";

/** Why a fetch was refused or failed. */
export type FetchFailureKind =
  | "bad_url"
  | "blocked_address"
  | "unresolvable"
  | "too_many_redirects"
  | "too_large"
  | "timeout"
  | "not_json"
  | "network";

/** A refused or failed fetch; its message names no secret, only the host. */
export class SafeFetchError extends Error {
  /** What went wrong. */
  readonly kind: FetchFailureKind;

  /** Creates the error. */
  constructor(kind: FetchFailureKind, message: string) {
    super(message);
    this.name = "SafeFetchError";
    this.kind = kind;
  }
}

/** Resolves a host name to its addresses (A and AAAA). */
export type Resolver = (host: string) => Promise<string[]>;

/** Options for {@link safeFetch}. */
export interface SafeFetchOptions {
  /** Reach loopback and private addresses (the tenant's operator said so). @default false */
  allowPrivateNetwork?: boolean;
  /** Deadline of the whole exchange, redirects included. @default 10000 */
  timeoutMs?: number;
  /** Most bytes read of the body. @default 1 MiB */
  maxBytes?: number;
  /** Most redirects followed. @default 3 */
  maxRedirects?: number;
  /**
   * What the body must be: JSON only, any text (documents), or any bytes
   * (files, answered in `bytes`, `text` left empty). @default "json"
   */
  accept?: "json" | "text" | "bytes";
  /** Header names dropped when a redirect leaves the origin (credentials). */
  sensitiveHeaders?: readonly string[];
  /** The caller's cancellation (the tool's hard timeout). */
  signal?: AbortSignal;
  /** DNS resolution. @default `Deno.resolveDns` A and AAAA */
  resolve?: Resolver;
  /**
   * The transport, once a target passed the checks (tests route a public
   * name to a loopback server with it). It is handed the checked address to
   * connect to (`null` with the private-network setting: nothing was checked).
   * @default {@link pinnedRequest} to the checked address; `fetch` when none
   */
  fetch?: Transport;
  /** Extra root certificates (PEM) for https (tests' own). @default the system's roots */
  caCerts?: readonly string[];
  /**
   * Which addresses are refused (tests stand a "public" API on another
   * loopback address with it). @default {@link isBlockedAddress}
   */
  isBlocked?: (address: string) => boolean;
}

/** Sends a request once its target passed the checks, connecting to `address` when given. */
export type Transport = (
  url: URL,
  init: RequestInit,
  address: string | null,
) => Promise<Response>;

/** What {@link safeFetch} answers. */
export interface SafeResponse {
  /** HTTP status of the final response. */
  status: number;
  /** Its headers. */
  headers: Headers;
  /** The body as text (at most `maxBytes`; empty when bytes were asked for). */
  text: string;
  /** The body's bytes, when `accept` is `"bytes"`. */
  bytes?: Uint8Array<ArrayBuffer>;
  /** The final URL, after redirects. */
  url: string;
}

/** The default resolver: the system's DNS, A and AAAA answers together. */
export async function resolveHost(host: string): Promise<string[]> {
  const answers = await Promise.allSettled([
    Deno.resolveDns(host, "A"),
    Deno.resolveDns(host, "AAAA"),
  ]);
  return answers.flatMap((answer) => answer.status === "fulfilled" ? answer.value : []);
}

/**
 * Fetches `url` under the SSRF rules.
 *
 * @throws {SafeFetchError} for a refused address, a deadline, an oversized or non-JSON body.
 */
export async function safeFetch(
  url: string | URL,
  init: RequestInit = {},
  options: SafeFetchOptions = {},
): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const maxRedirects = options.maxRedirects ?? 3;
  const signals = [AbortSignal.timeout(timeoutMs)];
  if (options.signal) signals.push(options.signal);
  const signal = AbortSignal.any(signals);
  let target = parseUrl(url);
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body;
  const headers = new Headers(init.headers);
  try {
    for (let hop = 0;; hop++) {
      const [address] = await checkTarget(target, options);
      const request = { ...init, method, body, headers, redirect: "manual" as const, signal };
      const response = await (options.fetch ?? defaultTransport(options))(
        target,
        request,
        address ?? null,
      );
      if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
        await response.body?.cancel();
        if (hop >= maxRedirects) {
          throw new SafeFetchError("too_many_redirects", `More than ${maxRedirects} redirects`);
        }
        const next = parseUrl(new URL(response.headers.get("location")!, target));
        if (next.origin !== target.origin) {
          for (const name of ["authorization", "cookie", ...(options.sensitiveHeaders ?? [])]) {
            headers.delete(name);
          }
        }
        if (response.status === 303 || (response.status <= 302 && method === "POST")) {
          method = "GET";
          body = undefined;
          headers.delete("content-type");
        }
        target = next;
        continue;
      }
      const contentType = response.headers.get("content-type") ?? "";
      if ((options.accept ?? "json") === "json" && !isJson(contentType) && response.body) {
        await response.body.cancel();
        throw new SafeFetchError(
          "not_json",
          `${target.host} answered ${contentType || "no type"}, not JSON`,
        );
      }
      const bytes = await readCapped(response, maxBytes, target.host);
      const answer = { status: response.status, headers: response.headers, url: target.href };
      return options.accept === "bytes"
        ? { ...answer, text: "", bytes }
        : { ...answer, text: new TextDecoder().decode(bytes) };
    }
  } catch (error) {
    if (error instanceof SafeFetchError) throw error;
    if (signal.aborted) {
      throw new SafeFetchError("timeout", `${target.host} did not answer within ${timeoutMs} ms`);
    }
    throw new SafeFetchError("network", `${target.host} could not be reached`);
  }
}

function defaultTransport(options: SafeFetchOptions): Transport {
  return (url, init, address) =>
    address === null
      ? fetch(url, init)
      : pinnedRequest(url, init, { address, caCerts: options.caCerts });
}

function isJson(contentType: string): boolean {
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

function parseUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SafeFetchError("bad_url", "Not a valid URL");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new SafeFetchError(
      "bad_url",
      `Only http and https URLs: current value is ${parsed.protocol}`,
    );
  }
  if (parsed.username || parsed.password) {
    throw new SafeFetchError("bad_url", "A URL may not carry a user name or password");
  }
  return parsed;
}

/**
 * Refuses a URL whose host is, or resolves to, an address the tenant may not reach.
 *
 * @returns The addresses checked (connect to one of these, never to a new resolution);
 *   none with the private-network setting, which checks nothing.
 * @throws {SafeFetchError} `blocked_address` or `unresolvable`.
 */
export async function checkTarget(url: URL, options: SafeFetchOptions = {}): Promise<string[]> {
  if (options.allowPrivateNetwork) return [];
  const isBlocked = options.isBlocked ?? isBlockedAddress;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) {
    throw new SafeFetchError("blocked_address", `${host} is a loopback name`);
  }
  const literal = parseIp(host);
  const addresses = literal ? [host] : await (options.resolve ?? resolveHost)(host);
  if (addresses.length === 0) throw new SafeFetchError("unresolvable", `${host} has no address`);
  for (const address of addresses) {
    if (isBlocked(address)) {
      throw new SafeFetchError(
        "blocked_address",
        `${host} is a private or reserved address (${address})`,
      );
    }
  }
  return addresses.map((address) => address.replace(/^\[|\]$/g, ""));
}

async function readCapped(
  response: Response,
  maxBytes: number,
  host: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new SafeFetchError("too_large", `${host} answered more than ${maxBytes} bytes`);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new SafeFetchError("too_large", `${host} answered more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** An IPv4 address as 4 bytes, an IPv6 one as 16; `null` for anything else. */
export function parseIp(text: string): number[] | null {
  const host = text.replace(/^\[|\]$/g, "");
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) {
    const bytes = host.split(".").map(Number);
    return bytes.every((byte) => byte <= 255) ? bytes : null;
  }
  if (!host.includes(":")) return null;
  return parseIpv6(host.split("%")[0]);
}

function parseIpv6(host: string): number[] | null {
  let tail: number[] = [];
  let text = host;
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4) {
    const bytes = parseIp(v4[1]);
    if (!bytes) return null;
    tail = bytes;
    text = text.slice(0, -v4[1].length) + "0:0";
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => part ? part.split(":") : [];
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const all = [...head, ...Array(missing).fill("0"), ...rest];
  const bytes: number[] = [];
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inV4(bytes: number[], base: number[], bits: number): boolean {
  for (let i = 0; i < 4; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    const mask = take === 0 ? 0 : (0xff << (8 - take)) & 0xff;
    if ((bytes[i] & mask) !== (base[i] & mask)) return false;
  }
  return true;
}

const BLOCKED_V4: [number[], number][] = [
  [[0, 0, 0, 0], 8], // "this" network
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // CGNAT
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local, cloud metadata
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

/** Whether an address is one a tenant's API may not be reached at without the private-network setting. */
export function isBlockedAddress(address: string): boolean {
  const bytes = parseIp(address);
  if (!bytes) return true; // not an address we can judge: refuse
  if (bytes.length === 4) return BLOCKED_V4.some(([base, bits]) => inV4(bytes, base, bits));
  const embedded = bytes.slice(12);
  const zeros = (n: number) => bytes.slice(0, n).every((byte) => byte === 0);
  if (zeros(15) && (bytes[15] === 0 || bytes[15] === 1)) return true; // :: and ::1
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judge the IPv4 inside.
  if (zeros(10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return isBlockedAddress(embedded.join("."));
  }
  if (zeros(12)) return isBlockedAddress(embedded.join("."));
  // NAT64 (64:ff9b::/96) reaches the IPv4 inside.
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) {
    return isBlockedAddress(embedded.join("."));
  }
  // 6to4 (2002::/16) carries an IPv4 in bytes 2–5.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return isBlockedAddress(bytes.slice(2, 6).join("."));
  if ((bytes[0] & 0xfe) === 0xfc) return true; // unique local fc00::/7
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) return true; // link-local fe80::/10
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0xc0) return true; // site-local fec0::/10
  if (bytes[0] === 0xff) return true; // multicast
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x0d && bytes[3] === 0xb8) {
    return true; // documentation 2001:db8::/32
  }
  return false;
}
