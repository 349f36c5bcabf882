/**
 * Operation plans as data, made once at registration and kept in Postgres
 * next to the document (`api_sources.plans`), so an instance that syncs the
 * source reads them instead of validating and mapping the document again.
 *
 * A stored plan carries its input and output as the JSON Schema the tool is
 * listed with (what `tools/list` and the catalog export), its checked
 * example and how it is sent. Reading one back builds no zod schema: a
 * listing exports the stored JSON Schema as it is ({@link presetJsonSchema}),
 * and each field's zod check is built from it on the first call that needs
 * it. A cold sync of 200 tools is then JSON parsing and object allocation.
 *
 * Plans are only the platform's to write: registration signs them
 * ({@link signPlans}: an HMAC under the generated tools' server key over the
 * plans' exact text and what they were made for: tenant, source, kind,
 * document hash, base URL, exposure), and an instance reads them only through
 * {@link openSignedPlans}. A row edited by hand (the table is staff-writable
 * under RLS) no longer matches and is refused with an error staff see in
 * `api_source_list`.
 *
 * @module
 */
import { z } from "zod";
import {
  type JsonSchema,
  presetJsonSchemaOf,
  zodToJsonSchema,
} from "@shared/export/json_schema.ts";
import {
  presetSafeIntegerBoundPaths,
  safeIntegerBoundPaths,
  type SchemaPath,
} from "@shared/export/safe_integer_bounds.ts";
import { inputHolds, lazyInput } from "./lazy_input.ts";
import { lazyOutput } from "./output_schema.ts";
import { documentHash, GenerationError, type OperationPlan } from "./operation.ts";
import type { CredentialBox } from "./credential_box.ts";

/** Bump when the stored shape changes: older rows are mapped from their document again. */
export const STORED_PLAN_VERSION = 4;

/** One plan as stored (JSON). */
export interface StoredPlan {
  /** Tool name. */
  name: string;
  /** operationId or `query.<field>`. */
  origin: string;
  /** Human title. */
  title: string;
  /** The document's description, already cut. */
  description: string;
  /** The input's JSON Schema 2020-12 as listed (a strict object). */
  input: JsonSchema;
  /** The output's JSON Schema as listed (`{}`: anything). */
  output: JsonSchema;
  /**
   * Where the input's integers carry zod's ±`MAX_SAFE_INTEGER` bounds, which the provider
   * dialects drop (absent: none). Found once here, so a listing copies these paths only.
   */
  bounds?: SchemaPath[];
  /** An input the input schema accepts (checked at registration); `null` when none could be made. */
  example: Record<string, unknown> | null;
  /** Reads only. */
  readOnly: boolean;
  /** Asks for confirmation. */
  destructive: boolean;
  /** How to send it. */
  send: OperationPlan["send"];
}

/** The plans of a source as stored: `{v, plans}`. */
export interface StoredPlans {
  /** {@link STORED_PLAN_VERSION}. */
  v: number;
  /** The plans. */
  plans: StoredPlan[];
}

/**
 * Plans to their stored form. Registration's cost: every schema is exported
 * once, and read back and checked here, so a later read cannot fail on it.
 *
 * @param plans Plans the generator made.
 * @param examples Each plan's example, by name (the one its tool was bound with), when it has one.
 * @throws {GenerationError} when a schema does not survive being stored (names the tool).
 */
export function storePlans(
  plans: readonly OperationPlan[],
  examples: ReadonlyMap<string, Record<string, unknown>>,
): StoredPlans {
  const stored = toStored(plans, examples);
  checkStoredExamples(stored, (plan) => buildObject(plan.input, plan.name));
  return stored;
}

/**
 * {@link storePlans} and {@link loadPlans} at once, for registration.
 *
 * A plan whose input was made as JSON Schema straight from the document
 * (OpenAPI: its input is {@link lazyInput} of that schema) is stored as it is
 * and builds no check here: its example is kept if the fields it has pass
 * their checks (only those are built), and calls build the rest when they
 * need them. A plan whose input was made with zod (GraphQL) is exported once,
 * and every field's check is built from the stored schema at once, so
 * registration hears why one cannot be; its example must pass both the
 * generator's check and the stored one.
 *
 * @param examples Each plan's example by name, or a maker of candidates (dropped when the
 *   input refuses them: no example honours the document's constraints, a pattern say).
 * @throws {GenerationError} as {@link storePlans}.
 */
export function storeAndLoadPlans(
  plans: readonly OperationPlan[],
  examples: ReadonlyMap<string, Record<string, unknown>> | ExampleMaker,
  source: string,
): { stored: StoredPlans; loaded: OperationPlan[] } {
  const maker: ExampleMaker = typeof examples === "function"
    ? (plan, input) => {
      const example = examples(plan, input);
      if (example === undefined) return undefined;
      const direct = presetJsonSchemaOf(plan.input) !== undefined;
      return (direct
          ? inputHolds(plan.input, input, example)
          : plan.input.safeParse(example).success)
        ? example
        : undefined;
    }
    : (plan) => examples.get(plan.name);
  const stored = toStored(plans, maker);
  // A plan made straight from the document keeps the input and output the mapper made for the
  // very schemas stored (lazy: no check built yet): making them again was a second zod object per
  // tool. A zod-made plan (GraphQL) is read back eagerly: registration must hear why a field's
  // check cannot be built, not get a refusing one.
  const loaded = stored.plans.map((plan, index) => {
    const made = plans[index];
    const direct = presetJsonSchemaOf(made.input) === plan.input &&
      presetJsonSchemaOf(made.output) === plan.output;
    return loadPlan(plan, index, source, { eager: true, ...(direct ? { made } : {}) });
  });
  const zodMade = new Set(
    plans.filter((plan) => presetJsonSchemaOf(plan.input) === undefined).map((plan) => plan.name),
  );
  const byName = new Map(loaded.map((plan) => [plan.name, plan]));
  checkStoredExamples(
    { ...stored, plans: stored.plans.filter((plan) => zodMade.has(plan.name)) },
    (plan) => {
      const input = byName.get(plan.name)!.input as z.ZodObject;
      for (const key of Object.keys(input.shape)) void input.shape[key];
      return input;
    },
  );
  return { stored, loaded };
}

/**
 * Makes a plan's example from its input's JSON Schema (the one being stored),
 * so registration exports each input once instead of once for the example and
 * again for storing; `undefined` when no example can be given.
 */
export type ExampleMaker = (
  plan: OperationPlan,
  input: JsonSchema,
) => Record<string, unknown> | undefined;

function toStored(
  plans: readonly OperationPlan[],
  examples: ReadonlyMap<string, Record<string, unknown>> | ExampleMaker,
): StoredPlans {
  return {
    v: STORED_PLAN_VERSION,
    plans: plans.map((plan): StoredPlan => {
      const input = zodToJsonSchema(plan.input, { io: "input" });
      const example = typeof examples === "function"
        ? examples(plan, input)
        : examples.get(plan.name);
      const bounds = safeIntegerBoundPaths(input);
      return {
        name: plan.name,
        origin: plan.origin,
        title: plan.title,
        description: plan.description,
        input,
        output: outputJson(plan.output),
        ...(bounds.length > 0 ? { bounds } : {}),
        example: example ?? null,
        readOnly: plan.readOnly,
        destructive: plan.destructive,
        send: plan.send,
      };
    }),
  };
}

function checkStoredExamples(
  stored: StoredPlans,
  inputOf: (plan: StoredPlan) => z.ZodType,
): void {
  const issues: { path: string; message: string }[] = [];
  for (const plan of stored.plans) {
    if (plan.example === null) continue;
    // The stored schema is what later instances check calls with: it must hold the example.
    const checked = inputOf(plan).safeParse(plan.example);
    if (!checked.success) {
      issues.push({
        path: plan.origin,
        message: `Tool ${plan.name} cannot be stored: ${checked.error.issues[0]?.message}`,
      });
    }
  }
  if (issues.length) throw new GenerationError(issues);
}

function outputJson(output: z.ZodType): JsonSchema {
  try {
    return zodToJsonSchema(output, { io: "output" });
  } catch {
    return {};
  }
}

/**
 * Stored plans back as plans, without building any zod schema: each input
 * field's and the output's checks are built on first use, and exports read
 * the stored JSON Schema.
 *
 * @param value What the database holds.
 * @param source The source's name: every plan's name must be one of its tools'.
 * @param options `eager`: a field whose check cannot be built throws when first built (for
 *   registration) instead of refusing calls.
 * @returns The plans, or `null` when the value is of another version (map the document instead).
 * @throws {GenerationError} when the value is not stored plans of this source.
 */
export function loadPlans(
  value: unknown,
  source: string,
  options: { eager?: boolean } = {},
): OperationPlan[] | null {
  const stored = value as StoredPlans | null;
  if (!stored || stored.v !== STORED_PLAN_VERSION) return null;
  if (!Array.isArray(stored.plans)) {
    throw new GenerationError([{ path: "plans", message: "Stored plans are not a list" }]);
  }
  return stored.plans.map((plan, index) =>
    loadPlan(plan, index, source, { eager: options.eager ?? false })
  );
}

/**
 * One stored plan back as a plan. `made`: the plan the stored one was just made from, whose input
 * and output are the lazy checks of the same stored schemas (registration's), taken as they are.
 */
function loadPlan(
  plan: StoredPlan,
  index: number,
  source: string,
  options: { eager: boolean; made?: OperationPlan },
): OperationPlan {
  // A row is staff-writable: a plan may only name a tool of its own source.
  if (
    typeof plan?.name !== "string" || typeof plan.origin !== "string" ||
    !plan.name.startsWith(`${source}_`) || !plan.input || !plan.send ||
    (plan.send.kind !== "http" && plan.send.kind !== "graphql")
  ) {
    throw new GenerationError([{ path: `plans/${index}`, message: "Not a plan of this source" }]);
  }
  const input = options.made?.input ??
    lazyInput(plan.input, plan.name, { eager: options.eager });
  const bounds = Array.isArray(plan.bounds) && plan.bounds.every(Array.isArray) ? plan.bounds : [];
  presetSafeIntegerBoundPaths(plan.input, bounds);
  const output = options.made?.output ?? lazyOutput(plan.output ?? {}, plan.name);
  return {
    name: plan.name,
    origin: plan.origin,
    title: String(plan.title),
    description: String(plan.description),
    input,
    output,
    ...(plan.example ? { example: plan.example } : {}),
    exampleChecked: true,
    readOnly: plan.readOnly === true,
    destructive: plan.destructive === true,
    send: plan.send,
  };
}

/** Every field's check built now (registration checks the stored schema with it). */
function buildObject(json: JsonSchema, name: string): z.ZodObject {
  const object = lazyInput(json, name, { eager: true });
  for (const key of Object.keys(object.shape)) void object.shape[key];
  return object;
}

/** Bump when what is signed changes (rows signed as version 1 are still read). */
export const SIGNED_PLANS_VERSION = 2;

/** Versions of signed data still read. */
const READ_SIGNED_VERSIONS = new Set([1, SIGNED_PLANS_VERSION]);

/** The plans as `api_sources.plans` holds them: their exact text and its signature. */
export interface SignedPlans {
  /** {@link SIGNED_PLANS_VERSION}. */
  signed: number;
  /** The {@link StoredPlans} as JSON text (jsonb keeps a string byte for byte). */
  text: string;
  /** HMAC-SHA-256 (base64url) of the scope and the text. */
  sig: string;
  /** Which key signed (the credential box's key id, never the key). */
  key_id: string;
}

/** What a source's plans were made for: all of it is signed with them. */
export interface PlanScope {
  /** The tenant. */
  orgId: string;
  /** The source's name. */
  name: string;
  /** The document's language. */
  kind: string;
  /** SHA-256 hex of the stored document. */
  documentHash: string;
  /** Where calls go. */
  baseUrl: string;
  /** Operations exposed beyond the marked ones. */
  expose: readonly string[];
}

/**
 * What is signed: the scope as JSON, a newline (JSON never holds a raw one),
 * then the SHA-256 of the plans' text (WebCrypto's HMAC over a megabyte of
 * plans cost an instance's first sync 12–22 ms CPU, the digest 1–2). Version 1
 * signed the text itself inside the JSON; its rows are still read.
 */
async function signedData(scope: PlanScope, text: string, version: number): Promise<string> {
  const header = [
    "easymo.generated_tools.plans",
    version,
    scope.orgId,
    scope.name,
    scope.kind,
    scope.documentHash,
    scope.baseUrl,
    scope.expose,
  ];
  if (version === 1) return JSON.stringify([...header, text]);
  return `${JSON.stringify(header)}\n${await documentHash(text)}`;
}

/**
 * JSON text in ASCII: every character past U+007E written as its `\uXXXX`
 * escape (the same value). Only string literals hold such characters, so the
 * escapes land inside them. A stored text without them reaches an instance
 * as a one-byte string: the driver's UTF-8 decoding of 0.74 MB of GitHub's
 * plans went 17 → 4.5 ms CPU, and parsing it 11 → 8.5, for 42 characters
 * (dashes, quotes) in descriptions.
 */
export function asciiJson(text: string): string {
  return text.replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * Signs stored plans for their source (registration, on the platform's side
 * only). The text is ASCII ({@link asciiJson}); rows signed before hold
 * UTF-8 text and are read as they are.
 */
export async function signPlans(
  stored: StoredPlans,
  scope: PlanScope,
  box: CredentialBox,
): Promise<SignedPlans> {
  const text = asciiJson(JSON.stringify(stored));
  return {
    signed: SIGNED_PLANS_VERSION,
    text,
    sig: await box.sign(await signedData(scope, text, SIGNED_PLANS_VERSION)),
    key_id: box.keyId,
  };
}

/**
 * The select-list that reads a row's signed plans (`<column>` of
 * `api_sources`) as its parts, for {@link signedPlansOf}: the plans' text
 * arrives as a text column, so an instance decodes it once and parses it
 * once, where reading the jsonb made the driver parse the whole wrapper,
 * unescaping 0.74 MB of string for GitHub's 200 operations (~10 ms CPU),
 * before the text inside was parsed again. A part that is not a JSON string
 * arrives as null (then refused as malformed, as before).
 */
export function signedPlansColumns(column: string): string {
  const text = (key: string) =>
    `case when jsonb_typeof(${column} -> '${key}') = 'string' then ${column} ->> '${key}' end`;
  return [
    `${column} -> 'signed' as plans_signed`,
    `${text("text")} as plans_text`,
    `${text("sig")} as plans_sig`,
    `${text("key_id")} as plans_key_id`,
  ].join(", ");
}

/** A row's signed plans as {@link signedPlansColumns} selects them. */
export interface SignedPlansRow {
  /** The version signed with, as the jsonb held it. */
  plans_signed: unknown;
  /** The plans' text, or null. */
  plans_text: string | null;
  /** The signature, or null. */
  plans_sig: string | null;
  /** The signing key's id, or null. */
  plans_key_id: string | null;
}

/** The parts {@link signedPlansColumns} read, as {@link openSignedPlans} takes them. */
export function signedPlansOf(row: SignedPlansRow | undefined): Partial<SignedPlans> | null {
  if (row === undefined || row.plans_signed === null || row.plans_signed === undefined) {
    return null;
  }
  return {
    signed: row.plans_signed as number,
    ...(row.plans_text === null ? {} : { text: row.plans_text }),
    ...(row.plans_sig === null ? {} : { sig: row.plans_sig }),
    ...(row.plans_key_id === null ? {} : { key_id: row.plans_key_id }),
  };
}

/** Why a source's stored plans were refused, for staff (no secret in it). */
export class PlanSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlanSignatureError";
  }
}

/**
 * The stored plans' text (JSON of {@link StoredPlans}), if the platform signed
 * them for exactly this row.
 *
 * @throws {PlanSignatureError} when they are missing, unsigned, signed under another key, or
 *   do not match the row (edited outside `api_source_register`).
 */
export async function openSignedPlans(
  value: unknown,
  scope: PlanScope,
  box: CredentialBox,
): Promise<string> {
  const signed = value as Partial<SignedPlans> | null;
  const again = "staff must register the API again with api_source_register";
  if (!signed || typeof signed !== "object" || signed.signed === undefined) {
    throw new PlanSignatureError(
      `The source ${scope.name} has no plans signed by the platform (written outside api_source_register, or registered before plans were signed): ${again}`,
    );
  }
  if (
    !READ_SIGNED_VERSIONS.has(signed.signed) || typeof signed.text !== "string" ||
    typeof signed.sig !== "string"
  ) {
    throw new PlanSignatureError(`The source ${scope.name}'s stored plans are malformed: ${again}`);
  }
  if (signed.key_id !== box.keyId) {
    throw new PlanSignatureError(
      `The source ${scope.name}'s plans were signed under another key (GENERATED_TOOLS_KEY changed): ${again}`,
    );
  }
  if (
    !await box.verify(
      await signedData(scope, signed.text, signed.signed as number),
      signed.sig,
    )
  ) {
    throw new PlanSignatureError(
      `The source ${scope.name}'s plans do not match their signature: the row was changed outside api_source_register, so its tools are not offered; ${again}`,
    );
  }
  return signed.text;
}
