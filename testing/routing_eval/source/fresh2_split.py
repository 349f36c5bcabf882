"""Writes testing/routing_eval/fresh2_{dev,blind}.{en,rw,fr}.yaml (issue 24 item 6).

The messages were written as Rwandan customers type on WhatsApp before reading
the router or its training phrases. Each entry is one need said in en, rw and
fr (not word-for-word: each language's own habits, SMS spelling, code-switching).
The split is by need, with one seed for all three languages, so no blind
message is a translation of a dev message. Run: python3 fresh2_split.py
"""
import json, os, random

SEED = "fresh2-20261127"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)

with open(os.path.join(HERE, "fresh2_messages.json"), encoding="utf-8") as f:
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
            f"# Second fresh set of first messages in {LANG_NAMES[lang]}, {HEADER[part]}.",
            "# Written as customers type on WhatsApp before reading the router or its",
            "# training phrases (testing/routing_eval/source/fresh2_messages.json), then",
            f'# split at random by need with Python random.Random("{SEED}") (one split for',
            "# en/rw/fr, so no held-out message is a translation of a tuning one).",
            "# `safety` messages describe danger, violence, abuse, theft or a medical emergency",
            "# and must reach a person urgently (support_handoff, urgent).",
        ]
        for label, needs in MESSAGES.items():
            lines.append(f"{label}:")
            for i in split[label][part]:
                lines.append(f"  - {q(needs[i][lang])}")
        with open(os.path.join(OUT, f"fresh2_{part}.{lang}.yaml"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
