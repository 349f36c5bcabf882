/**
 * Slack incoming webhooks, as every sender reads them: which answers took
 * the message, which may be sent again, and which failures may have posted
 * it anyway (see `slack_answers.ts`).
 *
 * @module
 */
export {
  classifySlackFailure,
  classifySlackResponse,
  type SlackAnswer,
  slackErrorWord,
} from "./slack_answers.ts";
