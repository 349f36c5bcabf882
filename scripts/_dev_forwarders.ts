/**
 * The SMS forwarders of the embedded dev setup, so `/sms` in `deno task chat`
 * (and a hand-made request) can post a MoMo SMS without registering a device
 * first. Dev only: the dev server registers them on its embedded database,
 * never on a `DATABASE_URL`, and no deployed function imports this file.
 *
 * Each signs with `dev-sms-forwarder:<device id>:<dev secret>` (the dev
 * secret is `.data/dev_secret`, or `EASYMO_SECRET`), documented in
 * docs/payments.md; the dev server sets that key at every start.
 *
 * @module
 */
import type { Database } from "@shared/db/types.ts";
import { toHex } from "@shared/runtime/canonical.ts";

/** A dev forwarder: its device id, the org (slug) it forwards for, its label. */
export interface DevForwarder {
  /** The device id (`X-EasyMO-Device`). */
  deviceId: string;
  /** The seeded org's slug. */
  org: string;
  /** Its label. */
  label: string;
}

/** One forwarder per seeded org. */
export const DEV_FORWARDERS: readonly DevForwarder[] = [
  { deviceId: "dev-easymo-phone", org: "easymo", label: "Dev forwarder (EasyMO)" },
  { deviceId: "dev-beaver-phone", org: "beaver-paper", label: "Dev forwarder (Beaver)" },
];

/** The secret a dev forwarder signs with, derived from the dev secret. */
export function devForwarderSecret(devSecret: string, deviceId: string): string {
  return `dev-sms-forwarder:${deviceId}:${devSecret}`;
}

/**
 * Registers {@link DEV_FORWARDERS} whose org exists and sets their keys (a
 * revoked one stays revoked). Runs as the database owner.
 */
export async function registerDevForwarders(db: Database, devSecret: string): Promise<void> {
  const encoder = new TextEncoder();
  await db.transaction(async (tx) => {
    for (const device of DEV_FORWARDERS) {
      await tx.query(
        `insert into public.sms_forwarders (device_id, org_id, label, key_issued_at)
         select $1, o.id, $3, now() from public.orgs o where o.slug = $2
         on conflict (device_id) do nothing`,
        [device.deviceId, device.org, device.label],
      );
      await tx.query(
        `insert into private.sms_forwarder_keys (device_id, hmac_key)
         select f.device_id, decode($2, 'hex') from public.sms_forwarders f
         where f.device_id = $1 and f.revoked_at is null
         on conflict (device_id) do update set hmac_key = excluded.hmac_key`,
        [device.deviceId, toHex(encoder.encode(devForwarderSecret(devSecret, device.deviceId)))],
      );
    }
  });
}
