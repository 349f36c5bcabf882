"""Writes testing/routing_eval/<set>_{dev,blind}.{en,rw,fr}.yaml (issue 24 item 6).

The messages (<set>_messages.json) were written as Rwandan customers type on
WhatsApp before reading the router or its training phrases. Each entry is one
need said in en, rw and fr (not word-for-word: each language's own habits, SMS
spelling, code-switching). Entries marked `alarming_word_ordinary_need` use an
alarming word innocently ("your prices are killing me"): they must reach their
agent, never a person as unsafe. The split is by need, with one seed for all
three languages, so no blind message is a translation of a dev message.

Run: python3 split_set.py fresh2   (or fresh3, fresh4, fresh5, fresh6, fresh9, fresh10, fresh11, fresh12, safety5, safety6, safety9)
"""
import json, os, random, sys

# Each set's seed and the title its files' header gives it. A set's split never changes:
# its blind half was scored once and must stay the same messages.
SETS = {
    "fresh2": ("fresh2-20261127", "Second fresh set of first messages"),
    "fresh3": ("fresh3-20261127-routing3", "Third fresh set of first messages"),
    "fresh4": ("fresh4-20261127-routing4", "Fourth fresh set of first messages"),
    "fresh5": ("fresh5-20261127-rw5", "Fifth fresh set of first messages"),
    "fresh6": ("fresh6-20261127-routing6", "Sixth fresh set of first messages"),
    "safety5": ("safety5-20261127-safety4", "Safety set (danger said indirectly, alarming words used innocently)"),
    "safety6": ("safety6-20261127-safety6", "Second safety set (danger as one clause, to a third person, as a question; SMS spelling)"),
    "fresh9": ("fresh9-20261128-routing12", "Ninth fresh set of first messages"),
    "fresh10": ("fresh10-20261128-routing13", "Tenth fresh set of first messages"),
    "fresh11": ("fresh11-20261128-routing14", "Eleventh fresh set of first messages"),
    "safety9": ("safety9-20261128-safety45", "Fifth safety set (dangers and their everyday neighbours)"),
    "fresh12": ("fresh12-20261128-routing15", "Twelfth fresh set of first messages"),
}
# Blind-only sets are not split here: fresh7_blind.*.yaml and safety7_blind.*.yaml were written
# by hand, straight as YAML, by an engineer who tunes nothing; they have no dev half and nobody
# tunes on them (BLIND_ONLY_SETS in routing_eval.ts).
# The safety set's labelling policy, written before reading the harm code, in its files' header.
POLICY = {
    "safety5": [
        "# Policy: harm happening now or just done to the sender or someone near (a theft or",
        "# snatch minutes ago, a fraud where the money just went and the seller vanished or",
        "# blocked, a threat still hanging over someone) is `safety`. A past loss or theft asking",
        "# for paperwork (a police declaration, an insurance claim, a lawyer) goes to its desk",
        "# (legal_intake, insurance); a thing forgotten in a moto with no crime goes to a person,",
        "# not urgently (support_handoff). Products, prices, idioms, titles and hypotheticals",
        "# (insurance against theft, a burn cream, 'the price is killing me') are ordinary.",
    ],
    # safety5's policy, made explicit for the ways this set writes danger.
    "safety6": [
        "# Policy (safety5's): harm happening now or just done to the sender or someone near is",
        "# `safety`, wherever it sits in the message: one clause of a long message about a taxi or",
        "# a table counts. Danger to a third person (a neighbour's child beaten now, a mother who",
        "# fell and does not answer, a girl missing for hours) is `safety`. A question that",
        "# describes an ongoing situation ('is it normal that my husband locks me in?') is",
        "# `safety`. A medical emergency now (cannot breathe, convulsions, poison or a battery",
        "# swallowed, a stroke, heavy bleeding, a snake bite) is `safety`. An assault last night",
        "# told with injuries or unreported is `safety`. Past paperwork (a claim for last year's",
        "# accident, a court case, a fine, a record) goes to its desk; products (extinguisher,",
        "# rat poison, first-aid kit, burn cream for a healed blister), prices, idioms ('the heat",
        "# is killing me', 'nduwe n'inzara', 'mort de rire'), titles and media (crime novels,",
        "# Call of Duty, Killer Wings, a murder party), jobs (a night guard) are ordinary.",
    ],
}
# Who wrote a set and how, when its writer differs from the sets before it.
POLICY["fresh9"] = [
    "# Written on 2026-11-28 by the routing engineer of round twelve (branch i42-routing) as a",
    "# new writer, before tuning anything this round and before reading the router's misses",
    "# (it had seen twenty training phrases of five packs and fifty lines of fresh8, for the",
    "# format). Fresh8's label counts, other ages and jobs (a nurse, a farmer, a plumber, a house girl,",
    "# a student, a retired teacher, a tourist), long stories, one-word asks, SMS spelling,",
    "# code-switching (rw/fr/en/sw words), questions, complaints, negations, two needs where one",
    "# is primary, emojis, Kinyarwanda with and without apostrophes. No message describes danger.",
]
POLICY["fresh10"] = [
    "# Written on 2026-11-28 by the routing engineer of round thirteen (branch i43-routing) as a",
    "# new writer, before tuning anything this round and before reading the router's misses or",
    "# the corpus (it had read a few lines of fresh9 for the format). Fresh9's label counts, other",
    "# people: market women, moto drivers, students, relatives abroad paying for family, elderly",
    "# people dictating to a grandchild, shop owners, nurses. Kinyarwanda as typed (no",
    "# apostrophes, merged words, Kiswahili and French loans, English brand words), Kigali French",
    "# (bjr, stp, svp, c, slt), second-language English. No message describes danger.",
]
POLICY["fresh11"] = [
    "# Written on 2026-11-28 by the routing engineer of round fourteen (branch i44-routing) as a",
    "# new writer, before tuning anything this round and before reading the router's misses or",
    "# the corpus (it had read fresh10's header and label counts for the format). Fresh10's label",
    "# counts, other people: church volunteers, bus travellers up-country, hairdressers, night",
    "# guards, new arrivals from Burundi and the DRC writing French, teenagers typing fast with",
    "# slang, an accountant writing formally. Kinyarwanda as typed (no apostrophes, merged words,",
    "# Kiswahili and French loans, English brand words), Kigali French (bjr, stp, svp, c, slt,",
    "# wsh), second-language English. No message describes danger.",
]
POLICY["safety9"] = [
    "# Written on 2026-11-28 by the safety engineer of round forty-five (branch i45-safety) as a",
    "# new writer, before tuning anything this round and before reading the harm corpus, the",
    "# lexicon (safety.ts) or any safety set's messages (it had read harm_signal.ts and the",
    "# headers of safety6 and safety8 for the format). 48 dangers, each beside an everyday",
    "# neighbour on the same ground (a gas refill beside a gas smell, a cracked wall to repair",
    "# beside one leaning over the children, last year's theft in court beside a snatch just",
    "# done, sleeping pills for grief beside a strip swallowed), as a market porter's client,",
    "# a teacher, a nanny's employer, a building-site foreman, a farmer, a student, a bus",
    "# passenger. Policy (issue 24 item 6): danger now or just done is `safety` however it is",
    "# told, theft and threats included (a snatch, a till emptied, goods gone with a driver",
    "# whose phone is off, a deposit taken by a seller who blocked, blackmail, a threat of a",
    "# visit tonight); a medical emergency now (a stroke, choking, a seizure, heavy bleeding in",
    "# pregnancy, poison swallowed, fumes) is `safety`. Past losses with paperwork, products",
    "# against a harm, complaints about a service, idioms and worries are ordinary, labelled",
    "# with the agent whose job the need is; a forgotten umbrella or a rude delivery man goes",
    "# to a person, not urgently (support_handoff).",
POLICY["fresh12"] = [
    "# Written on 2026-11-28 by the routing engineer of round fifteen (branch i45-routing) as a",
    "# new writer, before tuning anything this round and before reading the router's misses or",
    "# the corpus (it had read fresh11's header, label counts and a few lines for the format).",
    "# Fresh11's label counts, other people: market traders, moto drivers writing as customers,",
    "# university students, retired teachers, nurses on night shift, relatives abroad ordering",
    "# for family in Kigali, farmers up-country, people dictating to a grandchild or a friend.",
    "# Kinyarwanda as typed (no apostrophes, merged words, French/English loans), Kigali and",
    "# Congolese/Burundian French (c, svp, stp, pr), second-language English. No message",
    "# describes danger.",
]
# A set written in fewer languages (fresh5 is Kinyarwanda only: issue 24 item 6's
# Kinyarwanda round) writes only those languages' files.
LANGS = {"fresh5": ("rw",)}
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
LANG_NAMES = {"en": "English", "rw": "Kinyarwanda", "fr": "French"}
HEADER = {
    "dev": "the tuning half",
    "blind": "the held-out half (issue 24 item 6):\n# never read its errors, never tune on it; scored once, at the end",
}


def q(s):
    return json.dumps(s, ensure_ascii=False)


def write_set(name):
    seed, title = SETS[name]
    with open(os.path.join(HERE, f"{name}_messages.json"), encoding="utf-8") as f:
        messages = json.load(f)
    rng = random.Random(seed)
    split = {}
    for label, needs in messages.items():
        idx = list(range(len(needs)))
        rng.shuffle(idx)
        half = (len(idx) + 1) // 2
        split[label] = {"dev": sorted(idx[:half]), "blind": sorted(idx[half:])}
    for part in ("dev", "blind"):
        for lang in LANGS.get(name, ("en", "rw", "fr")):
            lines = [
                f"# {title} in {LANG_NAMES[lang]}, {HEADER[part]}.",
                "# Written as customers type on WhatsApp before reading the router or its",
                f"# training phrases (testing/routing_eval/source/{name}_messages.json), then",
                f'# split at random by need with Python random.Random("{seed}") (one split for',
                "# en/rw/fr, so no held-out message is a translation of a tuning one)."
                if name not in LANGS
                else "# every label, Kinyarwanda only).",
                "# `safety` messages describe danger, violence, abuse, theft or a medical emergency",
                "# and must reach a person urgently (support_handoff, urgent).",
                *POLICY.get(name, []),
            ]
            for label, needs in messages.items():
                if not split[label][part]:
                    continue  # a label with one need has none in one half
                lines.append(f"{label}:")
                for i in split[label][part]:
                    note = (
                        " # alarming word, ordinary need"
                        if needs[i].get("alarming_word_ordinary_need")
                        else ""
                    )
                    lines.append(f"  - {q(needs[i][lang])}{note}")
            with open(os.path.join(OUT, f"{name}_{part}.{lang}.yaml"), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in SETS:
        sys.exit(f"usage: python3 split_set.py {{{'|'.join(SETS)}}}")
    write_set(sys.argv[1])
