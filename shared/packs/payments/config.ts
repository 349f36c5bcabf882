/**
 * The payments pack's settings, provided by the composition root from the
 * environment: how long a charge's USSD code stays payable and the largest
 * amount one charge may ask for.
 *
 * @module
 */
import { serviceKey } from "@shared/registry/pack.ts";

/** What `momo_charge` and the sweep need to know. */
export interface PaymentsConfig {
  /** Minutes a charge stays payable (`MOMO_CHARGE_TTL_MINUTES`). */
  chargeTtlMinutes: number;
  /** The largest amount of one charge, whole RWF (`MOMO_MAX_AMOUNT_RWF`). */
  maxAmountRwf: number;
  /**
   * The secret providers sign settlement callbacks with (`MOMO_CALLBACK_SECRET`,
   * at least 16 characters); without it the payments function refuses every
   * callback (SERVICE_UNAVAILABLE) and says why in its log.
   */
  callbackSecret?: string;
}

/** The service key the root provides {@link PaymentsConfig} under. */
export const PAYMENTS_CONFIG = serviceKey<PaymentsConfig>("payments.config");

/** The defaults: 30 minutes, and MTN MoMo's 2,000,000 RWF limit per transaction. */
export const DEFAULT_PAYMENTS_CONFIG: PaymentsConfig = {
  chargeTtlMinutes: 30,
  maxAmountRwf: 2_000_000,
};

// The database's hard ceiling on one payment (payments.amount check).
const HARD_CEILING_RWF = 10_000_000;

function whole(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(
      `Cannot read ${name} as it must be a whole number from ${min} to ${max}: current value is ${
        JSON.stringify(raw)
      }`,
    );
  }
  return value;
}

// A short secret is refused at start rather than at the first callback.
function callbackSecret(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (raw.length < 16) {
    throw new RangeError(
      `Cannot read MOMO_CALLBACK_SECRET as it must be at least 16 characters: current value has ${raw.length}`,
    );
  }
  return raw;
}

/**
 * Reads `MOMO_CHARGE_TTL_MINUTES` (1–1440, default 30) and
 * `MOMO_MAX_AMOUNT_RWF` (1–10,000,000, default 2,000,000).
 *
 * @throws {RangeError} When either is set to something else, so a typo stops the start.
 */
export function paymentsConfigFromEnv(env: Pick<Deno.Env, "get"> = Deno.env): PaymentsConfig {
  return {
    chargeTtlMinutes: whole(
      "MOMO_CHARGE_TTL_MINUTES",
      env.get("MOMO_CHARGE_TTL_MINUTES"),
      DEFAULT_PAYMENTS_CONFIG.chargeTtlMinutes,
      1,
      1440,
    ),
    maxAmountRwf: whole(
      "MOMO_MAX_AMOUNT_RWF",
      env.get("MOMO_MAX_AMOUNT_RWF"),
      DEFAULT_PAYMENTS_CONFIG.maxAmountRwf,
      1,
      HARD_CEILING_RWF,
    ),
    callbackSecret: callbackSecret(env.get("MOMO_CALLBACK_SECRET")),
  };
}
