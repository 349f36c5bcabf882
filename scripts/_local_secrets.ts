/**
 * The local WhatsApp numbers and the secrets the dev server and the
 * simulator (`deno task chat`) both derive from the dev secret: apart from
 * scripts/dev_server.ts so the simulator signs its deliveries without loading
 * the server (the database engine, every function: ~2 CPU-s a start).
 *
 * @module
 */

/**
 * The seeded business numbers (`supabase/seed.sql`): Meta's phone-number id,
 * and the secret its row names as its Meta app's secret. The simulator signs
 * a delivery to a number with that number's own secret.
 */
export const LOCAL_NUMBERS: Readonly<Record<string, { tenant: string; appSecretName: string }>> = {
  "100000000000001": { tenant: "easymo", appSecretName: "WHATSAPP_APP_SECRET" },
  "100000000000002": { tenant: "beaver-paper", appSecretName: "WHATSAPP_APP_SECRET_BEAVER" },
};

/**
 * EasyMO's seeded business number's phone-number id (what simulated deliveries
 * carry unless the simulator picks another; Beaver's is `100000000000002`).
 */
export const LOCAL_PHONE_NUMBER_ID = "100000000000001";

/** Secrets of the local WhatsApp channel, all derived from the dev secret. */
export interface LocalWhatsAppSecrets {
  /**
   * The value of each secret a number row names (`WHATSAPP_APP_SECRET`,
   * `WHATSAPP_APP_SECRET_BEAVER`, …): derived from its name, so each number
   * has its own app secret, as each Meta app has deployed, and a number an
   * operator adds gets one too.
   */
  secrets: (name: string) => string;
  /**
   * The app secret of a seeded number (what a delivery to it is signed with).
   *
   * @throws {RangeError} for a number the seed does not hold.
   */
  appSecretOf: (phoneNumberId: string) => string;
  /** The app secret of EasyMO's number ({@link LOCAL_PHONE_NUMBER_ID}). */
  appSecret: string;
  /** The verify token of the GET challenge. */
  verifyToken: string;
  /** The local Graph media token. */
  mediaToken: string;
}

/** Secrets of the local WhatsApp channel, derived from the dev secret (the simulator signs with them). */
export function localWhatsAppSecrets(secret: string): LocalWhatsAppSecrets {
  const secrets = (name: string) => `dev-wa:${name}:${secret}`;
  const appSecretOf = (phoneNumberId: string) => {
    const number = LOCAL_NUMBERS[phoneNumberId];
    if (!number) {
      throw new RangeError(
        `Cannot sign for the number as the seed has no business number ${phoneNumberId}: ` +
          `seeded numbers are ${Object.keys(LOCAL_NUMBERS).join(", ")}`,
      );
    }
    return secrets(number.appSecretName);
  };
  return {
    secrets,
    appSecretOf,
    appSecret: appSecretOf(LOCAL_PHONE_NUMBER_ID),
    verifyToken: "easymo-dev-verify",
    mediaToken: `dev-wa-media:${secret}`,
  };
}

/**
 * The secret local settlement callbacks are signed with: `MOMO_CALLBACK_SECRET`
 * when set, else one derived from the dev secret (the simulator signs with it).
 */
export function localPaymentSecrets(secret: string): { callbackSecret: string } {
  return {
    callbackSecret: Deno.env.get("MOMO_CALLBACK_SECRET") || `dev-momo-callback:${secret}`,
  };
}
