/**
 * The bodies of the approved WhatsApp templates, as a phone shows them: template name → language
 * code → body with `{{1}}`, `{{2}}`… placeholders. A template message carries only its name,
 * language and parameters; the text the person reads is the body approved in WhatsApp Manager,
 * which docs/whatsapp_templates.md gives (the page submitted for approval), so it is read from
 * there: one copy of each body.
 *
 * @module
 */

/** Approved bodies: template name → language code → body. */
export type TemplateBodies = Record<string, Record<string, string>>;

const LANGUAGE_CELL = /^`(en|rw_RW|fr)`$/;

/**
 * The template bodies of docs/whatsapp_templates.md's tables: a row's language cell, the body in
 * the cell after it, the template named in the cell before it or by the section's heading.
 */
export function parseTemplateBodies(markdown: string): TemplateBodies {
  const bodies: TemplateBodies = {};
  for (const section of markdown.split(/^## /m).slice(1)) {
    const heading = /^`([a-z_]+)`/.exec(section)?.[1];
    for (const line of section.split("\n").filter((row) => row.startsWith("|"))) {
      const cells = line.split("|").slice(1, -1).map((cell) => cell.trim());
      const at = cells.findIndex((cell) => LANGUAGE_CELL.test(cell));
      const body = /^`(.+)`$/.exec(cells[at + 1] ?? "")?.[1];
      if (at < 0 || !body) continue;
      const named = at > 0 ? /^`([a-z_]+)`$/.exec(cells[at - 1])?.[1] : undefined;
      const name = named ?? heading;
      if (!name) continue;
      (bodies[name] ??= {})[LANGUAGE_CELL.exec(cells[at])![1]] = body;
    }
  }
  return bodies;
}

let approved: TemplateBodies | undefined;

/** The approved bodies, read once from docs/whatsapp_templates.md ({} when it is unreadable). */
export function approvedTemplateBodies(): TemplateBodies {
  if (approved === undefined) {
    try {
      approved = parseTemplateBodies(
        Deno.readTextFileSync(new URL("../docs/whatsapp_templates.md", import.meta.url)),
      );
    } catch {
      approved = {};
    }
  }
  return approved;
}

// The brand the bodies of docs/whatsapp_templates.md are written for.
const DOCUMENTED_BRAND = "EasyMO";

/**
 * The text a phone shows for template `name` in `language` with its parameters filled by
 * position, or null when no approved body is known (the caller shows the raw template). Each
 * tenant has the bodies approved for its own number: the documented ones with its `brand` in
 * place of EasyMO's (never in a parameter, which is the sender's own text).
 */
export function templateText(
  name: string,
  language: string,
  params: readonly string[],
  bodies: TemplateBodies,
  brand: string = DOCUMENTED_BRAND,
): string | null {
  const body = bodies[name]?.[language]?.replaceAll(DOCUMENTED_BRAND, brand);
  if (body === undefined) return null;
  return body.replace(
    /\{\{(\d+)\}\}/g,
    (placeholder, index) => params[Number(index) - 1] ?? placeholder,
  );
}
