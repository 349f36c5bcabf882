// Experiment: score a message by its strongest clause/window. Not shipped.
import type { Language } from "@shared/contract/language.ts";
import {
  clausesOf, HARM_THRESHOLD, HARM_VETO_BELOW, harmClears, harmFlags, harmReading, MIN_WORDS,
} from "@shared/agent/harm_signal.ts";
import { HARM_LEARNER, loadHarmTraining, trainHarmSignal } from "@shared/agent/harm_training.ts";
import { decideRoute, type RouteContext } from "@shared/agent/route_decision.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { parse } from "yaml";

const LANGS: Language[] = ["en", "rw", "fr"];
const FOLDS = 5;
const FIRST = { agent: null, atMenu: false, menuOptions: [], langPref: null };
interface Row { text: string; language: Language; harm: boolean; fold: number }
const corpus = await loadHarmTraining();
const rows: Row[] = LANGS.flatMap((language) => [
  ...(corpus.harm[language] ?? []).map((text, at) => ({ text, language, harm: true, fold: at % FOLDS })),
  ...(corpus.ordinary[language] ?? []).map((text, at) => ({ text, language, harm: false, fold: at % FOLDS })),
]);
const dev: Row[] = [];
for (const set of ["dev_harm", "safety5_dev", "safety6_dev"]) {
  for (const language of LANGS) {
    const doc = parse(await Deno.readTextFile(`testing/routing_eval/${set}.${language}.yaml`)) as Record<string, string[]>;
    for (const [key, list] of Object.entries(doc)) {
      for (const text of list ?? []) dev.push({ text: String(text), language, harm: key === "safety", fold: -1 });
    }
  }
}
const router = platformRouter();
const lexOnly: RouteContext = { ...router, harm: undefined };
const lexicon = new Map<string, boolean>();
for (const r of [...rows, ...dev]) {
  const d = decideRoute(r.text, FIRST, lexOnly);
  lexicon.set(r.text, d.kind === "route" && d.urgent);
}

// Parts of a message: clauses (clausesOf) with at least `min` words of their reading.
const wordCount = (t: string) => harmReading(t).words;
function clauseParts(text: string, min: number): string[] {
  const c = clausesOf(text);
  return c.length > 1 ? c.filter((x) => wordCount(x) >= min) : [];
}
function windowParts(text: string, size: number, stride: number): string[] {
  const w = text.split(/\s+/).filter(Boolean);
  if (w.length <= size) return [];
  const out: string[] = [];
  for (let i = 0; i + size <= w.length + stride - 1; i += stride) out.push(w.slice(i, i + size).join(" "));
  return out;
}
type Parts = (text: string) => string[];
const SWEEP = Deno.env.get("SWEEP") === "1";
const variants: Record<string, Parts | null> = SWEEP
  ? { whole: null, "clauses>=4": (t) => clauseParts(t, 4), "win6/3": (t) => windowParts(t, 6, 3), "win8/4": (t) => windowParts(t, 8, 4) }
  : {
    whole: null,
    "clauses>=3": (t) => clauseParts(t, 3),
    "clauses>=4": (t) => clauseParts(t, 4),
    "clauses>=5": (t) => clauseParts(t, 5),
    "win6/3": (t) => windowParts(t, 6, 3),
    "win8/4": (t) => windowParts(t, 8, 4),
  };
let BLEND = Deno.env.get("BLEND") ? Number(Deno.env.get("BLEND")) : 1; // weight of the part max
function maxScore(score: (t: string) => number, parts: Parts | null) {
  return (t: string) => {
    const whole = score(t);
    if (!parts) return whole;
    const ps = parts(t);
    if (ps.length === 0) return whole;
    const best = Math.max(...ps.map(score));
    return Math.max(whole, BLEND * best + (1 - BLEND) * whole);
  };
}

type Train = { harm: Record<string, string[]>; ordinary: Record<string, string[]> };
function pick(kept: Row[]): Train {
  const f = (h: boolean) => Object.fromEntries(LANGS.map((l) => [l, kept.filter((r) => r.language === l && r.harm === h).map((r) => r.text)]));
  return { harm: f(true), ordinary: f(false) };
}
// Training "the same way": ordinary messages' clauses are ordinary too (each part of an ordinary
// message is ordinary); a harm message's parts are unlabelled (one carries the harm).
function withOrdinaryParts(t: Train, min: number): Train {
  const ordinary: Record<string, string[]> = {};
  for (const l of LANGS) ordinary[l] = [...t.ordinary[l], ...t.ordinary[l].flatMap((x) => clauseParts(x, min))];
  return { harm: t.harm, ordinary };
}
const TRAINING = Deno.env.get("TRAINING") ?? "plain";
const seeds = [1, 7];
interface T { c: number; s: number; a: number; o: number }
const fmt = (t: T) => `${t.c}/${t.s} ${t.a}/${t.o}`;
for (const seed of seeds) {
  const learner = { ...HARM_LEARNER, seed };
  const train = (t: Train) => trainHarmSignal({ ...(TRAINING === "parts" ? withOrdinaryParts(t, 4) : t), learner });
  const foldScore: ((t: string) => number)[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const s = train(pick(rows.filter((r) => r.fold !== f)));
    const m = new Map<string, number>();
    foldScore.push((t) => m.get(t) ?? m.set(t, s.score(t)).get(t)!);
  }
  const full = train(pick(rows));
  const fm = new Map<string, number>();
  const fullScore = (t: string) => fm.get(t) ?? fm.set(t, full.score(t)).get(t)!;
  console.log(`\n== seed ${seed}, training ${TRAINING}, blend ${BLEND} (signal alone | routed)  per lang en rw fr all`);
  const blends = SWEEP ? [1, 0.5] : [BLEND];
  const thresholds = SWEEP ? [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9] : [HARM_THRESHOLD];
  for (const blend of blends) for (const threshold of thresholds) for (const [name, parts] of Object.entries(variants)) {
    BLEND = blend;
    if (SWEEP && name === "whole" && (blend !== 1)) continue;
    const verdicts = (set: Row[], scoreFor: (r: Row) => (t: string) => number) => {
      const sig: Record<string, T> = {}; const rou: Record<string, T> = {};
      for (const l of [...LANGS, "all"]) { sig[l] = { c: 0, s: 0, a: 0, o: 0 }; rou[l] = { c: 0, s: 0, a: 0, o: 0 }; }
      for (const r of set) {
        const sc = maxScore(scoreFor(r), parts);
        const flag = harmFlags(r.text, sc, threshold);
        const routed = (lexicon.get(r.text)! && !harmClears(r.text, sc, HARM_VETO_BELOW)) || flag;
        for (const l of [r.language, "all"]) {
          for (const [tab, v] of [[sig, flag], [rou, routed]] as const) {
            if (r.harm) { tab[l].s++; if (v) tab[l].c++; } else { tab[l].o++; if (v) tab[l].a++; }
          }
        }
      }
      return { sig, rou };
    };
    const cv = verdicts(rows, (r) => foldScore[r.fold]);
    const dv = verdicts(dev, () => fullScore);
    const line = (x: Record<string, T>) => [...LANGS, "all"].map((l) => fmt(x[l])).join("  ");
    if (SWEEP) {
      console.log(`b${blend} t${threshold} ${name.padEnd(11)} CV routed  ${line(cv.rou)} | dev ${fmt(dv.rou.all)}`);
      continue;
    }
    console.log(`${name.padEnd(11)} CV routed  ${line(cv.rou)}`);
    console.log(`${"".padEnd(11)} CV signal  ${line(cv.sig)}`);
    console.log(`${"".padEnd(11)} dev routed ${line(dv.rou)}`);
  }
}
void MIN_WORDS;
