/**
 * Leave-one-writer-out check of the routing learners: learn from the curated phrases
 * (intents.ts, the team's writers) and read the generated routing corpus (corpus.<lang>.txt,
 * mostly templates), then the reverse; then the hand-written corpus (corpus_written.<lang>.txt):
 * whether it helps the model read the curated phrases, how a model that never saw it reads
 * it, and how a model taught by it (and the phrases) reads the generated corpus. Each with
 * naive Bayes, the linear model (text_model.ts) and their half-and-half blend (what the
 * router runs), per language, classifier only (no rules). The corpus's share of templated
 * messages makes "corpus → phrases" the harder, more telling direction.
 *
 * Run: `deno run -A scripts/routing_cross_writer.ts` (~2 min).
 *
 * @module
 */
import { PACKS, UNCLEAR_PHRASES } from "@shared/packs/mod.ts";
import { packIntents, packNeutralNames, packPlaces } from "@shared/registry/pack.ts";
import { intentTopic, trainTextClassifier } from "@shared/agent/intent_classifier.ts";
import { trainTextModel } from "@shared/agent/text_model.ts";
import { loadRoutingCorpus } from "./routing_corpus.ts";
import { ROUTING_MODEL_OPTIONS } from "./train_routing_model.ts";
const topicOf = intentTopic([...packNeutralNames(PACKS), ...packPlaces(PACKS)]);
const intents = [
  ...packIntents(PACKS).flatMap(({ agent, phrases }) =>
    Object.entries(phrases).flatMap(([language, list]) =>
      list.map((text) => ({ text: topicOf(text), label: agent, language }))
    )
  ),
  ...Object.entries(UNCLEAR_PHRASES).flatMap(([language, list]) =>
    list.map((text) => ({ text: topicOf(text), label: "unclear", language }))
  ),
];
const files = await loadRoutingCorpus();
const corpusOf = (handWritten: boolean) =>
  files.filter((f) => f.handWritten === handWritten).flatMap((f) =>
    f.messages.map((text) => ({ text: topicOf(text), label: f.agent, language: f.language }))
  );
const corpus = corpusOf(false);
const written = corpusOf(true);
type S = typeof intents;
function run(train: S, test: S, name: string) {
  const nb = trainTextClassifier(train);
  const lr = trainTextModel(train, ROUTING_MODEL_OPTIONS);
  const blend = (t: string, share: number) => {
    const c = nb.classify(t);
    const p = lr.predict(t);
    const b = new Map<string, number>();
    for (const r of c.ranking) b.set(r.agent, (1 - share) * r.confidence);
    b.set("unclear", (1 - share) * c.unclear);
    for (const q of p.probabilities) b.set(q.label, (b.get(q.label) ?? 0) + share * q.probability);
    return [...b].sort((x, y) => y[1] - x[1])[0][0];
  };
  for (
    const [learner, f] of [["naive Bayes", (t: string) => blend(t, 0)], [
      "linear",
      (t: string) => blend(t, 1),
    ], ["blend 0.5", (t: string) => blend(t, 0.5)]] as const
  ) {
    console.log(
      name.padEnd(27),
      learner.padEnd(12),
      ["en", "rw", "fr"].map((l) => {
        const r = test.filter((x) => x.language === l);
        return (100 * r.filter((x) => f(x.text) === x.label).length / r.length).toFixed(1);
      }).join(" / "),
    );
  }
}
run(intents, corpus, "phrases → corpus");
run(corpus, intents, "corpus → phrases");
if (written.length > 0) {
  run([...corpus, ...written], intents, "corpus + written → phrases");
  run([...intents, ...corpus], written, "phrases + corpus → written");
  run([...intents, ...written], corpus, "phrases + written → corpus");
}
