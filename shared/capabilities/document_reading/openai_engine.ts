/**
 * The production OCR engine: OpenAI vision through the `openai` package with
 * structured output (a JSON schema `response_format`). The model is asked
 * what the page is and for each field as printed; the answer is then checked
 * by the same readers as tesseract's text (plate shape, VIN check digit,
 * national ID structure, calendar dates), so a model's guess never passes
 * unchecked. A provider failure is `SERVICE_UNAVAILABLE` (or `TIMEOUT`),
 * never invented fields.
 *
 * @module
 */
import OpenAI from "openai";
import { ToolFailure } from "@shared/contract/result.ts";
import type { OcrEngine, OcrRequest } from "./ocr_engine.ts";
import {
  DOCUMENT_TYPES,
  type DocumentReading,
  type DocumentType,
  fieldsOf,
  readDocument,
} from "./read_document.ts";
import { encodeBase64 as base64 } from "@shared/runtime/base64.ts";

/** Options for {@link createOpenAIEngine}. */
export interface OpenAIEngineOptions {
  /** `OPENAI_API_KEY`. */
  apiKey: string;
  /** A vision model. @default "gpt-4o-mini" (`OPENAI_OCR_MODEL`) */
  model?: string;
  /** `OPENAI_BASE_URL` (tests point it at a loopback server). */
  baseURL?: string;
  /** Per request. @default 30 000 */
  timeoutMs?: number;
}

const LABELS: Record<string, string> = {
  plate: "Plate No.",
  vin: "Chassis / VIN",
  make: "Make",
  model: "Model",
  year: "Year",
  owner_name: "Owner",
  owner_national_id: "Owner ID",
  issue_date: "Date of issue",
  expiry_date: "Valid until",
  usage: "Usage",
  full_name: "Names",
  date_of_birth: "Date of birth",
  national_id: "National ID",
  licence_number: "Licence No.",
  categories: "Categories",
  sex: "Sex",
  place_of_issue: "Place of issue",
  insurer: "Insurer",
  policy_number: "Policy No.",
  insured_name: "Insured",
  start_date: "From",
  end_date: "To",
};

const ALL_FIELDS = [...new Set(DOCUMENT_TYPES.flatMap((type) => fieldsOf(type)))];

/** The structured output the model must answer with (strict JSON schema). */
export const OCR_RESPONSE_SCHEMA = {
  name: "document_reading",
  strict: true,
  schema: {
    type: "object",
    additionalProperties: false,
    required: ["page", "legibility", "fields"],
    properties: {
      page: { type: "string", enum: [...DOCUMENT_TYPES, "not_a_document"] },
      legibility: { type: "number", description: "0 unreadable … 1 sharp" },
      fields: {
        type: "object",
        additionalProperties: false,
        required: ALL_FIELDS,
        properties: Object.fromEntries(
          ALL_FIELDS.map((field) => [field, {
            type: ["string", "null"],
            description: `${
              LABELS[field] ?? field
            }, exactly as printed; null when absent or unreadable`,
          }]),
        ),
      },
    },
  },
} as const;

const PROMPT = "You read Rwandan documents from photos. Say which document the page is: " +
  "vehicle_registration (carte jaune, certificate of registration), id_card (indangamuntu), " +
  "license (driving licence), policy (insurance policy), or not_a_document for anything else " +
  "(a receipt, a photo of a car, a word). Copy each field exactly as printed (dates as DD/MM/YYYY); " +
  "never guess a character you cannot read: answer null instead.";

/** Parses and checks the model's answer: the same readers as for OCR text. */
export function readModelAnswer(content: string, today: Date): DocumentReading {
  let answer: { page?: string; legibility?: number; fields?: Record<string, string | null> };
  try {
    answer = JSON.parse(content);
  } catch {
    throw new ToolFailure(
      "SERVICE_UNAVAILABLE",
      "The document reader answered badly; please try again",
    );
  }
  if (
    !answer || typeof answer !== "object" || typeof answer.fields !== "object" || !answer.fields
  ) {
    throw new ToolFailure(
      "SERVICE_UNAVAILABLE",
      "The document reader answered badly; please try again",
    );
  }
  if (!DOCUMENT_TYPES.includes(answer.page as DocumentType)) return { kind: "not_a_document" };
  const type = answer.page as DocumentType;
  const legibility = Math.max(0, Math.min(1, Number(answer.legibility) || 0));
  // The model's fields become labelled lines: one reading path, one set of checks.
  const title: Record<DocumentType, string> = {
    vehicle_registration: "CERTIFICATE OF REGISTRATION",
    id_card: "NATIONAL IDENTITY CARD",
    license: "DRIVING LICENCE",
    policy: "INSURANCE POLICY",
  };
  const lines = [{ text: title[type], confidence: 100 * legibility }];
  for (const field of fieldsOf(type)) {
    const value = answer.fields[field];
    if (typeof value === "string" && value.trim()) {
      lines.push({ text: `${LABELS[field]} ${value.trim()}`, confidence: 100 * legibility });
    }
  }
  return readDocument(lines, { today });
}

/** The OpenAI vision engine. */
export function createOpenAIEngine(options: OpenAIEngineOptions): OcrEngine {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeout: options.timeoutMs ?? 30_000,
    maxRetries: 1,
  });
  const model = options.model ?? "gpt-4o-mini";
  return {
    provider: "openai",
    async read(request: OcrRequest) {
      const dataUrl = `data:${request.contentType};base64,${base64(request.bytes)}`;
      let content: string | null | undefined;
      try {
        const completion = await client.chat.completions.create({
          model,
          temperature: 0,
          response_format: { type: "json_schema", json_schema: OCR_RESPONSE_SCHEMA },
          messages: [
            { role: "system", content: PROMPT },
            {
              role: "user",
              content: [
                { type: "text", text: `The customer says this is a ${request.documentType}.` },
                { type: "image_url", image_url: { url: dataUrl, detail: "high" } },
              ],
            },
          ],
        }, { signal: request.signal });
        content = completion.choices[0]?.message?.content;
      } catch (error) {
        if (error instanceof OpenAI.APIConnectionTimeoutError || request.signal?.aborted) {
          throw new ToolFailure("TIMEOUT");
        }
        throw new ToolFailure(
          "SERVICE_UNAVAILABLE",
          "The document reader is unavailable; please try again",
        );
      }
      if (!content) {
        throw new ToolFailure(
          "SERVICE_UNAVAILABLE",
          "The document reader answered badly; please try again",
        );
      }
      return readModelAnswer(content, request.today);
    },
  };
}
