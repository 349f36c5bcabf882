/**
 * Scores the live router (the decision and context the agent's graph uses) on the held-out sets in testing/routing_eval/: accuracy
 * per language and per agent, a confusion table, how often it asked for
 * clarification, how many replies came in the sender's language, and every
 * conversation turn it got wrong; then the same per language on the harder
 * set (place names, vehicle makes, SMS spelling, safety said indirectly),
 * with how many safety messages reached a person and how many ordinary
 * messages were handed off as unsafe. `--dev` scores the harder set's dev
 * split instead of its held-out one. Last the blind set (written without
 * reading the router or its training data), per language, report only. A
 * report: exits 0 unless `--min <pct>` is given and a language of the
 * held-out or harder set scores below it.
 *
 * Run: `deno task eval:routing [--min 90] [--dev] [--verbose]`
 *
 * @module
 */
import { platformRouter } from "@shared/platform/router.ts";
import {
  loadBlindMessages,
  loadConversations,
  loadFirstMessages,
  loadHarderMessages,
  scoreConversations,
  type Scored,
  scoreFirstMessages,
} from "../testing/routing_eval/routing_eval.ts";

const minIndex = Deno.args.indexOf("--min");
const min = minIndex === -1 ? null : Number(Deno.args[minIndex + 1]);

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
const wrong = turns.filter((row) =>
  row.got !== row.expect || row.gotLanguage !== row.expectLanguage
);
for (const row of wrong) {
  console.log(
    `  ✗ ${row.conversation}: "${row.text}" → ${row.got}/${row.gotLanguage}, expected ${row.expect}/${row.expectLanguage}`,
  );
}
if (Deno.args.includes("--verbose")) {
  console.log("\nFirst messages routed wrong");
  for (const row of first.filter((row) => row.got !== row.expect)) {
    console.log(`  ${row.language} "${row.text}" → ${row.got}, expected ${row.expect}`);
  }
}

const split = Deno.args.includes("--dev") ? "dev" : "held_out";
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
if (Deno.args.includes("--verbose")) {
  console.log("\nHarder messages routed wrong");
  for (const row of harder.filter((row) => row.got !== row.expect)) {
    console.log(`  ${row.language} "${row.text}" → ${row.got}, expected ${row.expect}`);
  }
}

// Report only: the blind set stays out of `--min`, so CI never fails on it.
const blind = scoreFirstMessages(await loadBlindMessages(context.agents?.handoff), context);
console.log(`\nBlind first messages (${blind.length}, written without reading the router)\n`);
for (const language of ["en", "rw", "fr"]) {
  const rows = blind.filter((row) => row.language === language);
  console.log(`  ${language}  ${pct(right(rows), rows.length)}  (${right(rows)}/${rows.length})`);
}
const blindSafety = blind.filter((row) => row.safety);
console.log(
  `  safety messages handed to a person, urgently: ${
    blindSafety.filter((row) => row.urgent).length
  }/${blindSafety.length}`,
);
const blindFalseAlarms = blind.filter((row) =>
  !row.safety && row.urgent && row.expect !== context.agents?.handoff
);
console.log(
  `  ordinary messages handed off as unsafe: ${blindFalseAlarms.length} of ${
    blind.length - blindSafety.length
  }`,
);
for (const row of blindFalseAlarms) console.log(`    ! ${row.language} "${row.text}"`);
if (Deno.args.includes("--verbose")) {
  console.log("\nBlind messages routed wrong");
  for (const row of blind.filter((row) => row.got !== row.expect)) {
    console.log(`  ${row.language} "${row.text}" → ${row.got}, expected ${row.expect}`);
  }
}

if (min !== null && Object.values(perLanguage).some((score) => score < min)) {
  console.error(`\nBelow --min ${min}% in at least one language.`);
  Deno.exit(1);
}
