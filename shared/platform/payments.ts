/**
 * The payments pack's surface for the functions that serve it (`payments`:
 * provider callbacks and SMS forwarders; `admin-messages`: staff confirming
 * a charge). Functions import the composition root and the kernel, never a
 * pack's internals (.dependency-cruiser.cjs), so what they need of the pack
 * is named here, once: a move inside the pack changes this file, not the
 * functions.
 *
 * @module
 */
export {
  createCallbackVerifier,
  SIGNATURE_HEADER,
} from "@shared/packs/payments/callback_signature.ts";
export { createForwarderVerifier } from "@shared/packs/payments/forwarder_auth.ts";
export {
  addForwarder,
  listForwarders,
  revokeForwarder,
  rotateForwarder,
} from "@shared/packs/payments/sms_forwarders.ts";
export { lockCharge, notifyParties } from "@shared/packs/payments/settlement.ts";
