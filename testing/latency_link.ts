/**
 * A TCP link with a round-trip time, for benchmarks that count round trips:
 * it listens on 127.0.0.1 and forwards every connection to a target port,
 * holding each chunk half the round trip in each direction (in order, as a
 * network would). On loopback a round trip costs a few microseconds, so what a
 * benchmark measures there is CPU; through this link it measures what a
 * deployed function pays to reach its database. Deno's timers fire on whole
 * milliseconds, late rather than early, so the delay added is at least the
 * one asked for: benchmarks print the bare baseline's time over the link.
 *
 * @module
 */

/** Options for {@link openLatencyLink}. */
export interface LatencyLinkOptions {
  /** The port on 127.0.0.1 to forward to. */
  targetPort: number;
  /** Round-trip time added, in milliseconds (half each way). */
  roundTripMs: number;
}

/** A running link. */
export interface LatencyLink {
  /** The port to connect to instead of the target's. */
  port: number;
  /** Stops listening and closes every forwarded connection. */
  close(): Promise<void>;
}

/** Opens a link; connect to its `port` to reach `targetPort` with the delay added. */
export function openLatencyLink(options: LatencyLinkOptions): LatencyLink {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const oneWayMs = options.roundTripMs / 2;

  const forward = async (from: Deno.Conn, to: Deno.Conn) => {
    // Each chunk leaves `oneWayMs` after it arrived; writes stay in arrival order.
    let sent = Promise.resolve();
    try {
      for await (const chunk of from.readable) {
        const due = performance.now() + oneWayMs;
        sent = sent.then(async () => {
          const wait = due - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          await writeAll(to, chunk);
        });
      }
      await sent;
    } catch {
      // Either side closed: close both below.
    }
    for (const conn of [from, to]) {
      open.delete(conn);
      try {
        conn.close();
      } catch {
        // Already closed.
      }
    }
  };

  const serving = (async () => {
    for await (const client of listener) {
      try {
        const server = await Deno.connect({ hostname: "127.0.0.1", port: options.targetPort });
        client.setNoDelay(true);
        server.setNoDelay(true);
        open.add(client).add(server);
        void forward(client, server);
        void forward(server, client);
      } catch {
        client.close();
      }
    }
  })();

  return {
    port: (listener.addr as Deno.NetAddr).port,
    async close() {
      listener.close();
      for (const conn of open) {
        try {
          conn.close();
        } catch {
          // Already closed.
        }
      }
      await serving.catch(() => {});
    },
  };
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await conn.write(bytes.subarray(written));
}
