/**
 * The registry of SMS forwarders: register a merchant phone's forwarder under
 * an org and get its secret once, rotate the secret, revoke the device, list
 * an org's devices.
 *
 * Each write runs `private.sms_forwarder_*` as the caller, so the database
 * decides who may: the service role (the operator's CLI) for any org, staff
 * and admins for their own; another org's device reads as missing. A secret
 * is 32 random bytes, shown to the caller once and kept only as the device's
 * HMAC key (forwarder_auth.ts). Device ids are generated, so a device cannot
 * be registered under a name another org already uses.
 *
 * @module
 */
import { ToolFailure } from "@shared/contract/mod.ts";
import type { JwtClaims, Queryable } from "@shared/db/types.ts";
import { toHex } from "@shared/runtime/canonical.ts";
import { encodeBase64Url } from "@shared/runtime/base64.ts";

/** A registered forwarder as staff and the operator see it (never its key). */
export interface ForwarderView {
  /** The id the device names itself by (`X-EasyMO-Device`). */
  device_id: string;
  /** The org its SMS are filed under. */
  org_id: string;
  /** What people call it ("Till 1, Kimihurura"). */
  label: string | null;
  /** ISO time it was registered. */
  created_at: string;
  /** ISO time its current secret was issued; null when it has none (registered before keys). */
  key_issued_at: string | null;
  /** ISO time it was revoked; null while it may post. */
  revoked_at: string | null;
}

/** A forwarder with the secret just issued to it: shown once, stored nowhere readable. */
export interface IssuedForwarder extends ForwarderView {
  /** The secret the device signs with. */
  secret: string;
}

/** How the registry reaches the database: as the caller, so RLS and the functions' checks apply. */
export interface ForwarderDb {
  /** Runs `fn` in a transaction as `claims`. */
  asCaller<T>(claims: JwtClaims, fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

const encoder = new TextEncoder();
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** A new device secret: `fwd_sk_` then 32 random bytes in base64url (256 bits). */
export function newForwarderSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `fwd_sk_${encodeBase64Url(bytes)}`;
}

/** A new device id: `fwd-` then 12 random base32 letters (60 bits), e.g. `fwd-k3qx2m9abtrw`. */
export function newDeviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `fwd-${Array.from(bytes, (byte) => BASE32[byte & 31]).join("")}`;
}

const COLUMNS = "device_id, org_id, label, created_at, key_issued_at, revoked_at";

interface ForwarderRow {
  device_id: string;
  org_id: string;
  label: string | null;
  created_at: Date | string;
  key_issued_at: Date | string | null;
  revoked_at: Date | string | null;
}

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function view(row: ForwarderRow): ForwarderView {
  return {
    device_id: row.device_id,
    org_id: row.org_id,
    label: row.label,
    created_at: iso(row.created_at)!,
    key_issued_at: iso(row.key_issued_at),
    revoked_at: iso(row.revoked_at),
  };
}

/** Options for {@link addForwarder}. */
export interface AddForwarderOptions {
  /** The org the device forwards for (id). */
  orgId: string;
  /** What people call it (1–200 characters). */
  label: string;
}

/**
 * Registers a forwarder under an org and issues its secret.
 *
 * @throws The database's 42501 (AUTH_ERROR) when the caller is neither the
 *   service nor staff of the org.
 */
export async function addForwarder(
  db: ForwarderDb,
  claims: JwtClaims,
  options: AddForwarderOptions,
): Promise<IssuedForwarder> {
  const secret = newForwarderSecret();
  const [row] = await db.asCaller(claims, (tx) =>
    tx.query<ForwarderRow>(
      `select ${COLUMNS} from private.sms_forwarder_add($1, $2, $3, decode($4, 'hex'))`,
      [options.orgId, newDeviceId(), options.label, toHex(encoder.encode(secret))],
    ));
  return { ...view(row), secret };
}

/**
 * Issues a forwarder a new secret; the old one stops working at once.
 *
 * @throws {ToolFailure} NOT_FOUND for a device id that cannot be a device;
 *   the database's P0002 (NOT_FOUND) for one the caller may not manage or
 *   that does not exist, P0409 (CONFLICT) for a revoked one.
 */
export async function rotateForwarder(
  db: ForwarderDb,
  claims: JwtClaims,
  deviceId: string,
): Promise<IssuedForwarder> {
  checkDeviceId(deviceId);
  const secret = newForwarderSecret();
  const [row] = await db.asCaller(claims, (tx) =>
    tx.query<ForwarderRow>(
      `select ${COLUMNS} from private.sms_forwarder_rotate($1, decode($2, 'hex'))`,
      [deviceId, toHex(encoder.encode(secret))],
    ));
  return { ...view(row), secret };
}

/**
 * Revokes a forwarder for good: its key is deleted and nothing it signs is
 * accepted any more. Revoking twice answers the same.
 *
 * @throws {ToolFailure} NOT_FOUND as {@link rotateForwarder}.
 */
export async function revokeForwarder(
  db: ForwarderDb,
  claims: JwtClaims,
  deviceId: string,
): Promise<ForwarderView> {
  checkDeviceId(deviceId);
  const [row] = await db.asCaller(
    claims,
    (tx) =>
      tx.query<ForwarderRow>(`select ${COLUMNS} from private.sms_forwarder_revoke($1)`, [deviceId]),
  );
  return view(row);
}

/**
 * An org's forwarders, oldest first, revoked ones included.
 *
 * @throws {ToolFailure} AUTH_ERROR when the caller is neither the service nor
 *   staff of the org.
 */
export async function listForwarders(
  db: ForwarderDb,
  claims: JwtClaims,
  orgId: string,
): Promise<ForwarderView[]> {
  return await db.asCaller(claims, async (tx) => {
    const [{ allowed }] = await tx.query<{ allowed: boolean }>(
      "select private.may_manage_forwarders($1) as allowed",
      [orgId],
    );
    if (!allowed) throw new ToolFailure("AUTH_ERROR", "Staff access only");
    const rows = await tx.query<ForwarderRow>(
      `select ${COLUMNS} from public.sms_forwarders where org_id = $1 order by created_at, device_id`,
      [orgId],
    );
    return rows.map(view);
  });
}

function checkDeviceId(deviceId: string): void {
  if (!/^[\x21-\x7e]{1,100}$/.test(deviceId)) {
    throw new ToolFailure("NOT_FOUND", "No such forwarder");
  }
}
