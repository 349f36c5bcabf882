/**
 * The payments pack (the tool catalog's payments section): MoMo charges by USSD (`momo_charge`),
 * their settlement from signed provider callbacks, forwarded confirmation
 * SMS, a payee's `PAID <ref>` on WhatsApp or staff in the Admin Inbox, the
 * expiry sweep, and the Payments agent ("pay 5000 to 0788123456", "my
 * payment didn't go through", "status of A-1042").
 *
 * - {@link PAYMENTS_PACK}: the pack the composition root registers.
 * - {@link PAYMENTS_CONFIG}: the settings the root provides (TTL, cap).
 * - Each tenant's own MoMo merchant account (`orgs.momo_merchant_code` or
 *   `orgs.momo_merchant_phone`), paid by charges that name no order, ride or
 *   payee; checked at start.
 *
 * @module
 */
import { MESSAGING } from "@shared/capabilities/messaging/mod.ts";
import type { Pack } from "@shared/registry/pack.ts";
import { PAYMENTS_CONFIG } from "./config.ts";
import { PAYMENTS_INTENTS } from "./intents.ts";
import { callbackEndpoint, smsEndpoint } from "./endpoints.ts";
import {
  addForwarderEndpoint,
  listForwardersEndpoint,
  revokeForwarderEndpoint,
  rotateForwarderEndpoint,
} from "./forwarder_endpoints.ts";
import { PAYMENT_STATUS_CHANGED } from "./events.ts";
import { checkMerchantAccounts } from "./merchant_account.ts";
import { momoChargeCancel } from "./charge_cancel.ts";
import { momoCharge } from "./momo_charge.ts";
import { PAYEE_COUNTERPART } from "./paid_counterpart.ts";
import { paymentStatus } from "./payment_status.ts";
import { paymentsFlow, paymentsFlowMemory } from "./payments_flow.ts";
import {
  paymentConfirmByPayee,
  paymentConfirmByStaff,
  paymentExpireDue,
  paymentRecordSms,
  paymentSettle,
} from "./settlement_tools.ts";
import { PAYMENTS_TEXTS } from "./texts.ts";
import { transferPending } from "./transfer_pending.ts";

export { DEFAULT_PAYMENTS_CONFIG, PAYMENTS_CONFIG, paymentsConfigFromEnv } from "./config.ts";
export type { PaymentsConfig } from "./config.ts";
export { checkMerchantAccounts, merchantPayee } from "./merchant_account.ts";
export type { MerchantAccountRow } from "./merchant_account.ts";

/** The payments pack. */
export const PAYMENTS_PACK: Pack = {
  id: "payments",
  tools: [
    momoCharge,
    momoChargeCancel,
    paymentStatus,
    paymentSettle,
    paymentRecordSms,
    paymentConfirmByPayee,
    paymentConfirmByStaff,
    paymentExpireDue,
  ],
  agents: [{
    id: "payments",
    name: "Payments",
    names: { rw: "Kwishyura", fr: "Paiements" },
    description: "Creates mobile money payment requests.",
    audience: "customers",
    tools: [
      "momo_charge",
      "momo_charge_cancel",
      "payment_status",
      "notify_staff",
      "analytics_log",
    ],
    intents: PAYMENTS_INTENTS,
    // Paying a bill, fees or a person in the middle of another flow's order comes here.
    takesPayments: true,
    answersFollowUps: true,
    // Reached by its words: the menu keeps a row free for the next pack (a list holds ten).
    offlineFlow: paymentsFlow,
    memory: paymentsFlowMemory,
    // Leaving with a charge it made still waiting asks whether to cancel it or keep it.
    pending: transferPending,
  }],
  tables: {},
  texts: PAYMENTS_TEXTS,
  services: [PAYMENTS_CONFIG, MESSAGING],
  events: [PAYMENT_STATUS_CHANGED],
  counterparts: [PAYEE_COUNTERPART],
  // Served by the payments function: providers' callbacks, forwarded SMS, the operator's console.
  endpoints: [
    callbackEndpoint,
    smsEndpoint,
    listForwardersEndpoint,
    addForwarderEndpoint,
    rotateForwarderEndpoint,
    revokeForwarderEndpoint,
  ],
  // Charges of every tenant expire, whichever agent asked for them (a waiter's, a driver's).
  schedules: [{
    id: "expire_due_charges",
    tool: "payment_expire_due",
    everyMinutes: 1,
    tenants: "every",
  }],
  // A tenant's malformed account stops the start; one without an account is told to operators.
  async checkSettings({ db, log }) {
    for (const tenant of await checkMerchantAccounts(db)) {
      log.info("momo_merchant_account_missing", {
        tenant,
        hint: "charges naming no order, ride or payee are refused until orgs.momo_merchant_code " +
          "or orgs.momo_merchant_phone is set",
      });
    }
  },
};
