/**
 * `/payments/forwarders`: the operator (service role) or an org's staff
 * manage the org's SMS forwarders (shared/packs/payments/sms_forwarders.ts).
 *
 * - `GET  /payments/forwarders?org=<slug|id>`: the org's devices, never a key.
 * - `POST /payments/forwarders` `{org, label}`: registers a device; the answer
 *   carries its `device_id` and `secret`, which is never shown again.
 * - `POST /payments/forwarders/<device_id>/rotate`: a new secret; the old one
 *   stops working at once.
 * - `POST /payments/forwarders/<device_id>/revoke`: the device may never post again.
 *
 * `Authorization: Bearer <service-role key or a staff member's token>`. No
 * token: 401. The database decides the rest: another org's device is 404
 * whether it exists or not, staff of another org 403.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { z } from "zod";
import { fail, ok, ToolFailure, type ToolResult, validationFailure } from "@shared/contract/mod.ts";
import { text } from "@shared/contract/validators.ts";
import { SIGN_IN_REQUIRED } from "@shared/auth/caller.ts";
import { refusalResponse } from "@shared/http/body.ts";
import { contractResponse, readJsonBody } from "@shared/http/respond.ts";
import type { JwtClaims } from "@shared/db/types.ts";
import { classifyDbError } from "@shared/db/errors.ts";
import type { Runtime } from "@shared/platform/env.ts";
import {
  addForwarder,
  listForwarders,
  revokeForwarder,
  rotateForwarder,
} from "@shared/platform/payments.ts";

const AddBody = z.strictObject({
  // text(): no NUL or control characters, which Postgres text refuses with a 500.
  org: text({ min: 1, max: 100, trim: false }),
  label: text({ min: 1, max: 200 }),
});

/** Builds the routes, mounted at `/payments/forwarders`. */
export function createForwardersApp(options: Pick<Runtime, "platform" | "resolveCaller">): Hono {
  const { platform, resolveCaller } = options;
  const app = new Hono();

  /** Runs `work` as the caller of the request's token, or answers why not. */
  async function asCaller(
    c: Context,
    org: string | null,
    work: (caller: { claims: JwtClaims; orgId: string | null }) => Promise<unknown>,
  ): Promise<Response> {
    const caller = await resolveCaller(c.req.header("authorization"), org);
    if ("ok" in caller) {
      await c.req.raw.body?.cancel().catch(() => {});
      const status = caller.error.msg === SIGN_IN_REQUIRED ? 401 : 403;
      return Response.json(caller, { status });
    }
    let result: ToolResult;
    try {
      result = ok(await work({ claims: caller.claims, orgId: caller.org_id }));
    } catch (error) {
      if (error instanceof ToolFailure) result = fail(error.code, error.userMessage);
      else if (classifyDbError(error)) {
        const code = classifyDbError(error)!;
        result = fail(code, code === "NOT_FOUND" ? "No such forwarder" : undefined);
      } else throw error;
    }
    return contractResponse(result);
  }

  app.get("/", (c) => {
    const org = c.req.query("org");
    if (!org) {
      return contractResponse(
        fail("VALIDATION_ERROR", "Invalid request: check org", {
          fields: [{ path: "org", message: "name the org (slug or id): ?org=easymo" }],
        }),
      );
    }
    return asCaller(c, org, ({ claims, orgId }) => listForwarders(platform.db, claims, orgId!));
  });

  app.post("/", async (c) => {
    const read = await readJsonBody(c.req.raw, { maxBytes: 4096 });
    if (!read.ok) return refusalResponse(read);
    const parsed = AddBody.safeParse(read.body);
    if (!parsed.success) return contractResponse(validationFailure(parsed.error));
    return asCaller(c, parsed.data.org, async ({ claims, orgId }) => {
      const added = await addForwarder(platform.db, claims, {
        orgId: orgId!,
        label: parsed.data.label,
      });
      platform.log.info("sms_forwarder_added", { device_id: added.device_id, org_id: orgId });
      return added;
    });
  });

  app.post("/:device/rotate", (c) =>
    asCaller(c, null, async ({ claims }) => {
      const rotated = await rotateForwarder(platform.db, claims, c.req.param("device"));
      platform.log.info("sms_forwarder_rotated", { device_id: rotated.device_id });
      return rotated;
    }));

  app.post("/:device/revoke", (c) =>
    asCaller(c, null, async ({ claims }) => {
      const revoked = await revokeForwarder(platform.db, claims, c.req.param("device"));
      platform.log.info("sms_forwarder_revoked", { device_id: revoked.device_id });
      return revoked;
    }));

  return app;
}
