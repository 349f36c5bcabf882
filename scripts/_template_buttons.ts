/**
 * The quick-reply titles of the approved WhatsApp templates, as a phone shows
 * them: template name → language code → titles in button order. A template
 * message carries only each button's index and payload (`ride:<offer>:accept`);
 * the titles are the ones approved in WhatsApp Manager
 * (docs/whatsapp_templates.md), which are the packs' own button titles.
 *
 * @module
 */
import { templateLanguage } from "@shared/channels/whatsapp/messages.ts";
import type { Language } from "@shared/contract/language.ts";
import { vendorButtons } from "@shared/packs/buy_sell/texts.ts";
import { STATUS_BUTTONS } from "@shared/packs/commerce/texts.ts";
import { say } from "@shared/packs/mobility/texts.ts";
import { phrase } from "@shared/packs/property/texts.ts";

/** Approved quick-reply titles: template name → language code → titles by button index. */
export type TemplateButtons = Record<string, Record<string, string[]>>;

const LANGUAGES: readonly Language[] = ["en", "rw", "fr"];

function byLanguage(titles: (language: Language) => string[]): Record<string, string[]> {
  return Object.fromEntries(
    LANGUAGES.map((language) => [templateLanguage(language), titles(language)]),
  );
}

/** Every template we send with quick replies, and the titles its buttons were approved with. */
export const APPROVED_TEMPLATE_BUTTONS: TemplateButtons = {
  // vendor_inquiries sends vendor_yes, vendor_no.
  vendor_inquiry: byLanguage((language) => vendorButtons(language).map((button) => button.title)),
  // private.notify_venue_of_order sends order:<no>:confirmed, order:<no>:cancelled.
  venue_new_order: byLanguage((language) => [
    STATUS_BUTTONS.confirmed[language],
    STATUS_BUTTONS.cancelled[language],
  ]),
  // ride_request sends ride:<offer id>:accept, ride:<offer id>:decline.
  ride_offer: byLanguage((language) => [say("accept", language), say("decline", language)]),
  // The property sweep's host notices send pviewing:<viewing id>:move, pviewing:<viewing id>:cancel.
  property_viewing_booked: byLanguage(viewingButtons),
  property_viewing_moved: byLanguage(viewingButtons),
};

function viewingButtons(language: Language): string[] {
  return [phrase("moveViewing", language), phrase("cancelViewing", language)];
}
