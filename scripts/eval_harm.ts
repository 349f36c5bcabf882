/**
 * Cross-validates the learned safety signal on its own corpus: the harm
 * corpus (shared/agent/harm_corpus/*.txt) is cut into folds, and each fold is
 * judged by the lexicon (`decideRoute` without the signal) and by a signal
 * trained without it, so every message is judged by a signal that never read
 * it. Per language it prints the safety messages handed to a person urgently
 * and the ordinary ones handed off as unsafe, for the lexicon alone, the
 * signal alone, either, and as routed (the lexicon unless the signal clears
 * the clauses it found harm in, below HARM_VETO_BELOW, or the signal); then the same over a grid of
 * operating points (veto × threshold), ranked by a cost where a missed danger
 * counts `--miss-cost` false alarms; `--errors` prints the routed verdict's
 * errors (corpus messages only). No routing evaluation set is read.
 *
 * Run: `deno task eval:harm [--folds 5] [--miss-cost 3]`
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import {
  HARM_THRESHOLD,
  HARM_VETO_BELOW,
  harmClears,
  harmFlags,
  harmReading,
  type HarmSignal,
} from "@shared/agent/harm_signal.ts";
import { loadHarmTraining, trainHarmSignal } from "@shared/agent/harm_training.ts";
import { decideRoute, type RouteContext } from "@shared/agent/route_decision.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { cliOrExit, numberOption, parseCli } from "./_cli.ts";

const USAGE = "Usage: deno task eval:harm [--folds 5] [--miss-cost 3] [--errors]";
const args = cliOrExit({ name: "eval_harm", usage: USAGE }, () => {
  const { values } = parseCli(Deno.args, {
    options: {
      folds: { type: "string" },
      "miss-cost": { type: "string" },
      errors: { type: "boolean", default: false },
    },
  });
  return {
    folds: numberOption(values.folds, "folds") ?? 5,
    missCost: numberOption(values["miss-cost"], "miss-cost") ?? 3,
    errors: values.errors,
  };
});

const LANGUAGES: readonly Language[] = ["en", "rw", "fr"];
const FIRST = { agent: null, atMenu: false, menuOptions: [], langPref: null };

interface Row {
  text: string;
  language: Language;
  harm: boolean;
  fold: number;
}

// Every corpus message with its fold: a message's place in its own list, so each fold holds
// the same share of every language and kind.
const corpus = await loadHarmTraining();
const rows: Row[] = LANGUAGES.flatMap((language) => [
  ...(corpus.harm[language] ?? []).map((text, at) => ({
    text,
    language,
    harm: true,
    fold: at % args.folds,
  })),
  ...(corpus.ordinary[language] ?? []).map((text, at) => ({
    text,
    language,
    harm: false,
    fold: at % args.folds,
  })),
]);

const router = platformRouter();
const lexiconOnly: RouteContext = { ...router, harm: undefined };
const urgent = (text: string, context: RouteContext) => {
  const decision = decideRoute(text, FIRST, context);
  return decision.kind === "route" && decision.urgent;
};
const lexicon = new Map(rows.map((row) => [row, urgent(row.text, lexiconOnly)]));

/** The signal trained without one fold. */
function trainedWithout(fold: number): HarmSignal {
  const kept = rows.filter((row) => row.fold !== fold);
  const pick = (harm: boolean) =>
    Object.fromEntries(
      LANGUAGES.map((language) => [
        language,
        kept.filter((row) => row.language === language && row.harm === harm).map((row) => row.text),
      ]),
    );
  const harm = pick(true);
  const ordinary = pick(false);
  return trainHarmSignal({ harm, ordinary });
}

interface Tally {
  caught: number;
  safety: number;
  alarms: number;
  ordinary: number;
}

function tally(verdict: (row: Row) => boolean, language?: Language): Tally {
  const own = rows.filter((row) => language === undefined || row.language === language);
  const safety = own.filter((row) => row.harm);
  const ordinary = own.filter((row) => !row.harm);
  return {
    caught: safety.filter(verdict).length,
    safety: safety.length,
    alarms: ordinary.filter(verdict).length,
    ordinary: ordinary.length,
  };
}

// Out-of-fold scores: each message, and each of its clauses, scored by the signal trained
// without its fold (remembered: the operating points read them again and again).
const foldScores: ((text: string) => number)[] = [];
for (let fold = 0; fold < args.folds; fold++) {
  const signal = trainedWithout(fold);
  const known = new Map<string, number>();
  foldScores.push((text) => known.get(text) ?? known.set(text, signal.score(text)).get(text)!);
}
const scoreOf = (row: Row) => foldScores[row.fold];
const readings = new Map(rows.map((row) => [row, harmReading(row.text)]));
const signalAt = (threshold: number) => (row: Row) => harmFlags(row.text, scoreOf(row), threshold);
const routedAt = (vetoBelow: number, threshold: number) => {
  const flags = signalAt(threshold);
  return (row: Row) =>
    (lexicon.get(row)! && !harmClears(row.text, scoreOf(row), vetoBelow)) || flags(row);
};

const line = ({ caught, safety, alarms, ordinary }: Tally) =>
  `safety ${caught}/${safety}, ordinary as unsafe ${alarms}/${ordinary}`;

console.log(
  `Harm corpus, ${args.folds}-fold cross-validation (${rows.length} messages), live router\n`,
);
const current = signalAt(HARM_THRESHOLD);
const kinds: [string, (row: Row) => boolean][] = [
  ["lexicon alone", (row) => lexicon.get(row)!],
  ["signal alone", current],
  ["lexicon or signal", (row) => lexicon.get(row)! || current(row)],
  [
    `as routed (lexicon unless cleared below ${HARM_VETO_BELOW}, or signal)`,
    routedAt(HARM_VETO_BELOW, HARM_THRESHOLD),
  ],
];
for (const [name, verdict] of kinds) {
  console.log(`  ${name}`);
  for (const language of LANGUAGES) {
    console.log(`    ${language}  ${line(tally(verdict, language))}`);
  }
  console.log(`    all ${line(tally(verdict))}`);
}

if (args.errors) {
  const [, routed] = kinds[kinds.length - 1];
  for (const row of rows) {
    if (routed(row) === row.harm) continue;
    const reading = readings.get(row)!;
    const why = `${lexicon.get(row) ? "lexicon" : "-"} ${scoreOf(row)(row.text).toFixed(2)}${
      reading.cue ? " cue" : ""
    }`;
    console.log(`    ${row.harm ? "missed" : "alarm "} ${row.language} [${why}] ${row.text}`);
  }
}

console.log(`\nOperating points, cost = ${args.missCost} × missed + false alarms\n`);
const points: { name: string; cost: number; total: Tally }[] = [];
for (const vetoBelow of [0, 0.02, 0.05, 0.1, 0.2]) {
  for (const threshold of [0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 0.9]) {
    const total = tally(routedAt(vetoBelow, threshold));
    const cost = args.missCost * (total.safety - total.caught) + total.alarms;
    points.push({ name: `veto below ${vetoBelow}, threshold ${threshold}`, cost, total });
  }
}
points.sort((a, b) => a.cost - b.cost);
for (const { name, cost, total } of points.slice(0, 20)) {
  console.log(`  ${name.padEnd(34)} cost ${String(cost).padStart(4)}  ${line(total)}`);
}
