/**
 * Opening hours asked about and told, in en/rw/fr: "are you open on Sunday?", « vous ouvrez à
 * quelle heure ? », "mufungura saa ngahe?". The hours are data (each place's weekly rows, in
 * local time); this module only reads the question and words the answer.
 *
 * @module
 */
import { type Language, phraseBook } from "./language.ts";

// Hours are kept in Kigali's local time (the venue tables' convention: UTC+2, no DST).
const KIGALI_OFFSET_MS = 2 * 3600_000;

/** ISO weekday (1 = Monday) and minute of day on the Kigali clock. */
export function kigaliClock(at: Date): { weekday: number; minute: number } {
  const local = new Date(at.getTime() + KIGALI_OFFSET_MS);
  return {
    weekday: ((local.getUTCDay() + 6) % 7) + 1,
    minute: local.getUTCHours() * 60 + local.getUTCMinutes(),
  };
}

// Asking when a place opens or closes, or whether it is open (a day or "now" with it or not).
const ASKS_HOURS = new RegExp(
  [
    // en
    String.raw`\b(?:opening|closing|business|working|office|shop|store)\s+(?:hours|times?)\b`,
    String.raw`\b(?:are|r)\s+(?:you|u|they)\s+(?:still\s+)?(?:open|closed)\b`,
    String.raw`\b(?:is\s+(?:it|the\s+\w+)\s+)(?:open|closed)\b`,
    String
      .raw`\b(?:what\s+time|when)\s+(?:do|does|will|are|r)\b.*\b(?:open|close|closing|opening)\b`,
    String.raw`\b(?:open|closed?)\s+(?:on|today|tomorrow|now|at\s+the\s+weekend|this)\b`,
    String.raw`\byour\s+hours\b`,
    // fr
    String.raw`\b(?:vous\s+)?(?:ouvrez|fermez)\b`,
    String.raw`\b(?:horaires?|heures?\s+d['’ ]?ouverture)\b`,
    String
      .raw`\b(?:(?:c['’ ]?est|êtes[- ]vous|etes[- ]vous)\s+)?(?:ouvert|fermé|ferme)s?\s+(?:le|ce|aujourd|demain|maintenant|dimanche|samedi)\b`,
    String.raw`\b(?:êtes|etes)[- ]vous\s+(?:ouverts?|fermés?)\b`,
    // rw: fungura / kingura (open), funga / kinga (close), amasaha (hours), murakora (you work)
    String.raw`\b(?:mu|ba|ira|bira|ura)?(?:fungura|kingura|funga|kinga)\b`,
    // "murakora" (you work) only with a day, a holiday or an hour: "mukora delivery?" asks a
    // service; "mukora ku munsi mukuru w'intwari?" asks the hours.
    String
      .raw`\bmu(?:ra)?kora\b.*\b(?:saa|cyumweru|kuwa|ku\s+wa|uyu\s+munsi|ejo|u?munsi\s+mukuru|i?minsi\s+mikuru|noheli|ubunani|pasika|kwibohora|umuganura)\b`,
    String.raw`\bamasaha\s+(?:y['’ ]?\s*)?(?:akazi|mufungura|mukingura|mukora)\b`,
  ].join("|"),
  "i",
);

/** Whether `text` asks about opening hours (when a place opens or closes, or whether it is open). */
export function asksOpeningHours(text: string): boolean {
  return ASKS_HOURS.test(text);
}

// ISO weekdays (1 = Monday … 7 = Sunday) by the words that name them.
const WEEKDAY_WORDS: ReadonlyArray<[RegExp, number]> = [
  [/\b(?:monday|mon|lundi|kuwa\s+mbere|ku\s+wa\s+mbere)\b/i, 1],
  [/\b(?:tuesday|tue|mardi|kuwa\s+kabiri|ku\s+wa\s+kabiri)\b/i, 2],
  [/\b(?:wednesday|wed|mercredi|kuwa\s+gatatu|ku\s+wa\s+gatatu)\b/i, 3],
  [/\b(?:thursday|thu|jeudi|kuwa\s+kane|ku\s+wa\s+kane)\b/i, 4],
  [/\b(?:friday|fri|vendredi|kuwa\s+gatanu|ku\s+wa\s+gatanu)\b/i, 5],
  [/\b(?:saturday|sat|samedi|kuwa\s+gatandatu|ku\s+wa\s+gatandatu)\b/i, 6],
  [/\b(?:sunday|sun|dimanche|ku\s+cyumweru|cyumweru)\b/i, 7],
];

/** A place's opening on one weekday, in local time ("08:00", "18:00"; "24:00" is midnight). */
export interface OpeningRow {
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: number;
  opens: string;
  closes: string;
}

/** A place and its weekly hours (no rows: none on record). */
export interface PlaceHours {
  name: string;
  hours: readonly OpeningRow[];
}

/**
 * The ISO weekday (1 = Monday … 7 = Sunday) a text names in English, Kinyarwanda or French
 * ("samedi", "ku wa gatandatu", "sat"), or null: the one table of weekday words that hours
 * questions and table bookings read.
 */
export function weekdayNamed(text: string): number | null {
  return WEEKDAY_WORDS.find(([words]) => words.test(text))?.[1] ?? null;
}

/**
 * The weekday `text` names, relative to `today` (ISO weekday) for "today" and "tomorrow", or null
 * when it names none.
 */
export function askedWeekday(text: string, today: number): number | null {
  if (/\b(?:tomorrow|demain|ejo)\b/i.test(text)) return (today % 7) + 1;
  if (/\b(?:today|aujourd['’ ]?hui|uyu\s+munsi)\b/i.test(text)) return today;
  return weekdayNamed(text);
}

// A public holiday named ("Christmas", « le 1er janvier », "ku munsi w'intwari"): the hours on
// record are a week's, never a holiday's.
const HOLIDAY =
  /\b(?:holidays?|christmas|xmas|new\s+year|easter|good\s+friday|boxing\s+day|heroes?\s+day|liberation\s+day|independence\s+day|f[ée]ri[ée]s?|no[eë]l|nouvel\s+an|p[âa]ques|toussaint|1(?:er)?\s+janvier|premier\s+janvier|25\s+d[ée]cembre|january\s+1(?:st)?|1(?:st)?\s+(?:of\s+)?january|december\s+25(?:th)?|25(?:th)?\s+(?:of\s+)?december|u?munsi\s+mukuru|i?minsi\s+mikuru|noheli|ubunani|pasika|intwari|kwibohora|umuganura|1\s+mutarama|25\s+ukuboza)\b/i;

/** Whether `text` asks about a public holiday (whose hours no place has on record). */
export function asksHoliday(text: string): boolean {
  return HOLIDAY.test(text);
}

const say = phraseBook({
  holidayUnknown: {
    en:
      "Hours on public holidays are not on record, so here are the usual hours; a person from the team can confirm.",
    rw:
      "Amasaha yo ku minsi mikuru ntayo dufite, dore amasaha asanzwe; umuntu wo mu itsinda yabikwemeza.",
    fr:
      "Les horaires des jours fériés ne sont pas enregistrés : voici les horaires habituels ; une personne de l'équipe peut vous le confirmer.",
  },
  days: {
    en: "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday",
    rw: "kuwa mbere|kuwa kabiri|kuwa gatatu|kuwa kane|kuwa gatanu|kuwa gatandatu|ku cyumweru",
    fr: "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche",
  },
  openOn: {
    en: "{place} is open on {day} from {opens} to {closes}.",
    rw: "{place} irakora {day} kuva saa {opens} kugeza saa {closes}.",
    fr: "{place} est ouvert le {day} de {opens} à {closes}.",
  },
  closedOn: {
    en: "{place} is closed on {day}.",
    rw: "{place} ntikora {day}.",
    fr: "{place} est fermé le {day}.",
  },
  opensNext: {
    en: "It opens next on {day} at {opens}.",
    rw: "Izongera gufungura {day} saa {opens}.",
    fr: "Il rouvre le {day} à {opens}.",
  },
  week: {
    en: "{place} opening hours:",
    rw: "Amasaha {place} ikoraho:",
    fr: "Horaires de {place} :",
  },
  closedDay: { en: "closed", rw: "irafunze", fr: "fermé" },
  openNow: {
    en: "Open now, until {closes}.",
    rw: "Ubu irafunguye, kugeza saa {closes}.",
    fr: "Ouvert maintenant, jusqu'à {closes}.",
  },
  closedNowToday: {
    en: "Closed now; opens today at {opens}.",
    rw: "Ubu irafunze; irafungura uyu munsi saa {opens}.",
    fr: "Fermé maintenant ; ouvre aujourd'hui à {opens}.",
  },
  closedNow: {
    en: "Closed now; opens on {day} at {opens}.",
    rw: "Ubu irafunze; izafungura {day} saa {opens}.",
    fr: "Fermé maintenant ; ouvre le {day} à {opens}.",
  },
  unknown: {
    en: "I do not have {place}'s opening hours. A person from our team can tell you.",
    rw: "Nta masaha {place} ikoraho mfite. Umuntu wo mu itsinda ryacu arabikubwira.",
    fr: "Je n'ai pas les horaires de {place}. Une personne de notre équipe peut vous renseigner.",
  },
});

function dayName(weekday: number, language: Language): string {
  return say("days", language).split("|")[weekday - 1];
}

const hhmm = (time: string) => time.slice(0, 5);

/**
 * The answer to an opening-hours question about `places`, in `language`: the day asked, or the
 * week with whether each place is open `now` (local time: `weekday` and `minutes` since midnight).
 */
export function hoursAnswer(options: {
  places: readonly PlaceHours[];
  language: Language;
  now: { weekday: number; minutes: number };
  text: string;
}): string {
  const { places, language, now } = options;
  const asked = askedWeekday(options.text, now.weekday);
  const holiday = asksHoliday(options.text) ? `${say("holidayUnknown", language)}\n\n` : "";
  return holiday + places.map((place) => {
    if (!place.hours.length) return say("unknown", language, { place: place.name });
    const on = (weekday: number) =>
      place.hours.filter((row) => row.weekday === weekday)
        .sort((a, b) => a.opens.localeCompare(b.opens));
    if (asked !== null) {
      const rows = on(asked);
      const day = dayName(asked, language);
      return rows.length
        ? rows.map((row) =>
          say("openOn", language, {
            place: place.name,
            day,
            opens: hhmm(row.opens),
            closes: hhmm(row.closes),
          })
        ).join("\n")
        : [
          say("closedOn", language, { place: place.name, day }),
          opensNextLine(place, asked, language),
        ]
          .filter(Boolean).join(" ");
    }
    // Days in a row with the same hours share a line ("Monday–Friday: 08:00–18:00").
    const times = [1, 2, 3, 4, 5, 6, 7].map((weekday) => {
      const rows = on(weekday);
      return rows.length
        ? rows.map((row) => `${hhmm(row.opens)}–${hhmm(row.closes)}`).join(", ")
        : say("closedDay", language);
    });
    const week: string[] = [];
    for (let first = 0; first < 7;) {
      let last = first;
      while (last + 1 < 7 && times[last + 1] === times[first]) last++;
      const days = first === last
        ? dayName(first + 1, language)
        : `${dayName(first + 1, language)}–${dayName(last + 1, language)}`;
      week.push(`• ${days}${language === "fr" ? " :" : ":"} ${times[first]}`);
      first = last + 1;
    }
    return [say("week", language, { place: place.name }), ...week, nowLine(place, language, now)]
      .join("\n");
  }).join("\n\n");
}

// Open now and until when, or when it opens next (today later, or a later day).
function nowLine(
  place: PlaceHours,
  language: Language,
  now: { weekday: number; minutes: number },
): string {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const today = place.hours.filter((row) => row.weekday === now.weekday);
  const open = today.find((row) =>
    minutes(row.opens) <= now.minutes && now.minutes < minutes(row.closes)
  );
  if (open) return say("openNow", language, { closes: hhmm(open.closes) });
  const later = today.filter((row) => minutes(row.opens) > now.minutes)
    .sort((a, b) => a.opens.localeCompare(b.opens))[0];
  if (later) return say("closedNowToday", language, { opens: hhmm(later.opens) });
  const next = firstOpeningAfter(place, now.weekday);
  return next
    ? say("closedNow", language, { day: dayName(next.weekday, language), opens: next.opens })
    : "";
}

// A day it is closed is told with the day it opens next, so the person knows when to come.
function opensNextLine(place: PlaceHours, closedDay: number, language: Language): string {
  const next = firstOpeningAfter(place, closedDay);
  return next
    ? say("opensNext", language, { day: dayName(next.weekday, language), opens: next.opens })
    : "";
}

// The first day after `weekday` (within the week) with hours, and when it opens that day.
function firstOpeningAfter(
  place: PlaceHours,
  weekday: number,
): { weekday: number; opens: string } | null {
  for (let ahead = 1; ahead <= 7; ahead++) {
    const day = ((weekday - 1 + ahead) % 7) + 1;
    const first = place.hours.filter((row) => row.weekday === day)
      .sort((a, b) => a.opens.localeCompare(b.opens))[0];
    if (first) return { weekday: day, opens: hhmm(first.opens) };
  }
  return null;
}
