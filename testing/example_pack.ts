/**
 * A tiny pack that exists only in tests, to prove a domain is one folder
 * plus one line in the pack list: a tool, an agent with its words, menu
 * title and offline flow, a table for `search_supabase`, texts in en/rw/fr.
 * Tests run the platform with `packs: [...PACKS, EXAMPLE_PACK]`.
 *
 * @module
 */
import { z } from "zod";
import { phraseBook } from "@shared/contract/language.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import type { Pack } from "@shared/registry/pack.ts";

const TEXTS = {
  hello: {
    en: "The example desk here: {name}.",
    rw: "Aha ni ku biro by'urugero: {name}.",
    fr: "Ici le guichet d'exemple : {name}.",
  },
} as const;

const say = phraseBook(TEXTS);

/** The example pack's tool: greets by name, touching no database. */
export const exampleGreet = defineTool({
  name: "example.greet",
  title: "Greet",
  description: "Answers with a greeting for a name; the example pack's tool.",
  category: "test",
  input: z.object({ name: z.string().min(1).max(40) }),
  output: z.object({ greeting: z.string() }),
  examples: [{ input: { name: "Aline" }, output: { greeting: "Hello, Aline" } }],
  sideEffects: "none",
  usesDatabase: false,
  execute: (args) => Promise.resolve({ greeting: `Hello, ${args.name}` }),
});

/** The example pack. */
export const EXAMPLE_PACK: Pack = {
  id: "example",
  tools: [exampleGreet],
  agents: [{
    id: "example_desk",
    asks: (text) => /\bexample\b/i.test(text),
    menuTitle: { en: "Example", rw: "Urugero", fr: "Exemple" },
    offlineFlow: (turn) =>
      Promise.resolve({
        replies: [{ text: say("hello", turn.language, { name: turn.input.text }) }],
      }),
  }],
  tables: { orgs: { id: "uuid", slug: "text" } },
  texts: TEXTS,
  services: [],
};
