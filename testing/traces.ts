/**
 * Trace records for tests and benches: a successful call by a seeded user.
 *
 * @module
 */
import type { TraceRecord } from "@shared/pipeline/trace_sink.ts";
import { ORG, USER } from "./seed.ts";

/** A trace of Aline's successful call in EasyMO, with a fresh trace id, changed by `overrides`. */
export function sampleTrace(overrides: Partial<TraceRecord> = {}): TraceRecord {
  return {
    tool: "t.one",
    org_id: ORG.easymo,
    user_id: USER.aline,
    agent_id: null,
    convo_id: null,
    trace_id: crypto.randomUUID(),
    ok: true,
    error_code: null,
    duration_ms: 1.25,
    result: { ok: true, data: { total: 3000 } },
    over_budget: false,
    replayed: false,
    ...overrides,
  };
}
