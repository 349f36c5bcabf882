/**
 * Scores the live router (the decision and context the agent's graph uses) on the held-out sets in testing/routing_eval/: accuracy
 * per language and per agent, a confusion table, how often it asked for
 * clarification, how many replies came in the sender's language, and every
 * conversation turn it got wrong; then the same per language on the harder
 * set (place names, vehicle makes, SMS spelling, safety said indirectly),
 * with how many safety messages reached a person and how many ordinary
 * messages were handed off as unsafe. `--dev` scores the harder set's dev
 * split instead of its held-out one. Last the fresh sets' dev and blind
 * halves and the blind set (all written without reading the router or its
 * training data), per language, report only; the held-out halves never print
 * their individual errors, `--verbose` prints the fresh dev halves'. The
 * fresh sets', the safety sets' and the blind set's totals are scored only with `--blind`
 * (once, at the end of a piece of routing work, and in CI's report), so tuning runs never see
 * them: a total read while tuning steers choices as an error would. A
 * report: exits 0 unless `--min <pct>` is given and a language of the
 * held-out or harder set scores below it.
 *
 * Run: `deno task eval:routing [--min 90] [--dev] [--verbose] [--blind]`
 *
 * @module
 */
import { platformRouter } from "@shared/platform/router.ts";
import {
  BLIND_ONLY_SETS,
  HALVED_SETS,
  loadBlindMessages,
  loadConversations,
  loadFirstMessages,
  loadHarderMessages,
  scoreConversations,
  type Scored,
  scoreFirstMessages,
} from "../testing/routing_eval/routing_eval.ts";
import { cliOrExit, numberOption, parseCli } from "./_cli.ts";

const USAGE = "Usage: deno task eval:routing [--min 90] [--dev] [--verbose] [--blind]";
// One parser for every script: a misspelt option is an error, not a run scored differently.
const args = cliOrExit({ name: "eval_routing", usage: USAGE }, () => {
  const { values } = parseCli(Deno.args, {
    options: {
      min: { type: "string" },
      dev: { type: "boolean", default: false },
      verbose: { type: "boolean", default: false },
      blind: { type: "boolean", default: false },
    },
  });
  return { ...values, min: numberOption(values.min, "min") ?? null };
});
const min = args.min;

// The live router: the context the agent's graph decides with, trained from the packs.
const context = platformRouter();
const first = scoreFirstMessages(await loadFirstMessages(), context);
const turns = scoreConversations(await loadConversations(), context);

const pct = (part: number, whole: number) =>
  whole === 0 ? "  n/a" : `${(100 * part / whole).toFixed(1).padStart(5)}%`;
const right = (rows: Scored[]) => rows.filter((row) => row.got === row.expect).length;

console.log(`First messages (${first.length}, held out from training)\n`);
const perLanguage: Record<string, number> = {};
for (const language of ["en", "rw", "fr"]) {
  const rows = first.filter((row) => row.language === language);
  perLanguage[language] = 100 * right(rows) / rows.length;
  console.log(`  ${language}  ${pct(right(rows), rows.length)}  (${right(rows)}/${rows.length})`);
}
console.log(`  all ${pct(right(first), first.length)}\n\nPer expected route`);
const labels = [...new Set(first.map((row) => row.expect))];
for (const label of labels) {
  const rows = first.filter((row) => row.expect === label);
  console.log(`  ${label.padEnd(22)} ${pct(right(rows), rows.length)}  (${rows.length})`);
}

const columns = [...new Set([...labels, ...first.map((row) => row.got)])];
const short = (label: string) => label.slice(0, 6);
console.log("\nConfusion (rows: expected, columns: got)");
console.log(`  ${"".padEnd(22)} ${columns.map((c) => short(c).padStart(6)).join(" ")}`);
for (const label of labels) {
  const cells = columns.map((column) =>
    String(first.filter((row) => row.expect === label && row.got === column).length || ".")
      .padStart(6)
  );
  console.log(`  ${label.padEnd(22)} ${cells.join(" ")}`);
}

const clarified = first.filter((row) => row.got === "clarify").length;
const unclear = first.filter((row) => row.expect === "clarify").length;
console.log(
  `\nClarifying questions: ${
    pct(clarified, first.length)
  } of first messages (${clarified}; ${unclear} are labelled unclear)`,
);
const inLanguage = (rows: Scored[]) =>
  rows.filter((row) => row.gotLanguage === row.expectLanguage).length;
console.log(`Replies in the sender's language: ${pct(inLanguage(first), first.length)}`);

console.log(`\nConversations (${turns.length} turns)`);
console.log(`  route right: ${pct(right(turns), turns.length)}`);
console.log(`  reply language right: ${pct(inLanguage(turns), turns.length)}`);
// Held-out conversations (never tuned on) count in the totals; their errors stay unread.
const heldOut = turns.filter((row) => row.heldOut);
console.log(
  `  held-out turns (never tuned on): route ${right(heldOut)}/${heldOut.length}, language ${
    inLanguage(heldOut)
  }/${heldOut.length}`,
);
const wrong = turns.filter((row) =>
  !row.heldOut && (row.got !== row.expect || row.gotLanguage !== row.expectLanguage)
);
for (const row of wrong) {
  console.log(
    `  ✗ ${row.conversation}: "${row.text}" → ${row.got}/${row.gotLanguage}, expected ${row.expect}/${row.expectLanguage}`,
  );
}
if (args.verbose) {
  console.log("\nFirst messages routed wrong");
  for (const row of first.filter((row) => row.got !== row.expect)) {
    console.log(`  ${row.language} "${row.text}" → ${row.got}, expected ${row.expect}`);
  }
}

const split = args.dev ? "dev" : "held_out";
const harder = scoreFirstMessages(
  await loadHarderMessages(split, context.agents?.handoff),
  context,
);
console.log(
  `\nHarder first messages (${harder.length}, ${split === "dev" ? "dev split" : "held out"})\n`,
);
for (const language of ["en", "rw", "fr"]) {
  const rows = harder.filter((row) => row.language === language);
  perLanguage[`harder ${language}`] = 100 * right(rows) / rows.length;
  console.log(`  ${language}  ${pct(right(rows), rows.length)}  (${right(rows)}/${rows.length})`);
}
const safety = harder.filter((row) => row.safety);
const handedOff = safety.filter((row) => row.urgent).length;
console.log(`  safety messages handed to a person, urgently: ${handedOff}/${safety.length}`);
const falseAlarms = [...first, ...harder].filter((row) =>
  !row.safety && row.urgent && row.expect !== context.agents?.handoff
);
console.log(
  `  ordinary messages handed off as unsafe: ${falseAlarms.length} of ${
    first.length + harder.length - safety.length
  }`,
);
for (const row of falseAlarms) console.log(`    ! ${row.language} "${row.text}"`);
if (args.verbose) {
  console.log("\nHarder messages routed wrong");
  for (const row of harder.filter((row) => row.got !== row.expect)) {
    console.log(`  ${row.language} "${row.text}" → ${row.got}, expected ${row.expect}`);
  }
}

// An ordinary message handed off as unsafe (a hand-off the label asked for is no alarm).
function isFalseAlarm(row: Scored): boolean {
  return !row.safety && row.urgent === true && row.expect !== context.agents?.handoff;
}

// A report-only set: per language, safety hand-offs and false alarms. Its
// individual errors print only when `showErrors` (never for a held-out set).
function reportSet(title: string, rows: Scored[], showErrors: boolean): void {
  console.log(`\n${title} (${rows.length})\n`);
  for (const language of ["en", "rw", "fr"]) {
    const own = rows.filter((row) => row.language === language);
    const ownUnsafe = own.filter((row) => row.safety);
    const ownAlarms = own.filter((row) => isFalseAlarm(row)).length;
    console.log(
      `  ${language}  ${pct(right(own), own.length)}  (${right(own)}/${own.length})  safety ${
        ownUnsafe.filter((row) => row.urgent).length
      }/${ownUnsafe.length}, ordinary as unsafe ${ownAlarms}/${own.length - ownUnsafe.length}`,
    );
  }
  const unsafe = rows.filter((row) => row.safety);
  console.log(
    `  safety messages handed to a person, urgently: ${
      unsafe.filter((row) => row.urgent).length
    }/${unsafe.length}`,
  );
  const alarms = rows.filter(isFalseAlarm);
  console.log(
    `  ordinary messages handed off as unsafe: ${alarms.length} of ${rows.length - unsafe.length}`,
  );
  if (!showErrors) return;
  for (const row of alarms) console.log(`    ! ${row.language} "${row.text}"`);
  for (const row of rows.filter((row) => row.got !== row.expect)) {
    console.log(`  ${row.language} "${row.text}" → ${row.got}, expected ${row.expect}`);
  }
}

const verbose = args.verbose;
// Report only: the fresh and blind sets stay out of `--min`, so CI never fails on them.
// The held-out halves never print their errors: reading them would turn them into dev sets.
for (const { title, load } of HALVED_SETS) {
  reportSet(
    `${title}, dev half (tuned on)`,
    scoreFirstMessages(await load("dev", context.agents?.handoff), context),
    verbose,
  );
  if (args.blind) {
    reportSet(
      `${title}, blind half (never tuned on)`,
      scoreFirstMessages(await load("blind", context.agents?.handoff), context),
      false,
    );
  }
}
if (args.blind) {
  reportSet(
    "Blind first messages (written without reading the router)",
    scoreFirstMessages(await loadBlindMessages(context.agents?.handoff), context),
    false,
  );
}

// Blind-only sets (no dev half): written by someone who tunes nothing; never tuned on.
if (args.blind) {
  for (const { title, load } of BLIND_ONLY_SETS) {
    reportSet(
      `${title}, blind only (never tuned on)`,
      scoreFirstMessages(await load(context.agents?.handoff), context),
      false,
    );
  }
}

if (min !== null && Object.values(perLanguage).some((score) => score < min)) {
  console.error(`\nBelow --min ${min}% in at least one language.`);
  Deno.exit(1);
}
