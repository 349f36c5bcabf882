/**
 * Loopback fakes of the notification providers, for tests: a Slack
 * incoming webhook that answers as Slack does (`200 ok`, `400
 * invalid_payload`/`no_text`, `404 no_service`, scripted errors) and a
 * generic HTTP SMS gateway. Both record what they receive.
 *
 * @module
 */

/** One scripted answer. */
export interface FakeAnswer {
  /** HTTP status. */
  status: number;
  /** Plain-text body. */
  body?: string;
  /** Extra headers (`Retry-After`). */
  headers?: Record<string, string>;
  /**
   * Takes the request (it is in `received`) and gives this answer only when
   * the server closes: the sender's timeout cannot tell whether it was posted.
   */
  hang?: boolean;
}

/** A running fake. */
export interface FakeServer<T> {
  /** The URL to post to. */
  url: string;
  /** Every request body accepted for processing, in order. */
  received: T[];
  /** Authorization headers seen, in order. */
  authorizations: Array<string | null>;
  /** Answers to give next, in order; then the default success. */
  script: FakeAnswer[];
  /** Stops the server. */
  close(): Promise<void>;
}

function startServer<T>(
  path: string,
  handle: (body: unknown, headers: Headers) => FakeAnswer | undefined,
  success: FakeAnswer,
): FakeServer<T> {
  const received: T[] = [];
  const authorizations: Array<string | null> = [];
  const script: FakeAnswer[] = [];
  const closing = Promise.withResolvers<void>();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (request) => {
      const text = await request.text();
      const reply = (answer: FakeAnswer) =>
        // 204 and 205 carry no body at all.
        new Response([204, 205].includes(answer.status) ? null : answer.body ?? "", {
          status: answer.status,
          headers: { "content-type": "text/html", ...answer.headers },
        });
      if (request.method !== "POST" || new URL(request.url).pathname !== path) {
        return reply({ status: 404, body: "no_service" });
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return reply({ status: 400, body: "invalid_payload" });
      }
      const invalid = handle(body, request.headers);
      if (invalid) return reply(invalid);
      received.push(body as T);
      authorizations.push(request.headers.get("authorization"));
      const answer = script.shift() ?? success;
      if (answer.hang) await closing.promise;
      return reply(answer);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}${path}`,
    received,
    authorizations,
    script,
    close: () => {
      closing.resolve();
      return server.shutdown();
    },
  };
}

/** A Slack incoming-webhook body as the fake reads it. */
export interface ReceivedSlackMessage {
  /** Message text. */
  text?: string;
  /** Block Kit blocks. */
  blocks?: Array<Record<string, unknown>>;
}

/**
 * A fake Slack incoming webhook at `/services/T000/B000/<secret>`: a body
 * that is not JSON is `400 invalid_payload`, one without text or blocks
 * `400 no_text`, another path `404 no_service`; `script` gives Slack's other
 * answers (`401 invalid_token`, `429` with `Retry-After`, `{hang: true}`).
 */
export function startFakeSlack(): FakeServer<ReceivedSlackMessage> {
  return startServer<ReceivedSlackMessage>(
    `/services/T000/B000/${crypto.randomUUID().replaceAll("-", "")}`,
    (body) => {
      const message = body as ReceivedSlackMessage | null;
      if (typeof message !== "object" || message === null) {
        return { status: 400, body: "invalid_payload" };
      }
      if (!message.text && !message.blocks) return { status: 400, body: "no_text" };
      return undefined;
    },
    { status: 200, body: "ok" },
  );
}

/** What the fake SMS gateway reads. */
export interface ReceivedSms {
  /** Sender. */
  from: string;
  /** Recipients. */
  to: string[];
  /** Message. */
  text: string;
}

/**
 * A fake generic SMS gateway at `/v1/sms`: answers `202 {"status":"queued"}`;
 * a bearer key other than `apiKey` is `401 {"error":"unauthorized"}`, a body
 * without `from`, `to` or `text` is `400 {"error":"bad_request"}`.
 */
export function startFakeSmsGateway(options: { apiKey: string }): FakeServer<ReceivedSms> {
  return startServer<ReceivedSms>(
    "/v1/sms",
    (body, headers) => {
      if (headers.get("authorization") !== `Bearer ${options.apiKey}`) {
        return { status: 401, body: '{"error":"unauthorized"}' };
      }
      const sms = body as Partial<ReceivedSms> | null;
      const valid = typeof sms === "object" && sms !== null && typeof sms.from === "string" &&
        Array.isArray(sms.to) && sms.to.length > 0 && typeof sms.text === "string";
      return valid ? undefined : { status: 400, body: '{"error":"bad_request"}' };
    },
    { status: 202, body: '{"status":"queued"}' },
  );
}
