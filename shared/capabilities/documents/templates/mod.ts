/**
 * The document templates `generate_pdf` renders, by id. A new document is a
 * template file here (data schema, content in en/fr/rw) and one line below.
 *
 * @module
 */
import type { DocumentTemplate } from "../template.ts";
import { INSURANCE_CERTIFICATE } from "./insurance_certificate.ts";
import { INSURANCE_QUOTE } from "./insurance_quote.ts";
import { LEGAL_CASE_SUMMARY } from "./legal_case_summary.ts";
import { PAYMENT_RECEIPT } from "./payment_receipt.ts";
import { PROFORMA } from "./proforma.ts";
import { VIEWING_CONFIRMATION } from "./viewing_confirmation.ts";

/** Every template, by id. */
export const DOCUMENT_TEMPLATES: ReadonlyMap<string, DocumentTemplate> = new Map(
  ([
    INSURANCE_CERTIFICATE,
    INSURANCE_QUOTE,
    PAYMENT_RECEIPT,
    LEGAL_CASE_SUMMARY,
    VIEWING_CONFIRMATION,
    PROFORMA,
  ] as DocumentTemplate[])
    .map((template) => [template.id, template]),
);
