/**
 * Serves a function's app on a loopback port the way Supabase mounts it:
 * `/functions/v1/<name>/…` reaches the app as `/<name>/…`.
 *
 * @module
 */

/** A function served on 127.0.0.1. */
export interface ServedFunction {
  /** `http://127.0.0.1:<port>/functions/v1/<name>`. */
  url: string;
  /** The port, for raw clients. */
  port: number;
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * The request for `url`, copied field by field: `new Request(url, request)`
 * would follow request.signal, which Deno.serve still aborts after every
 * successful response and warns about ("legacy abort"), as in
 * scripts/dev_server.ts; no function reads the signal.
 */
export function forwardedRequest(url: URL, request: Request): Request {
  return new Request(url, { method: request.method, headers: request.headers, body: request.body });
}

/** Serves `fetch` (a Hono app's, usually) as the function `name`. */
export function serveFunction(
  name: string,
  fetch: (request: Request) => Response | Promise<Response>,
): ServedFunction {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(/^\/functions\/v1/, "");
    return fetch(forwardedRequest(url, request));
  });
  const port = (server.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}/functions/v1/${name}`,
    port,
    close: () => server.shutdown(),
  };
}
