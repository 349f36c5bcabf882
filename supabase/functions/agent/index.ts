/**
 * Entry point of the `agent` edge function: the LangGraph agent that answers
 * WhatsApp conversations (`shared/platform/agent_function.ts` lists the
 * environment it reads). The webhook stores messages and wakes it.
 *
 * @module
 */
import { openAgentFunctionFromEnv } from "@shared/platform/agent_function.ts";
import { PDF_RENDERER } from "@shared/documents/pdf_renderer.ts";
import { renderPdf } from "@shared/documents/pdf_render.ts";

// The agents issue documents (generate_pdf, insurance certificates in the sweep).
const agent = await openAgentFunctionFromEnv({
  provide: [{ key: PDF_RENDERER, value: renderPdf }],
});

Deno.serve(agent.fetch);
