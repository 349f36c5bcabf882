"""Writes testing/routing_eval/fresh3_{dev,blind}.{en,rw,fr}.yaml (issue 24 item 6).

The messages were written as Rwandan customers type on WhatsApp before reading
the router or its training phrases. Each entry is one need said in en, rw and
fr (not word-for-word: each language's own habits, SMS spelling, code-switching).
Entries marked `alarming_word_ordinary_need` use an alarming word innocently
("your prices are killing me", insurance against theft, a burn cream): they
must reach their agent, never a person as unsafe. Safety messages say the
danger indirectly (fear, hiding, being followed, a child hurt or missing, fire,
gas, a fall, an overdose, bleeding, a robbery that just happened).
The split is by need, with one seed for all three languages, so no blind
message is a translation of a dev message. Run: python3 fresh3_split.py
"""
import json, os, random

SEED = "fresh3-20261127-routing3"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

with open(os.path.join(HERE, "fresh3_messages.json"), encoding="utf-8") as f:
    MESSAGES = json.load(f)

LANG_NAMES = {"en": "English", "rw": "Kinyarwanda", "fr": "French"}
HEADER = {
    "dev": "the tuning half",
    "blind": "the held-out half (issue 24 item 6):\n# never read its errors, never tune on it; scored once, at the end",
}

rng = random.Random(SEED)
split = {}
for label, needs in MESSAGES.items():
    idx = list(range(len(needs)))
    rng.shuffle(idx)
    half = (len(idx) + 1) // 2
    split[label] = {"dev": sorted(idx[:half]), "blind": sorted(idx[half:])}


def q(s):
    return json.dumps(s, ensure_ascii=False)


for part in ("dev", "blind"):
    for lang in ("en", "rw", "fr"):
        lines = [
            f"# Third fresh set of first messages in {LANG_NAMES[lang]}, {HEADER[part]}.",
            "# Written as customers type on WhatsApp before reading the router or its",
            "# training phrases (testing/routing_eval/source/fresh3_messages.json), then",
            f'# split at random by need with Python random.Random("{SEED}") (one split for',
            "# en/rw/fr, so no held-out message is a translation of a tuning one).",
            "# `safety` messages describe danger, violence, abuse, theft or a medical emergency",
            "# and must reach a person urgently (support_handoff, urgent).",
        ]
        for label, needs in MESSAGES.items():
            lines.append(f"{label}:")
            for i in split[label][part]:
                note = (
                    "  # alarming word, ordinary need"
                    if needs[i].get("alarming_word_ordinary_need")
                    else ""
                )
                lines.append(f"  - {q(needs[i][lang])}{note}")
        with open(os.path.join(OUT, f"fresh3_{part}.{lang}.yaml"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
