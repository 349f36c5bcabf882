/**
 * PII minimisation for analytics: personal identifiers are replaced by a
 * keyed hash (so funnels can still count distinct people), free text is
 * dropped, and short categorical values are kept.
 *
 * @module
 */

/** A property value analytics accepts. */
export type PropValue = string | number | boolean | null;

/** What minimisation kept and what it changed. */
export interface MinimisedProps {
  /** Properties safe to store. */
  props: Record<string, PropValue>;
  /** Keys whose value was replaced by a keyed hash. */
  hashed: string[];
  /** Keys dropped as free text or sensitive. */
  dropped: string[];
}

// Keys that name an identifier: kept only as a keyed hash.
const IDENTIFIER_KEY = /phone|msisdn|mobile|wa_?id|email|e_?mail|national_?id|nid|passport/i;
// Keys that hold free text or secrets: never stored.
const SENSITIVE_KEY =
  /name|address|message|text|body|comment|note|summary|description|password|token|secret|card|pan|cvv|lat|lng|location|ip/i;
// Values that contain a phone number or an email, whatever the key says.
const PHONE_VALUE = /\+?\d[\d\s-]{7,14}\d/;
const EMAIL_VALUE = /[^\s@]+@[^\s@]+\.[^\s@]+/;
const WHOLE_PHONE = /^\+?\d[\d\s-]{7,14}\d$/;
const WHOLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Longer than a label, or several words: free text.
const MAX_LABEL = 64;

/** Applies the rules to each property. */
export async function minimiseProps(
  entries: Array<{ key: string; value: PropValue }>,
  pseudonymise: (value: string) => Promise<string>,
): Promise<MinimisedProps> {
  const out: MinimisedProps = { props: {}, hashed: [], dropped: [] };
  for (const { key, value } of entries) {
    const text = typeof value === "string" ? value.trim() : null;
    const identifier = IDENTIFIER_KEY.test(key) ||
      (text !== null && (PHONE_VALUE.test(text) || EMAIL_VALUE.test(text)));
    if (SENSITIVE_KEY.test(key) && !IDENTIFIER_KEY.test(key)) {
      out.dropped.push(key);
    } else if (
      identifier && (text === null || isWholeIdentifier(text) || IDENTIFIER_KEY.test(key))
    ) {
      if (value === null || value === "") {
        out.props[key] = null;
      } else {
        out.props[key] = `h:${await pseudonymise(normalise(String(value)))}`;
        out.hashed.push(key);
      }
    } else if (identifier || (text !== null && (text.length > MAX_LABEL || /\s/.test(text)))) {
      // Free text, or an identifier buried in it.
      out.dropped.push(key);
    } else {
      out.props[key] = value;
    }
  }
  return out;
}

function isWholeIdentifier(text: string): boolean {
  return WHOLE_PHONE.test(text) || WHOLE_EMAIL.test(text);
}

// The same person hashes the same whether written 0788…, +250 788… or 250788….
function normalise(value: string): string {
  const digits = value.replace(/[\s-]/g, "");
  if (/^(\+?250|0)7\d{8}$/.test(digits)) return `+2507${digits.slice(-8)}`;
  return value.trim().toLowerCase();
}
