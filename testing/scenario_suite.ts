/**
 * The offline scenario suite (every deterministic scenario in
 * config/scenarios but insurance's), played in parts so its files run side
 * by side: each part plays its share once and checks two things of those
 * plays — every scenario passes, and no reply to a Kinyarwanda or French
 * user holds an English word.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type Language, languageOf } from "@shared/contract/language.ts";
import { requestedLanguage } from "@shared/agent/language_detect.ts";
import { englishWords } from "./english_words.ts";
import { runsOnPglite } from "./db.ts";
import {
  assertSuitePasses,
  loadScenarios,
  playOffline,
  type Scenario,
  selectScenarios,
} from "./scenarios.ts";

/** Which share of the suite a test file plays. */
export interface SuitePart {
  /** 1-based. */
  part: number;
  /** How many parts the suite is cut into. */
  parts: number;
}

// Scenarios play on PGlite: they run where the PGlite half of the database tests runs (in CI, the
// clock-ahead job), not in a run narrowed to Postgres (TEST_BACKENDS=postgres).
const opts = {
  sanitizeOps: false,
  sanitizeResources: false,
  ignore: !runsOnPglite(),
};

/**
 * The part's scenarios: the suite sorted by name and dealt round-robin, so
 * each part gets a share of every family (rides, waiter, property…) and the
 * parts take about as long. Every scenario is in exactly one part.
 */
export async function suitePart({ part, parts }: SuitePart): Promise<Scenario[]> {
  const suite = selectScenarios(await loadScenarios(), { mode: "deterministic" })
    .filter((scenario) => !scenario.name.startsWith("insurance_"))
    .sort((a, b) => a.name.localeCompare(b.name));
  return suite.filter((_, index) => index % parts === part - 1);
}

/**
 * The replies holding English while the user speaks Kinyarwanda or French: the scenario's
 * language at first, then whatever the user asks for or plainly writes in ("I speak English
 * please" makes English replies right; a place name changes nothing). Lines "bot → +250…" go
 * to vendors, drivers and staff, not the user, and are not checked.
 */
export function englishLeaks(transcript: readonly string[], language: Language): string[] {
  // What a reply quotes is the user's own words (a case's summary read back), not ours.
  const unquoted = (line: string) => line.replace(/«[^»]*»|“[^”]*”|"[^"]*"/g, "");
  let speaking = language;
  const leaks: string[] = [];
  for (const line of transcript) {
    if (line.startsWith("user: ")) {
      const text = line.slice("user: ".length);
      speaking = requestedLanguage(text) ?? languageOf(text, speaking);
    } else if (
      line.startsWith("bot: ") && speaking !== "en" && englishWords(unquoted(line)).length
    ) {
      leaks.push(line);
    }
  }
  return leaks;
}

/** Registers the part's two tests: its scenarios pass; its rw and fr replies hold no English. */
export function registerSuitePart(part: SuitePart): void {
  const label = `part ${part.part} of ${part.parts}`;
  Deno.test(`every offline scenario of ${label} passes`, opts, async () => {
    const scenarios = await suitePart(part);
    assert.ok(scenarios.length >= 3, `only ${scenarios.length} scenario(s)`);
    await assertSuitePasses(scenarios);
  });

  // Each reply of every offline rw and fr scenario (text, buttons, list rows and their
  // descriptions) is scanned: this catches words that code and data put in replies (units from
  // the database, memos, dates), which the scan of the text tables cannot see. It reads the
  // plays of the test above (playOffline keeps each), or plays them when run alone.
  Deno.test(`no reply to a rw or fr user in ${label} holds an English word`, opts, async () => {
    const scenarios = (await suitePart(part)).filter((scenario) => /_(rw|fr)$/.test(scenario.name));
    assert.ok(scenarios.length >= 3, `only ${scenarios.length} rw/fr scenario(s)`);
    const found: string[] = [];
    for (const scenario of scenarios) {
      const result = await playOffline(scenario);
      const language = scenario.name.endsWith("_rw") ? "rw" : "fr";
      for (const line of englishLeaks(result.transcript, language)) {
        found.push(`${scenario.name}: ${line}`);
      }
    }
    assert.deepStrictEqual(found, []);
  });
}
