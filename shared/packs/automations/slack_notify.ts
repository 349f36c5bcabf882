/**
 * Slack for automations: `slack_webhook_set` keeps a tenant's incoming-webhook
 * URL (a secret: anyone holding it may post to the channel; it is stored in a
 * table no caller reads, reached only through `private.slack_webhook_put` and
 * `private.slack_webhook_url`, which answer the org's staff and the service
 * only, and never returned or logged), and `slack_notify` posts Slack's
 * incoming-webhook JSON, `{text, blocks}`, to it. Both are staff tools
 * (`auth: "staff"`): the service (an automation) acts for its org, and no
 * one else is let in.
 * Slack's answers are read by the classifier every Slack sender shares
 * (`shared/capabilities/slack`); a POST that may have reached Slack without
 * an answer is never sent again (`delivery: "unknown"`).
 *
 * @module
 */
import { z } from "zod";
import { payload, ToolFailure } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import {
  classifySlackFailure,
  classifySlackResponse,
  slackErrorWord,
} from "@shared/capabilities/slack/mod.ts";
import { SLACK_SETTINGS } from "./catalog.ts";

/** Slack's limit on a message's text. */
const MAX_TEXT = 3000;

/** slack_notify's deadline in the pipeline, ms. */
const CALL_TIMEOUT_MS = 15_000;

/**
 * The longest a POST may wait for Slack, ms: well inside the call's deadline, so the POST's own
 * timeout (an `unknown` delivery, kept under the key) always comes first, never the pipeline's
 * TIMEOUT (which a caller may retry, posting twice).
 */
const MAX_POST_MS = CALL_TIMEOUT_MS - 5_000;

/** The `slack_webhook_set` tool. */
export const slackWebhookSet = defineTool({
  name: "slack_webhook_set",
  title: "Set the tenant's Slack webhook",
  description:
    "Staff: keep the Slack incoming-webhook URL slack_notify posts to for this tenant. " +
    "The URL is a secret: it is never shown again.",
  category: "automations",
  input: z.strictObject({
    url: z.url().max(500).describe("The incoming-webhook URL, https://hooks.slack.com/services/…"),
  }),
  output: z.object({ configured: z.boolean() }),
  examples: [{
    input: { url: "https://hooks.slack.com/services/T000/B000/XXXXXXXX" },
    output: { configured: true },
  }],
  sideEffects: "writes.slack_webhook",
  // Staff (and the service) only; the secret is kept through private.slack_webhook_put, which
  // checks the same, in a table no caller reads.
  auth: "staff",
  async execute(args, ctx) {
    const settings = ctx.services.get(SLACK_SETTINGS);
    if (!settings.webhookPrefixes.some((prefix) => args.url.startsWith(prefix))) {
      throw new ToolFailure("VALIDATION_ERROR", "That is not a Slack incoming-webhook URL", {
        fields: [{
          path: "url",
          message: `Must start with ${settings.webhookPrefixes.join(" or ")}`,
        }],
      });
    }
    await ctx.db.query("select private.slack_webhook_put($1, $2, $3)", [
      ctx.org_id,
      args.url,
      ctx.services.now().toISOString(),
    ]);
    return { configured: true };
  },
});

/**
 * What slack_notify found out before its transaction: Slack's answer, or
 * that a POST which may have reached Slack got none.
 */
type Posted =
  | { kind: "answered"; status: number; body: string; retryAfterMs?: number }
  | { kind: "unknown" };

/** What slack_notify answers: posted, or perhaps posted (no answer came). */
const SlackNotifyOut = z.object({
  sent: z.boolean().describe("Slack took the message"),
  delivery: z.enum(["delivered", "unknown"]).describe(
    "unknown: the request went out and no answer came (a timeout): Slack may have posted it. " +
      "It is not sent again; check the channel.",
  ),
});

/** The `slack_notify` tool. */
export const slackNotify = defineTool({
  name: "slack_notify",
  title: "Notify staff on Slack",
  description: "Post a message to the tenant's Slack channel (its incoming webhook, set with " +
    "slack_webhook_set). For automations: e.g. tell staff about an urgent customer message. " +
    'When Slack gives no answer after the request went out, it answers delivery "unknown" ' +
    "rather than posting again.",
  category: "automations",
  input: z.strictObject({
    text: z.string().trim().min(1).max(MAX_TEXT).describe("The message (Slack mrkdwn)"),
    blocks: z.array(payload({ maxDepth: 8, maxSize: 3000 })).max(50).optional().describe(
      "Optional Block Kit blocks; text is then the notification's fallback",
    ),
  }),
  output: SlackNotifyOut,
  examples: [{ input: { text: "Urgent from Aline (+250788000001): my order is wrong" } }],
  sideEffects: "writes.slack_message",
  // Staff and the service (an automation acting for its org): a customer cannot write into the
  // staff channel.
  auth: "staff",
  openWorld: true,
  latencyBudgetMs: 1500,
  timeoutMs: CALL_TIMEOUT_MS,
  // Posted once the call is admitted, before its transaction: no connection is held meanwhile,
  // and a replay under the same key answers from the ledger without posting again.
  async prepare(args, ctx): Promise<Posted> {
    const [row] = await ctx.read.query<{ url: string | null }>(
      "select private.slack_webhook_url($1) as url",
      [ctx.org_id],
    );
    const hook = row?.url ? { url: row.url } : null;
    if (!hook) {
      throw new ToolFailure(
        "NOT_FOUND",
        "No Slack webhook is set up for this tenant (slack_webhook_set)",
      );
    }
    const settings = ctx.services.get(SLACK_SETTINGS);
    // Checked again when used: the prefixes may have been narrowed since it was set.
    if (!settings.webhookPrefixes.some((prefix) => hook.url.startsWith(prefix))) {
      throw new ToolFailure("NOT_FOUND", "The tenant's Slack webhook is not allowed any more");
    }
    const signal = AbortSignal.any([
      ctx.signal,
      AbortSignal.timeout(Math.min(settings.timeoutMs, MAX_POST_MS)),
    ]);
    let response: Response;
    try {
      response = await fetch(hook.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: args.text, ...(args.blocks ? { blocks: args.blocks } : {}) }),
        signal,
        redirect: "error",
      });
    } catch (error) {
      // Never connected: Slack certainly has not got it, and the call may be made again.
      if (classifySlackFailure(error) === "not_sent") {
        throw new ToolFailure("SERVICE_UNAVAILABLE", "Slack could not be reached");
      }
      // The request may have been posted: answered (and kept under the idempotency key) as
      // unknown, so no retry posts it a second time.
      return { kind: "unknown" };
    }
    let body = "";
    try {
      body = (await response.text()).slice(0, 200);
    } catch {
      // Slack's status is the answer; a body cut short changes nothing.
    }
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
    return {
      kind: "answered",
      status: response.status,
      body,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  },
  execute(_args, ctx) {
    const posted = ctx.prepared as Posted;
    if (posted.kind === "unknown") {
      return Promise.resolve({ sent: false, delivery: "unknown" as const });
    }
    const answer = classifySlackResponse(posted.status, posted.body, posted.retryAfterMs);
    if (answer.ok) return Promise.resolve({ sent: true, delivery: "delivered" as const });
    // Slack's error is one word (`channel_not_found`): safe to show, and what staff need to fix it.
    const reason = slackErrorWord(posted.body) ?? `HTTP ${posted.status}`;
    if (answer.retryable) {
      if (posted.status === 429) {
        throw new ToolFailure("RATE_LIMIT", `Slack asked us to slow down: ${reason}`, {
          ...(answer.retryAfterMs !== undefined
            ? { details: { retry_after_ms: answer.retryAfterMs } }
            : {}),
        });
      }
      throw new ToolFailure("SERVICE_UNAVAILABLE", `Slack could not take the message: ${reason}`);
    }
    if (posted.status === 400) {
      throw new ToolFailure("VALIDATION_ERROR", `Slack refused the message: ${reason}`);
    }
    // 401, 403, 404, 410: the webhook itself is no good any more; staff set a new one.
    throw new ToolFailure("NOT_FOUND", `Slack refused the webhook: ${reason}`);
  },
});

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date); undefined if none. */
function parseRetryAfter(value: string | null): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
