/**
 * The Legal Intake flow's turns the scenarios do not reach: an advice
 * question in the middle of the intake keeps the intake where it was, a
 * file that is neither a photo nor a PDF is refused, a cancelled read-back
 * files nothing, a failed filing says why and offers a person. The tools
 * are answered by hand: these turns are the flow's own decisions.
 */
import assert from "node:assert/strict";
import { fail, ok, type ToolResult } from "@shared/contract/result.ts";
import type { Language } from "@shared/contract/language.ts";
import type { OfflineStep, OfflineTurn, TurnInput } from "@shared/registry/pack.ts";
import { legalFlow } from "./legal_flow.ts";
import { say } from "./texts.ts";

async function turn(
  input: Partial<TurnInput>,
  memory: Record<string, unknown>,
  options: { language?: Language; answer?: (tool: string) => ToolResult } = {},
): Promise<{ step: OfflineStep; calls: string[] }> {
  const calls: string[] = [];
  const step = await legalFlow(
    {
      agent: "legal_intake",
      language: options.language ?? "en",
      input: { wamid: "wamid.1", text: "", phone: "+250788000001", ...input },
      memory,
      menu: [],
      handoff: "support_handoff",
      progress: () => Promise.resolve(),
    } satisfies OfflineTurn,
    (tool) => {
      calls.push(tool);
      return Promise.resolve(options.answer?.(tool) ?? fail("NOT_FOUND"));
    },
  );
  return { step, calls };
}

Deno.test("legalFlow refuses advice mid-intake, offers a person, and carries on where it was", async () => {
  const memory = { step: "name", category: "tenancy", summary: "My landlord kept my deposit." };
  const { step, calls } = await turn({ text: "est-ce que je dois signer ?" }, memory, {
    language: "fr",
  });
  assert.deepEqual(calls, [], "no tool is called for an advice question");
  assert.equal(step.replies?.[0]?.text, say("noAdvice", "fr"));
  assert.deepEqual(step.replies?.[0]?.buttons?.map((b) => b.id), [
    "agent:support_handoff",
    "legal:continue",
  ]);
  assert.equal(step.memory?.step, "name");
  // "Continue my case" asks the question the intake waits at.
  const { step: next } = await turn({ text: "Continuer", choice: "legal:continue" }, {
    ...memory,
    ...step.memory,
  }, { language: "fr" });
  assert.equal(next.replies?.[0]?.text, say("askName", "fr"));
});

Deno.test("legalFlow's 'Continue my case' at a kind of case already known asks the next part missing", async () => {
  // The first message named the kind (renting) and told no account: what happened is asked.
  const named = { step: "category", category: "tenancy" };
  const { step: told } = await turn({ text: "Komeza ikibazo", choice: "legal:continue" }, named, {
    language: "rw",
  });
  assert.equal(
    told.replies?.[0]?.text,
    say("askSummary", "rw", { category: say("tenancy", "rw") }),
  );
  assert.equal(told.memory?.step, "summary");
  assert.equal(told.memory?.category, "tenancy");
  // It told its account too: the name is asked next, the account kept.
  const summary = "Mon bailleur veut que je signe un nouveau bail avec un loyer doublé.";
  const { step: name } = await turn({ text: "Continuer", choice: "legal:continue" }, {
    ...named,
    summary,
  }, { language: "fr" });
  assert.equal(name.replies?.[0]?.text, say("askName", "fr"));
  assert.equal(name.memory?.step, "name");
  assert.equal(name.memory?.summary, summary);
  // No kind known: the kinds are listed.
  const { step: kinds } = await turn({ text: "Continue", choice: "legal:continue" }, {
    step: "category",
  });
  assert.equal(kinds.replies?.[0]?.text, say("askCategory", "en"));
});

Deno.test("legalFlow takes down an account that ends in a question, and refuses the question", async () => {
  const account = "My boss fired me last week without notice after six years. Can he do that?";
  const { step, calls } = await turn({ text: account, name: "Aline Uwase" }, {
    step: "summary",
    category: "labour",
  });
  assert.deepEqual(calls, []);
  assert.equal(step.replies?.[0]?.text, say("questionNoted", "en"));
  assert.deepEqual(step.replies?.[0]?.buttons?.map((b) => b.id), ["agent:support_handoff"]);
  assert.equal(step.replies?.[1]?.text, say("askName", "en"));
  assert.equal(step.memory?.summary, account);
  assert.equal(step.memory?.step, "name");
  // A bare question at the same step is refused, and the step waits.
  const { step: bare } = await turn({ text: "Can he do that?" }, {
    step: "summary",
    category: "labour",
  });
  assert.equal(bare.replies?.[0]?.text, say("noAdvice", "en"));
  assert.equal(bare.memory?.step, "summary");
});

Deno.test("legalFlow takes photos and PDFs as documents and refuses other files", async () => {
  const memory = { step: "documents", category: "land", summary: "A wall on my plot.", name: "A" };
  const { step: audio } = await turn({ media: { type: "audio", ref: "storage://media/o/c/a" } }, {
    ...memory,
    docs: [],
  });
  assert.equal(audio.replies?.[0]?.text, say("notADocument", "en"));
  assert.equal(audio.memory, undefined, "nothing kept");
  const { step: pdf } = await turn({ media: { type: "document", ref: "storage://media/o/c/p" } }, {
    ...memory,
    docs: ["storage://media/o/c/1"],
  });
  assert.deepEqual(pdf.memory?.docs, ["storage://media/o/c/1", "storage://media/o/c/p"]);
  assert.equal(pdf.replies?.[0]?.text, say("gotDocument", "en", { count: 2 }));
});

Deno.test("legalFlow files nothing when the read-back is cancelled", async () => {
  const { step, calls } = await turn({ text: "" }, {
    step: "filing",
    category: "land",
    summary: "A wall on my plot.",
    name: "Aline Uwase",
    lastResult: fail("CANCELLED", "Cancelled"),
    lastTool: "case_intake",
  });
  assert.deepEqual(calls, []);
  assert.equal(step.replies?.[0]?.text, say("cancelled", "en"));
  assert.equal(step.done, true);
});

Deno.test("legalFlow says why a filing failed and offers a person", async () => {
  const { step } = await turn({ text: "" }, {
    step: "filing",
    category: "land",
    summary: "A wall on my plot.",
    name: "Aline Uwase",
    docs: ["storage://media/o/c/gone"],
    lastResult: fail("NOT_FOUND", "docs[0]: no such file", {
      fields: [{ path: "docs[0]", message: "no such file" }],
    }),
    lastTool: "case_intake",
  });
  assert.equal(step.replies?.[0]?.text, say("notFiled", "en", { msg: "docs[0]: no such file" }));
  assert.deepEqual(step.replies?.[0]?.buttons?.map((b) => b.id), ["agent:support_handoff"]);
  assert.equal(step.memory?.step, "documents");
  assert.deepEqual(step.memory?.docs, [], "the file that could not be attached is dropped");
});

Deno.test("legalFlow says the case is filed even when its PDF cannot be made", async () => {
  const filed = ok({
    case_id: "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d",
    reference_number: "LC-2026-000007",
    status: "new",
    category: "land",
    filed_at: "2026-11-26T10:00:00.000Z",
    language: "en",
    documents: [],
    ticket_id: "6b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d",
    consultation_fee: null,
  });
  const { step, calls } = await turn({ text: "" }, {
    step: "filing",
    category: "land",
    summary: "A wall on my plot.",
    name: "Aline Uwase",
    lastResult: filed,
    lastTool: "case_intake",
  }, { answer: () => fail("VALIDATION_ERROR", "Invalid request: check data.summary") });
  assert.deepEqual(calls, ["generate_pdf"]);
  assert.equal(step.replies?.[0]?.text, say("pdfFailed", "en"));
  assert.match(step.replies?.[1]?.text ?? "", /LC-2026-000007/);
  assert.equal(step.memory?.reference, "LC-2026-000007");
});

Deno.test("legalFlow keeps a photo sent when the name is asked, and asks the name again (its caption is no name)", async () => {
  const memory = { step: "name", category: "land", summary: "The seller sold my plot twice." };
  const { step } = await turn(
    { text: "le contrat de vente", media: { type: "image", ref: "storage://media/o/c/1" } },
    memory,
    { language: "fr" },
  );
  assert.deepEqual(step.replies?.map((reply) => reply.text), [
    say("documentKept", "fr", { count: 1 }),
    say("askName", "fr"),
  ]);
  assert.equal(step.memory?.step, "name");
  assert.equal(step.memory?.name, undefined);
  assert.deepEqual(step.memory?.docs, ["storage://media/o/c/1"]);
});

Deno.test("legalFlow hears 'c'est tout', 'that's all' and 'ni ibyo' as Done on the documents", async () => {
  const memory = {
    step: "documents",
    category: "land",
    summary: "A wall on my plot.",
    name: "Amélie Uwera",
    docs: ["storage://media/o/c/1"],
  };
  for (
    const [language, text] of [["fr", "c'est tout"], ["en", "ok that's all"], [
      "rw",
      "ni ibyo",
    ]] as const
  ) {
    const { calls } = await turn({ text }, memory, { language });
    // Done files the case: its read-back is asked of case_intake.
    assert.deepEqual(calls, ["case_intake"], text);
  }
});

Deno.test("legalFlow takes a first message that names its matter: neither its kind nor its account is asked again", async () => {
  for (
    const [language, text, category] of [
      ["en", "my employer has not paid my salary for 3 months", "labour"],
      ["fr", "mon bailleur veut m'expulser de la maison sans préavis", "tenancy"],
      ["rw", "umukoresha wanjye amaze amezi atatu atampemba umushahara", "labour"],
    ] as const
  ) {
    const { step } = await turn({ text, name: "Aline Uwase" }, {}, { language });
    assert.equal(
      step.replies?.[0]?.text,
      say("caseNoted", language, { category: say(category, language) }),
      text,
    );
    assert.equal(step.replies?.[1]?.text, say("askName", language), text);
    assert.deepEqual([step.memory?.step, step.memory?.category, step.memory?.summary], [
      "name",
      category,
      text,
    ]);
  }
  // Its kind alone: only the account is asked.
  const { step: kindOnly } = await turn({ text: "I need a lawyer for a land case" }, {});
  assert.equal(
    kindOnly.replies?.[0]?.text,
    say("askSummary", "en", { category: say("land", "en") }),
  );
  assert.equal(kindOnly.memory?.step, "summary");
  // An account of no kind it can tell: the kind is asked, then the name (not the account again).
  const story = "The man who built my house left with the money and never finished the roof";
  const { step: asked } = await turn({ text: story }, {});
  assert.equal(asked.replies?.[0]?.text, say("askCategory", "en"));
  const { step: picked } = await turn({ text: "", choice: "case:other" }, {
    ...asked.memory,
  });
  assert.equal(picked.replies?.[0]?.text, say("askName", "en"));
  assert.deepEqual([picked.memory?.category, picked.memory?.summary], ["other", story]);
  // Nothing told: the kind is asked, as before.
  const { step: bare } = await turn({ text: "I need a lawyer" }, {});
  assert.equal(bare.replies?.[0]?.text, say("askCategory", "en"));
  assert.equal(bare.memory?.summary, null);
});

Deno.test("legalFlow takes a sentence at the name or documents step as more of the account, never as a name or a document", async () => {
  const summary = "Bonjour, mon propriétaire veut me mettre dehors sans préavis";
  for (
    const [language, more] of [
      ["fr", "Mon propriétaire veut m'expulser sans préavis alors que je paie mon loyer"],
      ["rw", "nyiri inzu yanze kunsubiza amafaranga y'ingwate nishyuye"],
      ["en", "He also kept the deposit I paid him last year"],
    ] as const
  ) {
    const memory = { step: "name", category: "tenancy", summary };
    const { step } = await turn({ text: more }, memory, { language });
    assert.deepEqual(step.replies?.map((reply) => reply.text), [
      say("addedToAccount", language),
      say("askName", language),
    ], more);
    assert.ok(!step.memory?.name, more);
    assert.equal(step.memory?.summary, `${summary}\n${more}`, more);
    // The name then given is the name.
    const { step: named } = await turn({ text: "Claudine Uwase" }, { ...memory, ...step.memory }, {
      language,
    });
    assert.equal(named.memory?.name, "Claudine Uwase");
    assert.equal(named.memory?.step, "documents");
    // At the documents step, a sentence joins the account; a word is asked for a document.
    const docs = { ...memory, ...named.memory };
    const { step: told } = await turn({ text: more }, docs, { language });
    assert.equal(told.replies?.[0]?.text, say("addedToAccountDocuments", language));
    assert.equal(told.memory?.summary, `${summary}\n${more}\n${more}`);
    assert.deepEqual(told.memory?.docs ?? [], []);
    const { step: word } = await turn({ text: "Claudine" }, docs, { language });
    assert.equal(word.replies?.[0]?.text, say("documentsOnly", language));
    assert.equal(word.memory, undefined);
  }
});
