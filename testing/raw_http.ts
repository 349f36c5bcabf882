/**
 * A raw HTTP/1.1 client over TCP for tests of what `fetch` cannot do: send a
 * huge chunked body while counting how much the server let through, or send
 * a body so slowly that the server's deadline must end it.
 *
 * @module
 */

/** What the server answered and how much of the body it let us send. */
export interface RawExchange {
  /** The response status, or 0 when the connection closed without one. */
  status: number;
  /** Response headers and body as text (first 64 KiB). */
  response: string;
  /** Body bytes written before the server stopped taking them (or answered). */
  sentBytes: number;
  /** Whether every byte of the body was written. */
  sentAll: boolean;
}

/** Options for {@link sendChunked}. */
export interface ChunkedOptions {
  /** Request target, e.g. `/tools`. */
  path: string;
  /** The server's port on 127.0.0.1. */
  port: number;
  /** Total body bytes to offer. */
  totalBytes: number;
  /** Bytes per chunk. @default 65536 */
  chunkBytes?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Pause between chunks, in ms (a trickling client). @default 0 */
  pauseMs?: number;
}

const encoder = new TextEncoder();

/**
 * POSTs `totalBytes` of `{` in chunked encoding, stopping as soon as the
 * server answers or closes; returns the answer and the bytes it took.
 */
export async function sendChunked(options: ChunkedOptions): Promise<RawExchange> {
  const chunkBytes = options.chunkBytes ?? 65536;
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: options.port });
  const head = [
    `POST ${options.path} HTTP/1.1`,
    `host: 127.0.0.1:${options.port}`,
    "content-type: application/json",
    "transfer-encoding: chunked",
    ...Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    "",
    "",
  ].join("\r\n");
  let answered = false;
  const reading = (async () => {
    const buffer = new Uint8Array(65536);
    let text = "";
    try {
      while (text.length < 65536) {
        const n = await conn.read(buffer);
        if (n === null) break;
        text += new TextDecoder().decode(buffer.subarray(0, n));
        if (/\r\n\r\n/.test(text) && /content-length: *(\d+)/i.test(text)) {
          const length = Number(/content-length: *(\d+)/i.exec(text)![1]);
          if (text.length >= text.indexOf("\r\n\r\n") + 4 + length) break;
        }
      }
    } catch {
      // Reset by the server: what arrived is the answer.
    }
    answered = true;
    // A server that answered but stopped reading leaves our write blocked: end it.
    try {
      conn.close();
    } catch {
      // Already closed.
    }
    return text;
  })();
  let sentBytes = 0;
  let sentAll = false;
  try {
    await writeAll(conn, encoder.encode(head));
    const payload = new Uint8Array(chunkBytes).fill(0x7b);
    const frame = concat(
      encoder.encode(`${chunkBytes.toString(16)}\r\n`),
      payload,
      encoder.encode("\r\n"),
    );
    while (!answered && sentBytes < options.totalBytes) {
      await writeAll(conn, frame);
      sentBytes += chunkBytes;
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
    if (!answered) {
      await writeAll(conn, encoder.encode("0\r\n\r\n"));
      sentAll = true;
    }
  } catch {
    // The server closed the connection under us: it stopped reading.
  }
  const response = await reading;
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
  return { status, response, sentBytes, sentAll };
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
