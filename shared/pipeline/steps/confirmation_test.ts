import assert from "node:assert/strict";
import type { ToolResult } from "@shared/contract/mod.ts";
import { createLogger } from "@shared/runtime/log.ts";
import {
  answering,
  callFor,
  tenantsWith,
  testTool,
  unreadDatabase,
} from "@testing/pipeline_calls.ts";
import { ConfirmationSigner } from "../confirmation.ts";
import { confirmationStep } from "./confirmation.ts";

const SECRET = "a-confirmation-secret-of-at-least-32-bytes";
const QUIET = createLogger({ write: () => {} });
/** A rate limiter that always grants. */
const ALWAYS = { take: () => true };
const confirmed = testTool({
  confirmRequired: true,
  confirmSummary: (args, context) => `send ${args.n} for ${context.tenantName}`,
});

function gated(overrides: Parameters<typeof callFor>[1] = {}) {
  return callFor(confirmed, {
    args: { n: 3 },
    set: { scope: "org:user", fingerprint: "f1" },
    ...overrides,
  });
}

function failure(result: ToolResult) {
  assert.equal(result.ok, false);
  return (result as Extract<ToolResult, { ok: false }>).error;
}

Deno.test("confirmationStep() hands an unconfirmed tool's call on at once", () => {
  const next = answering();
  const step = confirmationStep({
    tenants: tenantsWith(),
    db: unreadDatabase(),
    log: QUIET,
    rateLimiter: ALWAYS,
    confirmations: new ConfirmationSigner(SECRET),
  });
  const answer = step(callFor(testTool()), next);
  assert.equal(answer instanceof Promise, false);
  assert.equal(next.calls.length, 1);
});

Deno.test("confirmationStep() asks for confirmation with a token and the tool's summary, then accepts the token", async () => {
  const now = () => Date.parse("2026-01-02T03:04:05Z");
  const step = confirmationStep({
    tenants: tenantsWith(),
    db: unreadDatabase(),
    log: QUIET,
    rateLimiter: ALWAYS,
    confirmations: new ConfirmationSigner(SECRET, { now }),
  });
  const next = answering();
  const asked = failure(await step(gated(), next));
  assert.equal(asked.code, "CONFIRMATION_REQUIRED");
  assert.equal(asked.msg, "Please confirm: send 3 for EasyMO");
  assert.equal(asked.confirmation?.summary, "send 3 for EasyMO");
  assert.equal(asked.confirmation?.expires_at, "2026-01-02T03:09:05.000Z");
  assert.equal(next.calls.length, 0);

  const token = asked.confirmation!.token;
  const call = gated({ confirmation: token });
  const answer = await step(call, next);
  assert.equal(answer.ok, true);
  assert.equal(next.calls.length, 1);
  assert.ok(call.now >= call.started, "the deadline counts from after the wait");
});

Deno.test("confirmationStep() asks again when the token was for other arguments, and refuses a forged one", async () => {
  const confirmations = new ConfirmationSigner(SECRET);
  const step = confirmationStep({
    tenants: tenantsWith(),
    confirmations,
    db: unreadDatabase(),
    log: QUIET,
    rateLimiter: ALWAYS,
  });
  const next = answering();
  const token = failure(await step(gated(), next)).confirmation!.token;
  const other = gated({ confirmation: token, set: { scope: "org:user", fingerprint: "f2" } });
  assert.equal(failure(await step(other, next)).code, "CONFIRMATION_REQUIRED");

  const forged = `${token.slice(0, -4)}AAAA`;
  const refused = failure(await step(gated({ confirmation: forged }), next));
  assert.deepEqual([refused.code, refused.msg], ["AUTH_ERROR", "Invalid confirmation"]);
  assert.equal(next.calls.length, 0);
});

Deno.test("confirmationStep() summarises with the title and arguments when the tool gives no summary", async () => {
  const step = confirmationStep({
    tenants: tenantsWith(),
    db: unreadDatabase(),
    log: QUIET,
    rateLimiter: ALWAYS,
    confirmations: new ConfirmationSigner(SECRET),
  });
  const plain = testTool({ confirmRequired: true });
  const asked = failure(await step(callFor(plain, { args: { n: 4 } }), answering()));
  assert.equal(asked.confirmation?.summary, 'Step test: {"n":4}');
});

Deno.test("confirmationStep() reads back with the arguments when the summary's read fails, and says so in the log", async () => {
  const lines: string[] = [];
  const db = unreadDatabase();
  const reading = testTool({
    confirmRequired: true,
    confirmSummary: async (args, { read }) => {
      const [row] = await read.query<{ name: string }>("select name from public.businesses");
      return `pay ${args.n} to ${row.name}`;
    },
  });
  const step = confirmationStep({
    tenants: tenantsWith(),
    confirmations: new ConfirmationSigner(SECRET),
    db,
    log: createLogger({ write: (line) => lines.push(line) }),
    rateLimiter: ALWAYS,
  });
  const asked = failure(await step(callFor(reading, { args: { n: 5 } }), answering()));
  assert.equal(asked.code, "CONFIRMATION_REQUIRED");
  assert.equal(asked.confirmation?.summary, 'Step test: {"n":5}');
  assert.deepEqual([db.opened, db.ended], [1, 1], "the summary's reads are given back");
  assert.equal(lines.length, 1);
  assert.match(lines[0], /confirmation_summary_failed/);
});

Deno.test("confirmationStep() asks from its own bucket beside the tool's, and a caller asking too often is refused before any read", async () => {
  const taken: string[] = [];
  let left = 1;
  const step = confirmationStep({
    tenants: tenantsWith(),
    db: unreadDatabase(),
    log: QUIET,
    confirmations: new ConfirmationSigner(SECRET),
    rateLimiter: {
      take: (key) => {
        taken.push(`${key.tool} ${key.subject}`);
        return left-- > 0;
      },
    },
  });
  const rate = {
    bucket: { orgId: "org", tool: confirmed.name, subject: "user-1" },
    limits: { perUser: { limit: 1, windowSec: 60 }, perTenant: { limit: 10, windowSec: 60 } },
  };
  const next = answering();
  const first = failure(await step(gated({ set: { scope: "s", fingerprint: "f", rate } }), next));
  assert.equal(first.code, "CONFIRMATION_REQUIRED");
  const second = failure(await step(gated({ set: { scope: "s", fingerprint: "f", rate } }), next));
  assert.equal(second.code, "RATE_LIMIT");
  assert.equal(second.confirmation, undefined, "no token is issued past the limit");
  assert.deepEqual(taken, [`${confirmed.name}#confirm user-1`, `${confirmed.name}#confirm user-1`]);
  assert.equal(next.calls.length, 0);
});
