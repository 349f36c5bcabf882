/**
 * `/payments/forwarders`: the operator (service role) or an org's staff
 * manage the org's SMS forwarders (sms_forwarders.ts).
 *
 * - `GET  /forwarders?org=<slug|id>`: the org's devices, never a key.
 * - `POST /forwarders` `{org, label}`: registers a device; the answer
 *   carries its `device_id` and `secret`, which is never shown again.
 * - `POST /forwarders/<device_id>/rotate`: a new secret; the old one stops
 *   working at once.
 * - `POST /forwarders/<device_id>/revoke`: the device may never post again.
 *
 * `Authorization: Bearer <service-role key or a staff member's token>`. No
 * token: 401. The database decides the rest: another org's device is 404
 * whether it exists or not, staff of another org 403.
 *
 * @module
 */
import { z } from "zod";
import { fail, ok, ToolFailure, type ToolResult, validationFailure } from "@shared/contract/mod.ts";
import { text } from "@shared/contract/validators.ts";
import { classifyDbError } from "@shared/db/errors.ts";
import type { EndpointCaller, EndpointRequest, PackEndpoint } from "@shared/registry/pack.ts";
import { answer, jsonBody } from "./endpoints.ts";
import {
  addForwarder,
  listForwarders,
  revokeForwarder,
  rotateForwarder,
} from "./sms_forwarders.ts";

const AddBody = z.strictObject({
  // text(): no NUL or control characters, which Postgres text refuses with a 500.
  org: text({ min: 1, max: 100, trim: false }),
  label: text({ min: 1, max: 200 }),
});

/** Runs `work` as the request's caller acting in `org`, or answers why not. */
async function asCaller(
  request: EndpointRequest,
  org: string | null,
  work: (caller: EndpointCaller) => Promise<unknown>,
) {
  const caller = await request.callerIn(org);
  if ("ok" in caller) return { status: 403, body: caller };
  let result: ToolResult;
  try {
    result = ok(await work(caller));
  } catch (error) {
    const code = classifyDbError(error);
    if (error instanceof ToolFailure) result = fail(error.code, error.userMessage);
    else if (code) result = fail(code, code === "NOT_FOUND" ? "No such forwarder" : undefined);
    else throw error;
  }
  return answer(result);
}

/** The org the operator or staff member names: required, as a slug or id. */
const ORG_REQUIRED = fail("VALIDATION_ERROR", "Invalid request: check org", {
  fields: [{ path: "org", message: "name the org (slug or id): ?org=easymo" }],
});

/** `GET /forwarders?org=`: the org's devices. */
export const listForwardersEndpoint: PackEndpoint = {
  method: "GET",
  path: "/forwarders",
  auth: "caller",
  maxBytes: 1024,
  handle(request) {
    const org = request.query.org;
    if (!org) return Promise.resolve(answer(ORG_REQUIRED));
    return asCaller(
      request,
      org,
      ({ claims, orgId }) => listForwarders(request.db, claims, orgId!),
    );
  },
};

/** `POST /forwarders {org, label}`: registers a device and shows its secret once. */
export const addForwarderEndpoint: PackEndpoint = {
  method: "POST",
  path: "/forwarders",
  auth: "caller",
  maxBytes: 4096,
  handle(request) {
    const read = jsonBody(request.bytes);
    if (!("body" in read)) return Promise.resolve(read);
    const parsed = AddBody.safeParse(read.body);
    if (!parsed.success) return Promise.resolve(answer(validationFailure(parsed.error)));
    return asCaller(request, parsed.data.org, async ({ claims, orgId }) => {
      const added = await addForwarder(request.db, claims, {
        orgId: orgId!,
        label: parsed.data.label,
      });
      request.log.info("sms_forwarder_added", { device_id: added.device_id, org_id: orgId });
      return added;
    });
  },
};

/** `POST /forwarders/:device/rotate`: a new secret, the old one dead at once. */
export const rotateForwarderEndpoint: PackEndpoint = {
  method: "POST",
  path: "/forwarders/:device/rotate",
  auth: "caller",
  maxBytes: 1024,
  handle(request) {
    return asCaller(request, null, async ({ claims }) => {
      const rotated = await rotateForwarder(request.db, claims, request.params.device);
      request.log.info("sms_forwarder_rotated", { device_id: rotated.device_id });
      return rotated;
    });
  },
};

/** `POST /forwarders/:device/revoke`: the device may never post again. */
export const revokeForwarderEndpoint: PackEndpoint = {
  method: "POST",
  path: "/forwarders/:device/revoke",
  auth: "caller",
  maxBytes: 1024,
  handle(request) {
    return asCaller(request, null, async ({ claims }) => {
      const revoked = await revokeForwarder(request.db, claims, request.params.device);
      request.log.info("sms_forwarder_revoked", { device_id: revoked.device_id });
      return revoked;
    });
  },
};
