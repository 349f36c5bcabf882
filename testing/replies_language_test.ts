/**
 * No English in what a Kinyarwanda or French user is actually sent: every
 * offline rw and fr scenario is played and each reply to the user (text,
 * buttons, list rows and their descriptions) is scanned for English words.
 * This catches words that code and data put in replies (units from the
 * database, memos, dates), which the scan of the text tables cannot see.
 */
import assert from "node:assert/strict";
import { englishWords } from "./english_words.ts";
import { loadScenarios, runScenario, selectScenarios } from "./scenarios.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

// The bot's lines to the user; "bot → +250…" lines go to vendors, drivers and staff.
function leaks(transcript: readonly string[]): string[] {
  return transcript.filter((line) => line.startsWith("bot: "))
    .flatMap((line) => englishWords(line).length ? [line] : []);
}

Deno.test("englishWords() finds units, roles and English dates, not French or Kinyarwanda", () => {
  assert.deepEqual(englishWords("1,500 RWF / stick · Wed 25 Nov"), ["stick", "Wed", "Nov"]);
  assert.deepEqual(englishWords("Kwishyura 3,950 RWF kuri Ride Kimironko"), ["Ride"]);
  assert.deepEqual(englishWords("mer. 25 nov., 19:00 · 2 000 RWF / tasse · payée"), []);
  assert.deepEqual(englishWords("Ku wa gatatu 25 Ugushyingo · {payee} https://pay.example/x"), []);
  assert.deepEqual(englishWords("Indango: PAY-FX2DW8, A-1001"), []);
});

Deno.test(
  "no reply to a rw or fr user in the offline scenarios holds an English word",
  opts,
  async () => {
    const scenarios = selectScenarios(await loadScenarios(), { mode: "deterministic" })
      .filter((scenario) =>
        /_(rw|fr)$/.test(scenario.name) && !scenario.name.startsWith("insurance_")
      );
    assert.ok(scenarios.length >= 10, `only ${scenarios.length} rw/fr scenario(s)`);
    const found: string[] = [];
    for (const scenario of scenarios) {
      const result = await runScenario(scenario);
      for (const line of leaks(result.transcript)) found.push(`${scenario.name}: ${line}`);
    }
    assert.deepStrictEqual(found, []);
  },
);
