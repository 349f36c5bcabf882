import { clausesOf, harmFlags, loadHarmSignal } from "@shared/agent/harm_signal.ts";
import { loadHarmTraining } from "@shared/agent/harm_training.ts";
const s = loadHarmSignal();
const c = await loadHarmTraining();
const best = (t: string) => { const p = clausesOf(t).filter((x) => x.split(/\s+/).length >= 4); return Math.max(s.score(t), ...(p.length > 1 ? p.map(s.score) : [])); };
for (const [lang, list] of Object.entries(c.ordinary)) for (const t of list ?? []) {
  if (!harmFlags(t, s.score) && harmFlags(t, best)) {
    const top = clausesOf(t).sort((a, b) => s.score(b) - s.score(a))[0];
    console.log(`${lang} ${s.score(t).toFixed(2)} [${top} ${s.score(top).toFixed(2)}] ${t}`);
  }
}
for (const t of ["the gas exploded in the restaurant", "le gaz a explosé dans le restaurant"]) console.log(clausesOf(t).length, t);
