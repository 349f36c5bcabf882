/**
 * An HTTP(S) request that connects to an address already checked, not to
 * whatever the name resolves to when the socket opens: `node:http` and
 * `node:https` with a `lookup` that answers the checked address. TLS still
 * verifies the certificate against the URL's host name (SNI and the name
 * check use the host, only the TCP connection uses the address), so a
 * pinned request to a public address is as trustworthy as a plain fetch.
 *
 * This closes DNS rebinding for {@link safeFetch}: with `fetch`, the name
 * would be resolved a second time when connecting, and a zone answering a
 * public address to the check and `127.0.0.1` to the connection would reach
 * the private network.
 *
 * @module
 */
import http from "node:http";
import https from "node:https";
import type net from "node:net";
import { Readable } from "node:stream";

/** Options for {@link pinnedRequest}. */
export interface PinnedRequestOptions {
  /** The checked address to connect to (IPv4 or IPv6). */
  address: string;
  /** Extra root certificates (PEM), for tests' own certificates. @default the system's roots */
  caCerts?: readonly string[];
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Sends `init` to `url`, connecting to `options.address`, and answers a web `Response`
 * whose body streams (so callers can stop reading past a size).
 *
 * @throws {TypeError} for a body other than a string or bytes, or when the exchange fails.
 */
export function pinnedRequest(
  url: URL,
  init: RequestInit,
  options: PinnedRequestOptions,
): Promise<Response> {
  const body = init.body;
  if (
    body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)
  ) {
    return Promise.reject(new TypeError("Cannot send as the body must be a string or bytes"));
  }
  const family = options.address.includes(":") ? 6 : 4;
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => headers[name] = value);
  const method = (init.method ?? "GET").toUpperCase();
  const secure = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(url, {
      method,
      headers,
      signal: init.signal ?? undefined,
      ...(secure && options.caCerts ? { ca: [...options.caCerts] } : {}),
      // Every lookup of this request answers the checked address: no second resolution.
      lookup: ((_host, lookupOptions, callback) => {
        const answer = callback as (...args: unknown[]) => void;
        if ((lookupOptions as { all?: boolean })?.all) {
          answer(null, [{ address: options.address, family }]);
        } else answer(null, options.address, family);
      }) as net.LookupFunction,
    }, (response) => {
      const answer = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) answer.append(name, item);
      }
      const status = response.statusCode ?? 502;
      const stream = method === "HEAD" || NULL_BODY.has(status)
        ? null
        : Readable.toWeb(response) as ReadableStream<Uint8Array>;
      if (!stream) response.resume();
      resolve(
        new Response(stream, { status, statusText: response.statusMessage, headers: answer }),
      );
    });
    request.on("error", reject);
    request.end(body ?? undefined);
  });
}
