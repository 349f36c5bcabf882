/**
 * Entry point of the `agent` edge function: the LangGraph agent that answers
 * WhatsApp conversations (`shared/platform/agent_function.ts` lists the
 * environment it reads). The webhook stores messages and wakes it.
 *
 * @module
 */
import { openAgentFunctionFromEnv } from "@shared/platform/agent_function.ts";
import { requireEnv } from "@shared/platform/env.ts";
import { PDF_RENDERER } from "@shared/capabilities/documents/pdf_renderer.ts";
import { remotePdfRenderer } from "@shared/capabilities/documents/remote_renderer.ts";

// The agents issue documents (generate_pdf, insurance certificates in the sweep); the tools
// function lays them out, so this one does not carry the 2.4 MiB documents stack.
const renderPdf = remotePdfRenderer({
  url: `${requireEnv("SUPABASE_URL")}/functions/v1/tools/documents/render`,
  key: requireEnv("SUPABASE_SERVICE_ROLE_KEY"),
});
const agent = await openAgentFunctionFromEnv({
  provide: [{ key: PDF_RENDERER, value: renderPdf }],
});

Deno.serve(agent.fetch);
