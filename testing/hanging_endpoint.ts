/**
 * A model endpoint that hangs: a real TCP server on 127.0.0.1 that accepts
 * every connection, reads the request and never answers, as a provider does
 * when it is overloaded behind a load balancer that still takes connections.
 * {@link HangingEndpoint.recover} brings it back: from then on each new
 * connection is forwarded byte for byte to a real server (e.g. the scripted
 * OpenAI-compatible one), at the same address.
 *
 * @module
 */

/** Options for {@link startHangingEndpoint}. */
export interface HangingEndpointOptions {
  /** Where connections go once it has recovered: a port on 127.0.0.1. */
  recoverTo?: number;
}

/** A running endpoint. */
export interface HangingEndpoint extends AsyncDisposable {
  /** Base URL for the `openai` client, ending with `/v1`. */
  baseURL: string;
  /** HTTP requests received while hanging (none was ever answered). */
  readonly hungRequests: number;
  /** From now on, new connections reach `recoverTo`. */
  recover(): void;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const REQUEST_LINE = /(?:^|\r\n)(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \S+ HTTP\/1\.[01]\r\n/g;

/**
 * Starts a hanging endpoint on a free loopback port.
 *
 * @param options Where to forward once recovered.
 * @returns Its base URL, the requests it swallowed, `recover()` and `close()`.
 *
 * @example A request that never gets an answer
 * ```ts
 * import assert from "node:assert/strict";
 * import { startHangingEndpoint } from "./hanging_endpoint.ts";
 *
 * await using endpoint = startHangingEndpoint();
 * const signal = AbortSignal.timeout(100);
 * await assert.rejects(fetch(`${endpoint.baseURL}/models`, { signal }));
 * assert.equal(endpoint.hungRequests, 1);
 * ```
 */
export function startHangingEndpoint(options: HangingEndpointOptions = {}): HangingEndpoint {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  let hungRequests = 0;
  let recovered = false;

  const closeQuietly = (conn: Deno.Conn) => {
    open.delete(conn);
    try {
      conn.close();
    } catch {
      // Already closed.
    }
  };

  // Reads and counts the requests, answers nothing, until the client gives up.
  const hold = async (conn: Deno.Conn) => {
    const decoder = new TextDecoder();
    let seen = "";
    try {
      for await (const chunk of conn.readable) {
        seen += decoder.decode(chunk, { stream: true });
        const lines = seen.match(REQUEST_LINE)?.length ?? 0;
        if (lines) hungRequests += lines;
        // Keep only a tail long enough to hold a request line split across chunks.
        seen = seen.slice(-200).replace(REQUEST_LINE, "");
      }
    } catch {
      // The client hung up.
    }
    closeQuietly(conn);
  };

  const pipe = async (from: Deno.Conn, to: Deno.Conn) => {
    try {
      await from.readable.pipeTo(to.writable, { preventClose: true });
    } catch {
      // Either side closed.
    }
    closeQuietly(from);
    closeQuietly(to);
  };

  const serving = (async () => {
    try {
      for await (const conn of listener) {
        open.add(conn);
        if (!recovered || options.recoverTo === undefined) {
          void hold(conn);
          continue;
        }
        try {
          const target = await Deno.connect({ hostname: "127.0.0.1", port: options.recoverTo });
          open.add(target);
          void pipe(conn, target);
          void pipe(target, conn);
        } catch {
          closeQuietly(conn);
        }
      }
    } catch {
      // The listener was closed.
    }
  })();

  const close = async () => {
    try {
      listener.close();
    } catch {
      // Already closed.
    }
    for (const conn of [...open]) closeQuietly(conn);
    await serving;
  };

  return {
    baseURL: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/v1`,
    get hungRequests() {
      return hungRequests;
    },
    recover() {
      recovered = true;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
