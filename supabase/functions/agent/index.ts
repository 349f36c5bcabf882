/**
 * Entry point of the `agent` edge function: the LangGraph agent that answers
 * WhatsApp conversations (`shared/platform/agent_function.ts` lists the
 * environment it reads). The webhook stores messages and wakes it.
 *
 * @module
 */
import { openAgentFunctionFromEnv } from "@shared/platform/agent_function.ts";

const agent = await openAgentFunctionFromEnv();

Deno.serve(agent.fetch);
