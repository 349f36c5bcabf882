/**
 * The channel-neutral messaging port, a capability every pack that speaks to
 * someone other than the person it is answering uses (a vendor asked about
 * an item, a driver offered a ride, a payer told a payment arrived): packs
 * say text, buttons, a list, a document, a video or a template to a person of the
 * tenant, and the channel (WhatsApp today; web chat and MCP later) decides
 * the wire format. Packs get the port as the {@link MESSAGING} service.
 *
 * @example A tool tells a driver, in its own transaction
 * ```ts ignore
 * import { MESSAGING, textOut } from "@shared/capabilities/messaging/mod.ts";
 *
 * await ctx.services.get(MESSAGING).send(ctx.db, {
 *   orgId: ctx.org_id!,
 *   to: driver.phone,
 *   message: textOut("The rider cancelled."),
 *   idempotencyKey: `ride-cancelled:${offer.id}`,
 * });
 * ```
 *
 * @module
 */
export {
  type ButtonsOut,
  buttonsOut,
  type Choice,
  type DocumentOut,
  documentOut,
  type ListChoice,
  type ListOut,
  listOut,
  MESSAGING,
  type MessagingPort,
  type Outgoing,
  type SendOptions,
  type TemplateOut,
  templateOut,
  type TextOut,
  textOut,
  type VideoOut,
  videoOut,
} from "./port.ts";
