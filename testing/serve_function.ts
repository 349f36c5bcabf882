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

/** Serves `fetch` (a Hono app's, usually) as the function `name`. */
export function serveFunction(
  name: string,
  fetch: (request: Request) => Response | Promise<Response>,
): ServedFunction {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    url.pathname = url.pathname.replace(/^\/functions\/v1/, "");
    return fetch(new Request(url, request));
  });
  const port = (server.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}/functions/v1/${name}`,
    port,
    close: () => server.shutdown(),
  };
}
