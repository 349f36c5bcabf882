/**
 * The HTTP face of the WhatsApp worker, mounted by the `agent` function:
 *
 * - `POST /agent/process` `{"wamids": [...]}`: the webhook's wake-up after it
 *   stored messages; answers 202 at once and processes in the background.
 * - `POST /agent/sweep`: processes what is pending or abandoned and sends
 *   what is due (a scheduler calls it; deployed functions have no loop).
 * - `GET /agent/health`: up, with the org it serves.
 *
 * Both POSTs need a service-role token; bad bodies get `VALIDATION_ERROR`
 * with the field path.
 *
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import type { CallerResolver } from "@shared/auth/caller.ts";
import { fail, validationFailure } from "@shared/contract/mod.ts";
import { refusalResponse } from "@shared/http/body.ts";
import { contractResponse, readJsonBody } from "@shared/http/respond.ts";
import type { Logger } from "@shared/runtime/log.ts";
import type { WhatsAppWorker } from "./worker.ts";

/** Options for {@link createWorkerApp}. */
export interface WorkerAppOptions {
  /** The worker. */
  worker: WhatsAppWorker;
  /** Resolves bearer tokens; only service-role callers may wake or sweep. */
  resolveCaller: CallerResolver;
  /** Logs. */
  log: Logger;
  /**
   * Runs a task after the response and keeps it alive (Supabase:
   * `(task) => EdgeRuntime.waitUntil(task())`). @default run it detached
   */
  background?: (task: () => Promise<unknown>) => void;
  /** Where it is mounted. @default "/agent" */
  basePath?: string;
}

/** A wake-up names at most one delivery's worth of messages. */
const WakeSchema = z.object({
  wamids: z.array(z.string().min(1).max(255)).min(1).max(1000),
}).strict();

/** Largest wake-up body. */
const MAX_WAKE_BYTES = 64 * 1024;

/** Builds the app. */
export function createWorkerApp(options: WorkerAppOptions): Hono {
  const { worker, log } = options;
  const background = options.background ?? ((task) => void task().catch(() => {}));
  const app = new Hono().basePath(options.basePath ?? "/agent");

  app.onError((error, c) => {
    log.error("agent_function_failed", { error: String(error).slice(0, 300) });
    return c.json(fail("INTERNAL_ERROR", "Something went wrong"), 500);
  });

  async function isService(authorization: string | undefined): Promise<boolean> {
    const caller = await options.resolveCaller(authorization, null, { service: true });
    return !("ok" in caller);
  }
  // 401 like the webhook's sweep: whoever is not the service is told nothing more.
  const refused = () =>
    Response.json(fail("AUTH_ERROR", "A service token is required"), { status: 401 });

  app.get("/health", (c) => c.json({ ok: true, data: {} }));

  app.post("/process", async (c) => {
    if (!(await isService(c.req.header("authorization")))) return refused();
    const read = await readJsonBody(c.req.raw, { maxBytes: MAX_WAKE_BYTES });
    if (!read.ok) return refusalResponse(read);
    const parsed = WakeSchema.safeParse(read.body);
    if (!parsed.success) return contractResponse(validationFailure(parsed.error));
    const { wamids } = parsed.data;
    background(() =>
      worker.processor.process(wamids).catch((error) =>
        log.error("agent_process_failed", { error: String(error).slice(0, 300) })
      )
    );
    return c.json({ ok: true, data: { accepted: wamids.length } }, 202);
  });

  app.post("/sweep", async (c) => {
    if (!(await isService(c.req.header("authorization")))) return refused();
    return c.json({ ok: true, data: await worker.sweep() });
  });

  return app;
}
