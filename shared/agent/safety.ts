/**
 * Whether a message describes danger, violence or theft, in any wording, in
 * English, Kinyarwanda or French: such a message goes to a person, urgently,
 * whatever topic it also sounds like ("my husband hit me" is no legal
 * question, "the moto guy drove off with my bag" no ride).
 *
 * Favours recall: missing one costs a person in danger, a false alarm costs a
 * member of staff a minute. Three kinds of evidence, each kept narrow enough
 * that the ordinary held-out sets raise no alarm:
 * - roots that only ever mean harm ("stole", "arnaq", "kubit", "ubwoba"),
 * - a harmful verb with a person as its object ("hit me", "me frappe"),
 * - a situation said without any harm word: someone leaving *with* your
 *   things, a person missing, a fire, a crash with an injury, someone
 *   pretending to be staff.
 *
 * Everything is matched on {@linkcode normalizeText}'s form (no accents,
 * apostrophes as spaces, doubled letters as one: "battue" is "batue").
 *
 * @module
 */
import { expandShorthands, normalizeText } from "./text_features.ts";

// Patterns are written with their spelling and read normalised text, where doubled letters
// are single ("attestation" reads "atestation"): the same collapse is made on each pattern.
function singleLetters(pattern: RegExp): RegExp {
  return new RegExp(pattern.source.replace(/([a-z])\1+/g, "$1"), pattern.flags);
}

/** What kind of harm a message describes. */
export type SafetyConcern = "violence" | "theft" | "danger";

// Roots that mean harm where they start a word (English, French).
const ROOTS_AT_START: Record<SafetyConcern, readonly string[]> = {
  violence: [
    // English
    "assault",
    "attacked",
    "beaten",
    "punched",
    "slapped",
    "stabbed",
    "strangl",
    "rape",
    "raped",
    "molest",
    "harass",
    "abuse",
    "abusing",
    "violence",
    "violent",
    "threaten",
    "murder",
    "kidnap",
    "hostage",
    "weapon",
    "armed",
    "gunman",
    "gunmen",
    "gunshot",
    "threat",
    "drugged",
    "bully",
    "bullied",
    // French
    "agress",
    "frappe",
    "frapper",
    "frappé",
    "gifl",
    "cogn",
    "tabass",
    "étrangl",
    "poignard",
    "menac",
    "viol",
    "violé",
    "harcel",
    "séquestr",
    "enferm",
    "chantage",
  ],
  theft: [
    // English
    "stole",
    "stolen",
    "steal",
    "robbed",
    "robber",
    "robbery",
    "thief",
    "thieves",
    "theft",
    "burgl",
    "pickpocket",
    "snatch",
    "mugged",
    "scam",
    "fraud",
    "swindl",
    "extort",
    "blackmail",
    "hacked",
    // French
    "volé",
    "voleur",
    "voleurs",
    "voler",
    "dérob",
    "arrach",
    "cambriol",
    "escroq",
    "arnaq",
    "effraction",
    "piraté",
  ],
  danger: [
    // English
    "emergency",
    "suicide",
    "unsafe",
    "danger",
    "scared",
    "afraid",
    "terrified",
    "bleeding",
    "injured",
    "stalk",
    "collapsed",
    "spiked",
    "unconscious",
    "overdose",
    "poisoned",
    "trapped",
    // French
    "urgence",
    "au secours",
    "peur",
    "blessé",
    "blessée",
    "kidnapp",
    "inconscient",
    "évanoui",
    "empoisonn",
    "crise cardiaque",
  ],
};

// Kinyarwanda roots, which match inside a word: the language prefixes the subject,
// tense and object ("yankubise", "banyambuye", "ndakomeretse").
const ROOTS_INSIDE: Record<SafetyConcern, readonly string[]> = {
  violence: [
    "kubit",
    "kubis",
    "hohoter",
    "ku ngufu",
    "iterabwoba",
    "girira nabi",
    "teye icyuma",
    "nkozeho",
    "nkoraho",
    "nyica",
    "twica",
    "bamwishe",
    "yamwishe",
    "urugomo",
    "fungiranye",
    // Locked in, passive ("afungiranywe n'umugabo we"); keys locked in a car take the active.
    "fungiranyw",
    "ranteye",
    "imbunda",
    "intwaro",
    "toteza",
    "totezw",
    "kangish",
    "abagizi ba nabi",
    "umugizi wa nabi",
  ],
  theft: [
    "ubujura",
    "umujura",
    "abajura",
    "ubwambuzi",
    "nyambu",
    "ambuwe",
    "uburiganya",
    "tekamutwe",
    // kuriganya (cheat): cheated of something ("yarandiganyije", "bamuriganyije", "yariganijwe").
    "riganyij",
    "diganyij",
    "riganijw",
    "kwiba",
    "kwibwa",
    "yiyita",
    "biyita",
  ],
  danger: [
    "ubwoba",
    "byihutirwa",
    "ubutabazi",
    "tabara",
    "tabare",
    "va amaraso",
    "komerek",
    "komerets",
    "irengero",
    "inkongi",
    "gonze",
    "gonzwe",
    "nkurikir",
    "nkurikiy",
    "dukurikir",
    "dukurikiy",
    "shimut",
    "shimus",
    "ntahumeka",
    "yataye ubwenge",
    "yarozwe",
  ],
};

// Kinyarwanda stems that begin with a harm root's letters but are other verbs and nouns:
// kwibaza (wonder), kwibanda (focus on), kwibagirwa (forget), kwibaruka (give birth) are no
// kwiba (steal); kwicara and kwicaza (sit, seat: "twicaye") no kwica (kill); the applicative of
// gukurikirana (follow up on a file for someone: "mwankurikiranira dosiye") no following; the
// noun intabaza (an alarm, the device) no cry for help. A word built on such a stem is read
// for that stem, whatever its prefixes, so the root inside it does not count.
// kwibaruza (register: "kwibaruza imodoka") and kubarura (count) are no kwiba either.
const RW_LOOKALIKE_STEM =
  /(?:ibaz|iband|ibagir|ibagiw|ibaruk|ibaruz|ibarur|icar|icay|icaz|icaj|kurikiranir|kurikiraniy|^intabaz)/;

// English and French words that begin with a harm root's letters but are other words (normalised):
// "rappelez-moi" (call me back) and "rapeseed" are no rape, "cognac" and "cognitive" no "cogner"
// (hit), "arachides" (peanuts) no "arracher" (snatch). A word so begun is read for that word.
const LOOKALIKE_START = /^(?:rapel|rapes|cognac|cognit|arachid)/;

// Words that look like a root but mean no harm (normalised).
const SAFE_WORDS = new Set(
  // "blessed" reads "blesed", the start of French "blessé" ("have a blessed day").
  ["ikubitiro", "violet", "violette", "violon", "violation", "cogner", "blessed", "blessing"]
    .map(normalizeText),
);

const KIN =
  "(?:son|daughter|child|kid|kids|baby|wife|husband|mother|mum|mom|father|dad|brother|sister|girl|boy|friend|nephew|niece|cousin|aunt|uncle|grandma|grandmother|granny|grandpa|grandfather|neighbour|neighbor|girlfriend|boyfriend|partner|toddler|little one|year old|grandson|granddaughter)";
// Harm done to someone else counts as much as to the sender ("he beats his wife").
const PERSON =
  `(?:me|us|him|her|them|my \\w+|our \\w+|the (?:kids|children|child|baby)|(?:his|her|their) ${KIN})`;

// Situations and harmful verbs with a person as their object, on the padded
// normalised text (written with their spelling; doubled letters are made
// single below, as normalizeText does: "disappeared" reads "disapeared").
const PATTERNS: ReadonlyArray<[SafetyConcern, RegExp]> = ([
  // English: violence done to someone.
  [
    "violence",
    new RegExp(
      ` (?:hit|hits|hiting|beat|beats|beating|punch\\w*|slap\\w*|kick\\w*|chok\\w*|stab\\w*|hurt|hurts|hurting|burnt|burned) ${PERSON} (?!out )`,
    ),
  ],
  // Thrown: a person, not a parcel ("threw my parcel over the gate" is a complaint).
  [
    "violence",
    new RegExp(
      ` (?:threw|throws|thrown) (?:me|us|him|her|them|(?:my|our|his|her|their) ${KIN}|the (?:kids|children|child|baby))\\b`,
    ),
  ],
  [
    "violence",
    / (?:touch\w*|grab\w*|grop\w*|lock\w*|folow\w*|chas\w*|kil|kils|kiled|kiling) (?:me|us|him|her)(?: |$)/,
  ],
  [
    "violence",
    / (?:was|got|get|been|being|am|is|are|were) (?:hit|beaten|attacked|robed|stabed|raped|abused|kidnaped|knocked down|run over|folowed|threatened|muged|shot|assaulted|molested|harased|scamed|coned|cheated|duped|tricked|burned)\b/,
  ],
  [
    "violence",
    / (?:wil|going to|gona|wants to|threatens to|threatened to) (?:kil|hurt|beat|burn|stab|shoot|rape|atack)\b/,
  ],
  // English: weapons held, a person kept against their will, blackmail.
  [
    "violence",
    // A tool for the knife ("a knife sharpener", "a knife set") is a product.
    / (?:with|has|had|have|holding|holds|pulled|carrying|carries|drew) (?:a|an|his|her|their) (?:knife|gun|machete|pistol|rifle|panga|weapon|blade)\b(?! (?:sharpener|set|block|holder|stand|case|licence|license|shop)\b)/,
  ],
  [
    "danger",
    / (?:won t|wont|wil not|refuses to|refused to|doesn t|does not|didn t|did not) let (?:me|us) (?:get out|go|leave|out)\b/,
  ],
  ["danger", / driv\w*\b.* (?:won t|wont|refuses to|refused to|wil not) stop\b/],
  [
    "violence",
    / (?:wil|gona|going to|threaten\w* to) (?:post|share|leak|publish|send) my (?:photos|pictures|pics|nudes|videos)\b/,
  ],
  ["violence", / (?:leak|leaked) my\b/],
  ["danger", / (?:shooting|gunfire|shots fired)\b(?! (?:a |the )?(?:video|photo|film|ad|clip))/],
  ["theft", / without my (?:permission|consent|knowledge|authorization)\b/],
  ["violence", / knows where (?:i|we) live\b/],
  ["danger", / (?:watching|watches|watched) (?:my|our) (?:house|home|place|room|shop)\b/],
  ["danger", / (?:not|dont|don t) (?:feel )?safe\b/],
  // Someone else not breathing ("i can't breathe well at night" asks for an inhaler).
  ["danger", / (?:not|isn t|isnt|stopped|no longer) breathing\b/],
  ["danger", / (?:having|had|has) a heart attack\b/],
  ["violence", / forced (?:me|her|him|us|them|my \w+)\b/],
  // English: theft said as a situation.
  [
    "theft",
    / (?:left|went|ran|drove|rode|gone|run|took of|disappeared|vanished|escaped|fled|made of)(?: of| away)? with (?:my|our|the|his|her|al)\b/,
  ],
  // "he left with it": the thing was named before; someone else went off with it (the
  // person leaving with their own purchase, "I left with it", is no theft).
  [
    "theft",
    / (?:he|she|they|driver|rider|motari|man|woman|guy)(?: \w+)? (?:left|ran|drove|rode|disappeared|vanished|escaped|fled|made of|took of)(?: of| away)? with (?:it|them)\b/,
  ],
  [
    "theft",
    / (?:took|taken|grabed|snatched|got) (?:my|our|the|al)(?: \w+){1,3} (?:and|then) (?:ran|left|disappeared|vanished|fled|blocked|switched|is not|isn t|never|wont|won t)\b/,
  ],
  ["theft", / (?:emptied|drained|wiped) (?:my|our)\b/],
  // Strangers taking something ("two guys on a moto took my handbag"; "took my order" is service).
  [
    "theft",
    / (?:guys|men|boys|people|someone|somebody|stranger|strangers|gang|thieves|man|woman)\b(?: \w+){0,4} (?:took|grabbed|snatched|pulled) (?:my|our) (?!order|reservation|details|number|name|call|photo|measurements)/,
  ],
  ["theft", / (?:fake|false|bogus) (?:agent|police|policeman|officer|staf|mtn|airtel|bank)\b/],
  // Someone at the door or hiding near the house.
  [
    "danger",
    / (?:trying|tries|tried) to (?:open|break|get into|enter|force) (?:my|our|the) (?:door|gate|house|window|room|car)\b/,
  ],
  ["danger", / (?:hiding|lurking) (?:outside|near|behind|in|at)\b/],
  ["violence", / finish (?:me|us|him|her)(?: of)?\b/],
  [
    "theft",
    / paid\b.* (?:he|she|they)(?: \w+)? (?:vanished|disappeared|ran away|ran of|blocked me|switched of|stopped answering)\b/,
  ],
  // Something of the sender's is with someone who no longer answers.
  [
    "theft",
    / (?:package|parcel|bag|luggage|phone|money|goods|items|things|purse|wallet)\b.* (?:not answering|isn t answering|won t answer|doesn t answer|stopped answering|phone is off|switched off|turned off|blocked me|unreachable)\b/,
  ],
  [
    "theft",
    / (?:took|taken|stolen|picked|pinched|grabbed) (?:\w+ ){0,2}(?:from|out of) (?:my|the|our) (?:pocket|bag|handbag|purse|car|house|room|shop)\b/,
  ],
  [
    "theft",
    / (?:took|taken|seized|kept|keeps) (?:al )?(?:my|our) (?:things|belongings|stuff|property|bags|luggage|id|passport)\b/,
  ],
  [
    "theft",
    / (?:took|stole|withdrew|removed|taken) (?:al )?(?:the |my )?money (?:from|out of|of) my\b/,
  ],
  ["theft", / (?:pretending|pretended|posing|claiming) (?:to be|as)\b/],
  ["theft", / (?:broke|broken|break|breaking) (?:into|in)\b/],
  // English: danger.
  [
    "danger",
    new RegExp(
      ` ${KIN}(?: \\w+){0,4} (?:is missing|went missing|been missing|missing since|has not come|hasn t come|has not come back|not come home|never came|disappeared|can t be found|cannot be found|didn t come|did not come|didn t return|did not return|hasn t returned|has not returned|hasn t been seen|has not been seen|not been seen|not seen since)`,
    ),
  ],
  ["danger", / nobody knows where (?:he|she|they) (?:is|are)\b/],
  [
    "danger",
    / (?:a|on|of) fire\b(?! (?:extinguisher|insurance|alarm|wod|proof|blanket|policy|cover))/,
  ],
  [
    "danger",
    / (?:house|home|building|kitchen|shop|room|car|market) (?:is )?(?:burning|on fire)\b/,
  ],
  [
    "danger",
    / (?:acident|crash|crashed|knocked down|run over)\b.* (?:blod|bled|bleding|hurt|injur\w*|broken|unconscious|dying)\b/,
  ],
  // French: violence.
  [
    "violence",
    / (?:me|m|nous|la|le|l|les|te|t) (?:bat|bats|batent|batait|frape\w*|cogne\w*|gifle\w*|menace\w*|touche\w*|suit|suivent|suivait|tue|tuer|enferme\w*)\b/,
  ],
  // "Il me poursuit" is chasing, unless a court is in it ("me poursuit en justice") or the
  // sender is the one who would go after someone ("je veux le poursuivre" is suing).
  [
    "violence",
    / (?<!(?:veux|vais|peux|dois|voudrais|pourais|compte|faut|pour|de) )(?:me|m|nous|la|le|l|les|te|t) poursui\w*\b(?!.*(?:avocat|justice|tribunal|proces|juge|plainte))/,
  ],
  ["violence", / (?:va|veut|vont|menace de|menace d) (?:me|nous|la|le) (?:tuer|batre|frapper)\b/],
  ["violence", / sans (?:mon|son|leur) (?:acord|consentement)\b/],
  [
    "violence",
    / (?:bat|batent|frape|frapent|cogne|tabase|tape) (?:sa|son|ses|leur|leurs) (?:femme|mari|enfant|enfants|fils|file|soeur|frere|mere|pere|copine|copain|bebe)\b/,
  ],
  ["violence", / se (?:fait|font|faisait) (?:batre|frapper|agreser|violer|taper|tabaser)\b/],
  [
    "violence",
    / (?:avec|a|ont|porte|portait|tient|sorti) (?:un|une|des) (?:couteau|couteaux|fusil|pistolet|machete|arme)\b/,
  ],
  ["violence", / armes?\b/],
  ["violence", / (?:de|par la) force\b/],
  ["theft", / fait les poches\b/],
  ["theft", / (?:faux|fausse) (?:agent|policier|police|employe|mtn|airtel|banque)\b/],
  [
    "theft",
    / (?:gars|hommes|types|inconnu|inconnus|quelqu un|jeunes|voleur|bandits)\b(?: \w+){0,4} (?:ont pris|a pris|m ont pris|m a pris|ont arache|a arache) (?:mon|ma|mes|notre|nos)\b/,
  ],
  [
    "danger",
    / (?:essaie|essaye|essayait|tente|tentait) d (?:ouvrir|entrer|forcer) (?:ma|notre|la|chez)\b/,
  ],
  ["violence", / (?:me|nous) finir\b/],
  ["danger", / (?:ete|ont|l ont|les ont) enleve\w*\b/],
  ["danger", / ne respire (?:plus|pas)\b/],
  ["violence", / (?:me|nous|la|le) fait chanter\b/],
  ["violence", / (?:m a|m ont|nous a|nous ont) drogue/],
  ["danger", / (?:pas|refuse de) me laiser (?:descendre|sortir|partir)\b/],
  ["danger", / ne me laise pas (?:descendre|sortir|partir)\b/],
  ["theft", / sans (?:ma |mon )?(?:permision|autorisation)\b/],
  ["violence", / (?:sait|connait) ou (?:j|nous|je) (?:habite|habitons)\b/],
  ["danger", / (?:surveil\w*) (?:ma|notre|nos|mon) (?:maison|chambre|boutique|porte)\b/],
  ["danger", / (?:pas|plus) en securite\b/],
  ["violence", / renverse\w*\b/],
  ["violence", / (?:batu|batue|batus|batues)\b/],
  ["danger", / (?:saigne|saignes|saignent)\b/],
  // French: theft said as a situation.
  [
    "theft",
    / (?:parti|partie|partis|enfui|enfuie|sauve|file|disparu|disparue|fui) avec (?:mon|ma|mes|le|la|les|notre|nos|tout|l)\b/,
  ],
  // "il est parti avec, il ne répond plus": with it, the thing named before (a new clause or
  // the end follows "avec"; "parti avec sa soeur" is no theft).
  [
    "theft",
    / (?:parti|partie|partis|enfui|enfuie|sauve|file|disparu|disparue|fui) avec (?:(?:il|elle|ils|elles|et|mais|depuis|ne|n|sans) |$)/,
  ],
  [
    "theft",
    / pris (?:mon|ma|mes|l|le|la|les|notre|tout)\b.* (?:disparu|ne repond|bloque|coupe|eteint|enfui|parti)\b/,
  ],
  ["theft", / (?:faisant|fait|faisait|font) pas(?:er|e|ant)\b/],
  ["theft", / vide (?:mon|ma|notre) (?:compte|porte|momo)\b/],
  [
    "theft",
    / (?:colis|paquet|sac|bagage\w*|telephone|argent|marchandise|valise)\b.* (?:ne repond (?:plus|pas)|eteint|m a bloque|injoignable|introuvable)\b/,
  ],
  [
    "theft",
    / (?:case|force|fracture|defonce) (?:la|les|ma|notre) (?:porte|serure|fenetre|vitre)\b/,
  ],
  // French: danger.
  [
    "danger",
    / (?:fils|file|enfant|bebe|mari|femme|mere|pere|frere|soeur|copine|copain)\b.* (?:disparu|disparue|pas rentre|pas rentree|introuvable|ne la trouve|ne le trouve|ne la retrouve|ne le retrouve|on ne trouve|pas ete vu|pas ete vue|personne ne l a vu)\b/,
  ],
  [
    "danger",
    / (?<!contre )(?:le|au|en|du) feu\b(?! (?:rouge|vert|tricolore|de signalisation|orange))/,
  ],
  [
    "danger",
    / (?:maison|cuisine|boutique|immeuble|voiture|marche)\b(?: \w+){0,3} (?:brule|brulent)\b/,
  ],
  ["danger", / (?<!extincteur d |extincteurs d |asurance |contre l |alarme |alarmes )incendie/],
  ["danger", / acident\b.* (?:saign\w*|blese\w*|sang|hopital|mal|mort)\b/],
  // Kinyarwanda: theft said as a situation ("went with my parcel and does not answer").
  [
    "theft",
    / (?:yagiye|yigendeye|yirukanse|yacitse|yahunze|yahunganye|bagiye|birukanse) n(?:a)? ?(?:ipaki|paki|igikapu|amafaranga|telefone|ibintu|isakoshi|imizigo|umutwaro|colis|imodoka|moto|televiziyo|tv|mudasobwa|radiyo|ibikoresho|imyenda|imitako|matela|frigo)\b/,
  ],
  // Kinyarwanda: a break-in said by its two acts, a thing broken (kumena: "bamennye",
  // "yamenetse") and things taken or gone ("batwara radiyo", "ibintu bitakiriho").
  [
    "theft",
    / \w*men(?:ye|etse|we)(?: \w+)? (?:ikirahure|idirishya|amadirishya|urugi|inzugi|ingufuri|imodoka|inzu|iduka|umuryango|igipangu)\b(?: \w+){0,5} (?:ba|a|ya|bara|yara)?\w*(?:twara|twaye|tware|jyana|jyanye)\b/,
  ],
  [
    "theft",
    / (?:ikirahure|idirishya|urugi|ingufuri|igipangu|umuryango)\b(?: \w+){0,3} \w*men(?:etse|we|ye)\b.* (?:bitakiriho|ntibikiriho|byabuze|yabuze|zabuze|ntakiriho|ntigihari|batwaye|batwara)\b| (?:bitakiriho|ntibikiriho|byabuze|zabuze|batwaye)\b.* (?:ikirahure|idirishya|urugi|ingufuri|igipangu|umuryango)\b(?: \w+){0,3} \w*men(?:etse|we|ye)\b/,
  ],
  // "yigendera nayo": went off with it, the thing named before.
  [
    "theft",
    / (?:yagiye|yigendeye|yigendera|yirukanse|yacitse|yahunze|bagiye|birukanse|bigendeye) (?:nayo|nawo|nabyo|nazo|nacyo|naryo)\b/,
  ],
  [
    "theft",
    / (?:yatwaye|yantwaye|bantwaye|batwaye|bantwara|yajyanye)\b.* (?:bariruka|ariruka|barirukanka|birukanse|yirukanse|barahunga|arahunga|yahunze|bahunze|yacitse|bacitse|ntiyitaba|ntibitaba|aburirwa|yaburiwe|arazimira|yazimiye|yarazimiye|ntaboneka|yazimije|yafunze|yanyihakanye|biyita|yiyita)\b/,
  ],
  ["theft", / (?:bakuye|bakuyeho|bayakuye|bamaze) amafaranga\b/],
  [
    "theft",
    / (?:banteye|bateye|baduteye|batoboye|bamenye) (?:iduka|inzu|urugo|umuryango|iwanjye|iwacu)\b/,
  ],
  [
    "danger",
    / (?:umwana|umuhungu|umukobwa|umugore|umugabo|mama|papa|murumuna|mushiki|musaza|umwuzukuru|nyogokuru|sogokuru|umukecuru|umusaza|uruhinja)\b.* (?:yabuze|ntiyatashye|ntaragaruka|ntiyagarutse|ntaratashye|ntiyavuye ku (?:ishuri|kazi|isoko)|ntituzi aho ari|ntawe uzi aho ari|twabuze aho ari|twamubuze|ntituramubona)\b/,
  ],
  ["danger", / (?:mu )?kaga\b/],
  [
    "theft",
    / (?:bantwaye|yantwaye|banyatse|yanyatse|banshikuje|yanshikuje) (?:isakoshi|telefone|amafaranga|ipaki|igikapu|mudasobwa|imodoka|moto)\b/,
  ],
  [
    "danger",
    / (?:ushaka|arashaka|barashaka|bashaka|arimo|barimo) (?:gufungura|kwinjira|kumena)\b.* (?:umuryango|urugi|inzu|iwanjye|iwacu|idirishya)\b/,
  ],
  [
    "danger",
    / (?:ntawe uramubona|ntawe wamubonye|ntituramubona|ntawe uramubonye)\b/,
  ],
  [
    "danger",
    / (?:ntanyemerera|ntibanyemerera|ntiyanyemereye|ntanyemerere) (?:gusohoka|kugenda|kuva|gusohoka mu)\b/,
  ],
  // "Nta mutekano" alone is "not safe"; with a noun after it, the safety of a thing.
  [
    "danger",
    / (?:ntabwo (?:ndi|turi)|sindi|ntituri|nta) (?:mu )?mutekano\b(?! (?:w|bw|rw|ry|by|bya|wa)\b)/,
  ],
  [
    "violence",
    / (?:afite|bafite|yari afite|bari bafite|witwaje|yitwaje|bitwaje) (?:icyuma|ibyuma|umuhoro|imihoro|imbunda|intwaro|amabuye|inkoni|ibibando|imipanga)\b/,
  ],
  [
    "theft",
    / amafaranga\b.* (?:ntabizi|ntabyemeye|ntabimenye|nta burenganzira|ntabyemera)\b/,
  ],
  ["danger", / (?:unkurikira|ankurikira|bankurikira|udukurikira|adukurikira)\b/],
  ["danger", / (?:azi|bazi) aho (?:ntuye|dutuye|ntaha|dutaha)\b/],
  // English, by situation: something taken in passing ("yanked my phone", "my wallet got
  // lifted"), a way in forced, a driver who endangers, someone waiting or following.
  ["theft", / (?:yanked|swiped|nicked|pinched|lifted|snatched) (?:my|our|her|his)\b/],
  [
    "theft",
    / (?:my|our) (?:phone|wallet|purse|bag|handbag|laptop|bike|moto|car|jewelery|jewelry|money|cash)\b(?: \w+){0,2} (?:was|got|were|has ben) (?:swiped|lifted|nicked|pinched|taken|snatched|grabed|stolen)\b/,
  ],
  ["theft", / (?:pickpocket\w*|cleaned out|cleared out)\b/],
  ["theft", / (?:lock|padlock|locks)\b(?: \w+){0,2} (?:cut|broken|forced|smashed)\b/],
  [
    "theft",
    / (?:smashed|broke|forced) (?:my|our|the) (?:\w+ )?(?:window|door|gate|windscreen|lock)\b/,
  ],
  [
    "danger",
    / (?:got|get|broke|forced (?:his|her|their) way|came|sneaked|snuck) into (?:my|our) (?:house|home|room|shop|flat|apartment)\b/,
  ],
  ["danger", / set (?:\w+ ){0,3}(?:alight|ablaze|on fire)\b/],
  ["violence", / burn (?:down )?(?:my|our|the) (?:house|home|shop|car)\b/],
  [
    "danger",
    / (?:driver|rider|motari|moto guy|cab|taxi)\b.* (?:drunk|speeding|swerving|reckles\w*|won t pul over|wont pul over|locked the doors|somewhere i don t know|diferent road|wrong way)\b/,
  ],
  ["danger", / somewhere (?:i|we) don t know\b/],
  ["danger", / (?:has ben|been|keeps|is|are) (?:behind|folowing|tailing) (?:me|us)\b/],
  [
    "violence",
    / (?:pushed|shoved|cornered|jumped|stoned|choked|strangled|dragged) (?:me|us|him|her|them|my \w+)\b/,
  ],
  ["violence", / (?:got|was|were) (?:jumped|mugged|cornered|pickpocketed|pushed)\b/],
  ["violence", / (?:knifepoint|gunpoint)\b/],
  ["violence", / (?:throwing|threw|throws) (?:stones|rocks|bricks)\b/],
  ["violence", / with (?:sticks|stones|clubs|machetes|knives|guns|pangas)\b/],
  ["danger", / something in (?:my|her|his|our) (?:drink|food|tea|juice)\b/],
  [
    "danger",
    / (?:outside|at) (?:my|our) (?:door|gate|house|window)\b.* (?:banging|shouting|screaming|threaten\w*|kicking)\b/,
  ],
  ["theft", / account (?:is|was) (?:empty|emptied|drained|wiped)\b/],
  ["violence", / (?:know|knows) (?:where )?(?:my|our) (?:children|kids|son|daughter|child) s?\b/],
  [
    "violence",
    / (?:saying|said|says|that) (?:i|you|we) (?:l|wil|wil soon|are going to|am going to) die\b/,
  ],
  ["danger", / (?:nowhere to be found|gone for (?:num|two|three|four|five|several) days)\b/],
  // Harm aimed at a person ("threw things at me", "pointed a gun at us"), a person tied
  // up, something cut or ripped off them, a taker who then makes off.
  [
    "violence",
    / (?:throw\w*|threw|pointed|point\w*|flashed|swung|aimed|lunged|spat|charged)\b(?: \w+){0,3} at (?:me|us|him|her|my \w+)\b/,
  ],
  ["violence", / tied (?:me|us|him|her|them|my \w+) up\b/],
  ["theft", / (?:ripped|tore|pulled|cut) (?:my|her|his|our)(?: \w+)? (?:of|open)\b/],
  ["theft", / cut (?:my|her|his|our) (?:bag|handbag|purse|pocket)\b/],
  [
    "theft",
    / (?:took|grabed|snatched|ripped|taken|cut)\b.* (?:sped|ran|drove|rode|took|made|raced) (?:of|away)\b/,
  ],
  ["violence", / bruises\b.* (?:did (?:it|this)|hit|beat|gave)\b/],
  [
    "violence",
    / (?:saying|says|said|threaten\w*) (?:he|she|they)(?: wil| l)? (?:come|coming|get|find) (?:for|after)? ?(?:me|us)\b/,
  ],
  ["danger", / hiding in (?:the|my|a|our) (?:bathroom|toilet|room|wardrobe|closet|cupboard)\b/],
  [
    "danger",
    / (?:someone|somebody|a man|strangers?|a stranger|people) (?:is|are) (?:in|inside) (?:the|my|our) (?:house|home|room|compound)\b/,
  ],
  [
    "danger",
    / (?:not|never) (?:picked up|answered) (?:his|her|their) phone since\b| never came (?:home|back|to work|to schol)\b/,
  ],
  [
    "danger",
    / (?:driver|rider|guy|taxi|cab|moto)\b.* (?:wouldn t stop|won t stop|wont stop|out of town|of the main road)\b/,
  ],
  // Extortion and scams said as what happened, in any of the three languages: "or else",
  // a relative held for money, a code given and the money gone, a name misused.
  // "or else" / "sinon" as a threat: ending the message, or before what the other will do
  // ("pizza or else pasta" is a choice).
  [
    "violence",
    / (?:or else|sinon) $| or else (?:he|she|they)\b| sinon (?:il|ils|ele|eles|on) (?:va|vont|\w+ra|\w+ront|envoie\w*|publie\w*|poste\w*|montre\w*|partage\w*)\b| atari ibyo (?:a|ba)(?:za|ka|ko)\w*/,
  ],
  [
    "danger",
    new RegExp(
      ` (?:has|holds|holding|took|a|tient|detient|afite|yafashe) (?:my|our|ma|mon|notre|umukobwa|umuhungu|umwana|umugore) (?:${KIN}|fille|fils|enfant|femme|wanjye|wacu)\\b.* (?:wants|money|pay|veut|argent|payer|ashaka|amafaranga|ibihumbi)\\b`,
    ),
  ],
  [
    "theft",
    / (?:code|pin|otp|mot de pase|umubare w ibanga|kode)\b.* (?:gone|disparu|zero|ubusa|yagiye|empty|vide|yashize)\b/,
  ],
  ["theft", / (?:using my name|utilise mon nom|ukoresha izina ryanjye|akoresha izina ryanjye)\b/],
  // Someone trying the door, knocking at night, men watching, a dark road.
  [
    "danger",
    / (?:trying|tried|tries) (?:the|my|our) (?:door|handle|door handle|lock|gate|window)\b| (?:essay\w*|tent\w*) (?:la poignee|la porte|la serure)\b| (?:agerageza|bagerageza|ageragezaga) (?:gufungura|kwinjira|kumena)\b/,
  ],
  [
    "danger",
    / (?:knocking|banging|knocks|bangs|akomanga|bakomanga) (?:on|at|ku) (?:my|our|the|idirishya|urugi)\b.* (?:every night|at night|again|buri joro|nijoro)\b| (?:wasinze|drunk)\b.* (?:knocking|banging|akomanga|bakomanga)\b/,
  ],
  [
    "danger",
    / (?:men|guys|people|strangers|boys) (?:watching|staring)\b| (?:hommes|types|gens|inconus) qui (?:surveil\w*|guet\w*|nous regard\w*)\b| (?:abagabo|abantu|abasore) (?:batureba|bandeba|baturebera|banyitegereza)\b/,
  ],
  [
    "danger",
    / (?:dark|lonely|isolated|empty|deserted) (?:road|street|place|area|path)\b| (?:route|chemin|coin|endroit) (?:sombre|isole|desert)\b| (?:nzira|ahantu|ishyamba) (?:y|h|ha) umwijima\b/,
  ],
  ["theft", / (?:give|hand) (?:him|them|her) (?:my|al my|our) (?:phone|money|bag|wallet|cash)\b/],
  // A child lost, a relative unreachable since, a threat to take a child, rocks thrown at
  // someone, a body touched without consent, a driver who ignores the passengers.
  [
    "danger",
    / (?:lost|perdu|nabuze|twabuze) (?:my|our|mon|ma|notre|umwana|umukobwa|umuhungu) ?(?:child|son|daughter|kid|baby|enfant|fils|file|bebe|wanjye|wacu)\b/,
  ],
  [
    "danger",
    / (?:can t be reached|cannot be reached|unreachable|injoignable|ntiyaboneka|ntaboneka) (?:since|depuis|kuva)\b/,
  ],
  [
    "danger",
    new RegExp(
      ` (?:take|prendre|enlever|kidnap|azatwara|azashimuta) (?:my|mon|ma|mes|umwana|umukobwa|umuhungu) ?(?:${KIN}|fils|file|enfant|enfants|bebe|wanjye)\\b`,
    ),
  ],
  [
    "violence",
    / (?:throw|throws|jetent|jete|lancent|lance|bantera|antera) (?:rocks|stones|des cailoux|des pieres|amabuye)\b/,
  ],
  [
    "violence",
    / (?:touched|toucher|touche|yankoze|bankoze) (?:my|mon|ma|ku) (?:body|corps|mubiri)\b/,
  ],
  [
    "theft",
    / (?:fake|faux|fausses?) (?:cops|policiers|polices)\b| (?:abapolisi|umupolisi) b?w? ?(?:ibinyoma|w ibinyoma|b ibinyoma)\b/,
  ],
  [
    "danger",
    / (?:driver|chaufeur|umushoferi)\b.* (?:ignores us|ignores me|ne nous ecoute pas|ne m ecoute pas|yanze kugabanya)\b| (?:driver|bus|chaufeur|umushoferi|bisi)\b.* (?:way too fast|beaucoup trop vite|yihuta cyane)\b/,
  ],
  [
    "danger",
    / (?:locked myself in|enferme\w* dans les toilettes|nihishe|twihishe)\b| (?:there s|there is|someone is|somebody is|y a quelqu un|hari umuntu) (?:someone |somebody )?(?:in the house|dans la maison|mu nzu)$/,
  ],
  [
    "violence",
    / (?:texting|writing|wrote|texted|m ecrit|ecrit) (?:me )?(?:that )?(?:he|she|they|qu il|qu ele)\b.* (?:hurt|kil|faire du mal|tuer)\b/,
  ],
  [
    "theft",
    / (?:took|pris) (?:our|nos|my|mes) (?:stuf|things|afaires|biens)\b.* (?:left|parti|partie|gone)\b/,
  ],
  [
    "theft",
    / (?:grabed|snatched|pris|took) (?:my|mon|ma) (?:\w+ )?(?:purse|bag|sac|phone|telephone|wallet)\b.* (?:ran|couru|enfui|fled)\b/,
  ],
  // French, by situation.
  [
    "violence",
    / (?:m a|m ont|nous a|nous ont|l a|l ont) (?:lance\w*|jete\w*|ligote\w*|atache\w*)\b/,
  ],
  ["violence", / ligot\w*\b/],
  ["theft", / (?:coupe|decoupe|ouvert|fendu) (?:mon|ma|son|sa) (?:sac|poche|sacoche)\b/],
  [
    "violence",
    / (?:disant|dit|disent|menace\w*) qu (?:il|ils|ele|eles) (?:viendra|viendront|va venir|vont venir) me (?:chercher|trouver|prendre)\b/,
  ],
  ["danger", / (?:suis|sommes) cache\w* dans\b/],
  [
    "danger",
    / (?:quelqu un|un homme|des inconus|un inconu|des hommes) (?:est|sont) (?:dans|chez) (?:la|ma|notre|nous|moi)\b/,
  ],
  [
    "danger",
    / (?:fils|file|enfant|mari|femme|mere|pere|frere|soeur|oncle|tante)\b.* (?:ne repond plus depuis|pas venue? au travail|jamais arivee?)\b/,
  ],
  [
    "danger",
    / (?:chaufeur|motard|taxi|conducteur)\b.* (?:ne s arret\w* pas|loin de la vile|quite la route|hors de la vile)\b/,
  ],
  [
    "theft",
    / (?:pique|fauche|chipe|tire) (?:mon|ma|mes) (?:portefeuile|telephone|portable|tel|iphone|sac|sacoche|porte monaie|bijoux|argent|montre|ordi|ordinateur|valise)\b| on m a (?:pique|vole|pris|arache|chipe|fauche|tire) (?:mon|ma|mes)\b/,
  ],
  [
    "violence",
    / (?:m a|m ont|l a|l ont|nous a|nous ont|la|le) (?:pouse\w*|coince\w*|braque\w*|agrese\w*|tabase\w*|bouscule\w*)\b/,
  ],
  ["violence", / (?:s en prendre|s en prend|s en prenait) a\b/],
  ["danger", / quelque chose dans (?:mon|ma|son|sa) (?:verre|boison|the|jus|repas)\b/],
  ["danger", / (?:tape|frape|cogne|tambourine) a (?:ma|notre) (?:porte|fenetre)\b/],
  [
    "violence",
    / (?:connait|conaisent|connaisent|sait|savent) (?:ou|l ecole)\b.* (?:enfants|fils|file)\b/,
  ],
  ["violence", / (?:disant|dit|disent) que (?:je|tu|nous) (?:vais|vas|alons) mourir\b/],
  ["danger", / personne ne sait ou (?:il|ele|ils|eles) (?:est|sont)\b/],
  ["violence", / avec des (?:batons|pieres|gourdins|machetes|couteaux|fusils)\b/],
  ["violence", / (?:lance\w*|jete\w*) des pieres\b/],
  ["theft", / (?:cadenas|serure|verou)\b(?: \w+){0,2} (?:coupe|force|case|arache)\b/],
  ["theft", / fai\w* (?:les|mes) poches\b/],
  [
    "violence",
    / (?:fait|faire|fais|suis fait|est fait) (?:atacquer|ataquer|braquer|voler|depouiler|racketer|tabaser|cambrioler)\b/,
  ],
  [
    "danger",
    / (?:chaufeur|motard|taxi|conducteur)\b.* (?:ivre|soul|trop vite|zigzag\w*|refuse de s arreter|verouille\w*|autre route|endroit inconu)\b/,
  ],
  ["danger", / endroit (?:inconu|que je ne conais pas)\b/],
  ["danger", / (?:me suit|nous suit|me suivent) (?:depuis|partout)\b/],
  ["danger", / (?:entre|entree|entres) de force\b/],
  // Kinyarwanda, by stem rather than by listed form: a person who did not come home
  // ("ntiyatashye", "ntaratashya"), whoever is named ("mwana wanjye" as well as "umwana").
  ["danger", / (?:ntiyatashye|ntaratashya|ntiyagarutse|ntiyigeze agaruka)\b/],
  [
    "danger",
    / (?:ntabwo nzi|sinzi|ntituzi|ntawe uzi|ntituzi) aho (?:\w+ )?(?:wanjye|wacu|yanjye|yacu|ari|bari)\b.*\bari\b/,
  ],
  // Someone outside wanting in, or who broke a door and came in.
  ["danger", / hanze\b.* (?:\w*shaka|\w*rimo) (?:kwinjira|gufungura|kumena)\b/],
  ["theft", / (?:urugi|idirishya|ingufuri|umuryango)\b.* \w*(?:injira|injiye|injiramo)\b/],
  ["theft", / \w*(?:injiye|injira) mu\b.* \w*(?:twara|twaye|ibye|ibiye)\b/],
  // Ambushed on the road ("banteze mu nzira", "barantegeye mu nzira").
  ["violence", / \w*(?:nteze|nteg\w*|duteze|duteg\w*|mfat\w*|dufat\w*) mu nzira\b/],
  // Taken, then running off: any form of -iruk-/-hung-/-cik-/-zimir- (run, flee, vanish).
  [
    "theft",
    / \w*(?:twaye|twara|nyatse|shikuje)\b.* \w*(?:iruk\w*|ruka|hung\w*|hunz\w*|citse|zimir\w*|zimiy\w*)\b/,
  ],
  // A driver who will not stop or let the passenger out, drives drunk, or goes somewhere unknown.
  [
    "danger",
    / (?:yanze|ntiyemera|ntiyanyemerera|yanga) (?:kumpagarik\w*|guhagarara|ko (?:mva|tuva|nsohoka|dusohoka|mvamo))\b/,
  ],
  [
    "danger",
    / (?:umushoferi|shoferi|umumotari|motari|atwaye|gutwara)\b.* (?:yasinze|asinze|yanyoye inzoga)\b/,
  ],
  ["danger", / ahantu (?:ntazi|tutazi|ntamenyereye)\b/],
  ["danger", / (?:nta muntu|ntawe|nta wundi) uzi aho\b/],
  ["danger", / (?:yanze|ntiyemera|ntiyanyemerera|yanga) ko (?:mva|tuva|nva|nsohok|dusohok)\w*\b/],
  // Strangers ("abantu batazwi") who came and took.
  [
    "theft",
    / (?:bataramenyekana|batazwi|abatazwi|tutazi|ntazi)\b.* \w*(?:twara|twaye|ibye|ibiye|nyatse|shikuje)\b/,
  ],
  // Watching the house, over and over.
  ["danger", / (?:bahora|ahora|bakomeza|akomeza) (?:bacunga|acunga|bagenzura|agenzura|bareba)\b/],
  // Mistreated ("amfata nabi") and threats to the head ("azamena umutwe").
  ["violence", / \w*(?:mfat|mufat|dufat|mfash|mufash|dufash)\w* nabi\b/],
  ["violence", / \w*mena umutwe\b/],
  // Concepts rather than listed wordings (issue 24 item 6): each names what is happening in
  // the three languages' common forms, so a wording nobody wrote down still reads as harm.
  // Wanting to die or to end one's life, said without the word "suicide".
  [
    "danger",
    / (?:don t|dont|do not|no longer|not) (?:want|wana|wish) to (?:live|be alive|exist|wake up\b(?! (?:early|late|at|before|tomorow|num|so)\b))\b| (?:end|ending|take|taking) (?:it all|my life|my own life)\b| kil (?:myself|herself|himself)\b| (?:beter|better) of dead\b| no reason to live\b| (?:want|wants|wana) to die\b/,
  ],
  [
    "danger",
    / (?:plus|pas) (?:envie|le gout|la force) de vivre\b| (?:envie d|veux|vais|va|veut) en finir\b(?! avec)| mettre fin a (?:mes|ses) jours\b| mettre fin a (?:ma|sa) vie\b| (?:veux|envie de|vais) mourir\b/,
  ],
  [
    "danger",
    / \w*iyahur\w*\b| \w*iyahuy\w*\b| (?:kw|n|y|w|a|b)iyic\w*\b| (?:kw|n|y|w|a|b)iyish\w*\b| (?:sinshaka|sinkishaka|ntashaka|sinifuza|ntacyo (?:nshaka|mbona)) (?:\w+ )?kubaho\b| (?:ndashaka|nshaka|numva nshaka|ashaka) gupfa\b/,
  ],
  // Someone who cannot be woken, has collapsed or swallowed too much.
  ["danger", / (?:not|isn t|won t|wont|can t|cannot|doesn t|does not|didn t) (?:waking|wake)\b/],
  ["danger", / ne se (?:reveil\w*) (?:pas|plus)\b| efondr\w*\b| evanou\w*\b/],
  [
    "danger",
    / nt\w*(?:kanguk|kangut)\w*\b| (?:yituye|aituye|yaguye) hasi\b.* \w*(?:humek|kanguk|vug)\w*\b| ntabwo (?:a|i|ya|u|ba)?humeka\b| \w*humeka nabi\b/,
  ],
  [
    "danger",
    / (?:to many|too many|a lot of|trop de|beaucoup de|plein de) (?:pils|tablets|comprimes|medicaments|cachets|medicines|sleeping pils)\b| swalow\w* (?:\w+ ){0,3}(?:pils|tablets|bleach|poison|chemicals|petrol|parafin)\b| (?:yanyoye|yamize|anyoye|amize|yanyweye|banyoye) ibinini byinshi\b/,
  ],
  // Harm threatened to someone ("va faire du mal a mes enfants").
  [
    "violence",
    / (?:va|vont|veut|veulent|menace de|menace d|vais) (?:me |nous |te |lui |leur |les )?faire du mal\b| faire du mal a (?:mes|mon|ma|nos|notre|moi|ma famile)\b/,
  ],
  // Sexual abuse, including Rwandan English "defile" and Kinyarwanda "gusambanya".
  [
    "violence",
    / (?:sexualy|sexually) (?:abus|asault|assault|harass|harrass|touch|exploit|molest|atack|attack)\w*| defile\w*\b| abus\w* (?:d ele|d elle|de lui|de ma|de mon|de sa|de son|de mes)\b| abus sexuel\w*| atouchement\w*| \w*sambany\w*\b| (?:touch\w*|fondl\w*) (?:my|our|his|her) (?:daughter|son|child|kid|sister|niece|girl|nephew)\b/,
  ],
  // Violence by someone against a person they name ("a crowd is beating a man").
  [
    "violence",
    / (?:beating|hiting|kicking|stabing|atacking|attacking|lynching|stoning) (?:a|the|this|that|an old|a young) (?:man|woman|boy|girl|child|kid|person|guy|baby|lady|student|driver)\b| (?:frappent|batent|tabasent|lynchent|agresent) (?:un|une|le|la) (?:homme|femme|enfant|garcon|file|fille|bebe|vieux|vieile|personne|chaufeur)\b/,
  ],
  // Gas leaking or smelt, in a home.
  [
    "danger",
    / gas\b.* (?:leak\w*|smel\w*)\b| (?:leak\w*|smel\w*) (?:of )?gas\b| gaz\b.* (?:fuit|fuite|odeur|sent)\b| fuite de gaz\b| gaze?\b.* (?:iraryoha|iravamo|irava|impumuro|umunuko|iranuka|\w*humura)\b/,
  ],
  // Money taken, then the taker gone or blocking ("took my money and now blocks my number").
  [
    "theft",
    / (?:took|taken|got|has|kept|received) (?:al )?(?:my|our) (?:money|cash|deposit|advance|payment)\b.* (?:block\w*|vanish\w*|disapear\w*|disappear\w*|not answering|switched of|ran)\b/,
  ],
  // Threats for speaking out ("if I talk he'll make me disappear", "nimbivuga azambura ubuzima").
  [
    "violence",
    / if i (?:tel|talk|speak|report|go to the police)\b.* (?:wil|gona|going to|l) (?:\w+ )?(?:kil|hurt|finish|make me disapear|beat|fire)\b| si je (?:parle|dis|porte plainte|le dis)\b.* (?:me|m) (?:\w+ )?(?:tuer|tuera|fera disparaitre|frapera|batra|virera)\b| me (?:fera|vont|va) (?:faire )?disparaitre\b| nimbivuga\b| \w*ambura ubuzima\b| \w*mbura ubuzima\b/,
  ],
  // Something slipped into a drink; an injury shown with the one who did it hidden;
  // everything demanded at a dark spot.
  [
    "danger",
    / (?:ikintu|umuti|ibinini) mu (?:kinyobwa|byo kunywa|cyayi|nzoga|icupa)\b| \w*byimb\w*\b.* (?:uwabikoze|uwamukubise|who did it|qui a fait ca)\b| (?:ahantu|aho) (?:hijimye|h umwijima)\b| (?:muhe|mpe|give (?:him|them)|donne lui|donner) (?:ibyo mfite byose|everything i have|tout ce que j ai)\b/,
  ],
  // Someone leaving, a few words later, with the sender's things (not with a relative).
  [
    "theft",
    / (?:parti|partie|partis|enfui|enfuie|sauve|file|disparu|disparue)(?: \w+){1,3} avec (?:mon|ma|mes|notre|nos) (?!soeur|frere|mere|pere|femme|mari|fils|file|enfant|ami|amie|copine|copain|famile|voisin|cousin)\w+| (?:left|ran|went|drove|rode)(?: \w+){1,3} with (?:my|our) (?!sister|brother|mother|father|wife|husband|son|daughter|child|kids|friend|family|neighbour|cousin)\w+/,
  ],
  // A child drank or swallowed something by mistake: whatever it was, an emergency
  // ("umwana yanyoye peteroli atabizi", "a bu du produit par erreur", "ate rat poison").
  [
    "danger",
    / (?:umwana|uruhinja|child|baby|kid|toddler|son|daughter|enfant|bebe|fils|file)\b.* (?:drank|drunk|swalowed|swallowed|ate|\w*anyoye|\w*anyweye|\w*amize|a bu|a avale|a mange)\b.* (?:by mistake|accidentally|by accident|par ereur|par acident|sans le savoir|atabizi|atabishaka|ku buryo butunguranye)\b/,
  ],
  [
    "danger",
    / (?:drank|drunk|swalowed|swallowed|ate|yanyoye|\w*nyweye|yamize|yariye|anyoye|amize|a bu|a avale|avale|bu) (?:\w+ ){0,2}(?:petrole|kerozene|javel|eau de javel|detergent|raticide|mort aux rats|rat poison|produit chimique|produits chimiques|isabune y amazi|umuti w udukoko|umuti wica)\b/,
  ],
  // A man trying to take a child away or into a vehicle ("tried to pull my daughter into his
  // car", "a essayé de faire monter ma fille dans sa voiture", "yashatse kwinjiza umukobwa wanjye
  // mu modoka ye").
  [
    "danger",
    new RegExp(
      ` (?:tried|trying|tries|wanted|attempted|try) to (?:pul|drag|push|force|get|put|lure|take|grab|carry) (?:my|our|a|the|his|her|their) (?:${KIN}|children|girls|boys|pupil|student)\\b(?: \\w+){0,4} (?:into|in|inside) (?:his|a|the|their|her) (?:car|van|vehicle|taxi|truck|house)\\b`,
    ),
  ],
  [
    "danger",
    / (?:essaye|essaie|essayait|tente|tentait|voulu|voulait|veut)(?: de| d)? (?:faire monter|tirer|emener|pouser|prendre|forcer|atirer|enlever) (?:ma|mon|mes|notre|nos|un|une|l|la|le) (?:file|fils|enfant|enfants|soeur|frere|petite|petit|nieces?|neveu|eleve)\b/,
  ],
  [
    "danger",
    / (?:yashatse|bashatse|ashaka|bashaka|yagerageje|bagerageje|yageragezaga) (?:kwinjiza|gushyira|kujyana|gutwara|kuzamura|gukurura|kwinjiza ku ngufu) (?:umwana|umukobwa|umuhungu|abana|murumuna|mushiki|umwuzukuru)\b/,
  ],
  // An injury someone came home with and will not explain: a swollen eye, bruises, marks
  // ("un oeil gonflé et ne dit pas qui a fait ça", "came back with a black eye").
  [
    "violence",
    / (?:swolen|swollen|bruised|bruises|black eye|gonfle|gonflee|bleus|hematome\w*|ecchymose\w*|oeil au beure noir|\w*byimb\w*|inguma|ibikomere)\b.* (?:who did it|who did this|won t say|wont say|doesn t say|does not say|won t tel|qui a fait ca|qui lui a fait|ne dit pas|ne veut pas dire|uwabikoze|ntavuga|ntashaka kuvuga)\b| (?:came|come|comes) (?:home|back) with (?:a black eye|bruises|a swolen|a swollen|a cut)\b| (?:rentre|rentree|revenu|revenue) (?:a la maison )?avec (?:un oeil|des bleus|des marques|un bleu|le visage)\b/,
  ],
  // A person who no longer responds, whatever else the message says about them ("my baby has a
  // high fever and is shaking, not responding").
  [
    "danger",
    new RegExp(
      ` ${KIN}\\b.* (?:not responding|isn t responding|stopped responding|not reacting|ne reagit plus|ne reagit pas|ntakivuga|ntasubiza|ntanyeganyega)\\b`,
    ),
  ],
  // Smoke pouring out of a home; someone drowning; someone fallen who cannot get up.
  [
    "danger",
    / (?:fumee|fume) (?:qui )?(?:sort|sortent|partout|noire|epaise)\b| umwotsi (?:mwinshi|uva|urimo|uraturuka)\b| \w*roham\w*\b| (?:can t|cannot|can not|unable to) get up\b| ne (?:peut|peux|pouvait|arive) (?:pas|plus) (?:a )?se relever\b| (?:ntabasha|ntashobora) (?:guhaguruka|kweguka)\b/,
  ],
  // Pay or else: intimate photos published, a secret told ("si je ne paie pas il publie mes
  // photos", "nintamwishyura azashyira amafoto yanjye hanze").
  [
    "violence",
    / (?:if i don t|if i do not|unless i|si je ne|si je n|nintamwishyura|nintabishyura|ninanga kwishyura)\b.* (?:post|share|leak|publish|send|publie\w*|partage\w*|poste\w*|envoie\w*|envoyer|shyira\w*|kwerekana|azerekana)\b.* (?:photos?|pictures?|pics|videos?|nudes|amafoto|ifoto|video|amashusho)\b/,
  ],
  // A threat said as a warning ("dit que je vais le regretter", "said I'll regret it", "ngo
  // nzabyicuza"), or someone lying in wait ("m'attend devant le travail").
  [
    "violence",
    / (?:i ll|i wil|you ll|you wil|je vais|tu vas|vous alez|tu le|vous le) (?:le |la )?regret\w*| (?:wil|gona|going to|ll) make (?:me|you) (?:regret|pay for)\b| (?:tu vas|vous alez|je vais) me le payer\b| \w*(?:zabyicuza|zicuza|zabyishyura)\b| (?:m|nous) (?:atend|atendent|guete|guetent) (?:devant|a la sortie|dehors|pres)\b| (?:waiting|waits|lying in wait) for (?:me|us) (?:outside|at the gate|after work|after schol|near)\b| \w+(?:ntegereje|ntegerereje|dutegereje|ndindiriye) (?:hanze|ku irembo|ku kazi|ku muhanda)\b/,
  ],
  // A stranger inside the home or compound ("a strange man sleeping in our corridor").
  [
    "danger",
    / (?:strange|unknown|suspicious) (?:man|men|person|people|guy|guys)\b(?: \w+){0,3} (?:in|inside|into) (?:our|my|the) (?:corridor|compound|house|home|yard|room|garden|kitchen)\b| (?:un|des) (?:inconus?|homes? bizares?|individus?)\b(?: \w+){0,3} dans (?:notre|ma|mon|la) (?:couloir|parcele|maison|cour|chambre|cuisine)\b| umuntu (?:utazwi|tutazi|ntazi)\b(?: \w+){0,3} (?:mu|muri) (?:koridor|urugo|inzu|gikari|cyumba)\b/,
  ],
  // Something handed over, then the one who took it gone ("gave my phone to a boy to charge
  // and he vanished").
  [
    "theft",
    / (?:gave|handed|lent|left) (?:my|our|him my|her my)\b(?: \w+){1,7} (?:and|then|but) (?:he|she|they|the \w+)\b(?: \w+){0,2} (?:vanished|disapeared|disappeared|ran away|ran of|switched of|blocked me|never came back|is gone)\b/,
  ],
  // Chest pain or someone else unable to breathe ("my father ... can't breathe").
  [
    "danger",
    new RegExp(
      ` (?:chest pains?|pain in (?:his|her|my) chest|mal a la poitrine|douleur\\w* (?:a la |dans la )?poitrine|ububabare mu gatuza|gatuza karamurya)\\b| ${KIN}\\b.* (?:can t|cannot|can not|struggling to|unable to) breathe\\b| (?:pere|mere|fils|file|enfant|bebe|mari|femme|frere|soeur)\\b.* n arive (?:plus|pas) a respirer\\b| (?:ntabasha|ntashobora|ntiyabasha) guhumeka\\b`,
    ),
  ],
  // Wanting to vanish for good ("ashaka kuzimira burundu").
  ["danger", / (?:ashaka|nshaka|ndashaka|arashaka|numva nshaka) kuzimira\b/],
  // A child fallen into a pit, a well, a latrine or water.
  [
    "danger",
    new RegExp(
      ` (?:${KIN}|umwana|uruhinja|enfant|bebe|petit|petite|fils|file)\\b(?: \\w+){0,4} (?:fel|falen|has falen|yaguye|aguye|est tombee?|tombe)\\b(?: \\w+){0,2} (?:into|in|dans|mu|muri) (?:the |a |les |le |la |un |une )?(?:pit|latrine|toilet pit|wel|hole|river|lake|musarane|iriba|umwobo|uruzi|ikiyaga|latrines|puits|trou|riviere|lac|fose)\\b`,
    ),
  ],
  // A building fallen on people ("inzu yaguye, abantu bari imbere").
  [
    "danger",
    / (?:inzu|urukuta|igorofa|inyubako)\b(?: \w+){0,4} (?:yaguye|yasenyutse|rwaguye|yahirimye)\b.* (?:abantu|umuntu|abana)\b.* (?:imbere|munsi|bari mo|barimo)\b/,
  ],
  // A child taken away ("hari umuntu watwaye umwana wanjye ku irembo").
  // Said of someone not known or not named: a driver who took the child to school is a ride.
  [
    "danger",
    / (?:umuntu|abantu|umugabo|umugore|utazwi|batazwi|ntazi)\b(?: \w+){0,2} \w*(?:twaye|jyanye) (?:umwana|umukobwa|umuhungu|abana) (?:wanjye|wacu|banjye|bacu)\b/,
  ],
  // A vehicle on fire ("le bus brûle").
  [
    "danger",
    / (?:bus|camion|moto|vehicule|taxi|voiture|bisi|ikamyo|imodoka)\b(?: \w+){0,2} (?:brule|brulent|est en feu|prend feu|irimo gushya|irashya|yafashwe n inkongi)\b/,
  ],
  // Electrocuted ("got electrocuted fixing the wires", "yafashwe n'amashanyarazi").
  [
    "danger",
    / electrocut\w*| electric shock\b| \w*(?:fashwe|fatwa|kubiswe|fata|fashe) n amashanyarazi\b| amashanyarazi (?:ya|y)?(?:mufashe|amufashe|yamufashe|yamukubise|amukubise)\b/,
  ],
  // Someone outside the home who will not leave; someone prowling around it at night.
  [
    "danger",
    / (?:outside|in front of|at) (?:my|our) (?:house|home|door|gate|place|room|flat)\b.* (?:won t|wont|refuses to|refused to|wil not) (?:go|leave)\b| (?:devant|dehors|devant chez)\b.* (?:refuse de partir|ne veut pas partir|ne part pas)\b| hanze\b.* (?:yanze kugenda|ntashaka kugenda|yanze kuhava|banze kugenda)\b/,
  ],
  [
    "danger",
    / (?:walking|lurking|prowling|circling|creeping|going) (?:around|round) (?:our|my|the) (?:compound|house|home|plot|gate|fence|place)\b| (?:tourne|tournent|rode|rodent) autour de (?:notre|ma|la|nos|mon) (?:maison|parcele|cour|portail|chambre)\b| (?:uzenguruka|azenguruka|bazenguruka|bazengurutse|yazengurutse) (?:urugo|inzu|iwacu|iwanjye)\b/,
  ],
  // Ending everything ("ending everything tonight", "kurangiza byose", "tout arrêter pour
  // toujours").
  [
    "danger",
    / (?:end|ending|finish|finishing) (?:everything|it al|my life)\b| (?:kurangiza|kwirangiza|nirangize|ndangize) (?:byose|ubuzima)\b| tout arreter pour toujours\b/,
  ],
  // Children left alone for days or without food.
  [
    "danger",
    / (?:children|kids|child|baby|abana|umwana|enfants|enfant|bebe)\b.* (?:alone|bonyine|wenyine|seuls?|seules?)\b.* (?:days|without food|no food|nta biryo|iminsi|jours|sans manger|sans nouriture)\b/,
  ],
  // Hiding under or in something ("les enfants sont cachés sous le lit").
  [
    "danger",
    / (?:cache|caches|cachee|cachees) (?:sous|dans|derriere) (?:le|la|les|l|un|une)\b| (?:hiding|hid) (?:under|behind|inside) (?:the|a|my|our)\b/,
  ],
  // Someone trying to open the door ("des types essaient d'ouvrir ma porte").
  [
    "danger",
    / (?:essa\w*|tent\w*) d (?:ouvrir|entrer|forcer|casser) (?:ma|notre|la|chez|nos|mon)\b/,
  ],
  // Hurting someone, Kinyarwanda "-babaz-" with a person as its object ("umugabo aramubabaza");
  // "birambabaza" (it saddens me) has no person doing it.
  ["violence", / (?:a|ba|ara|bara|ya|yara|aza|baza)(?:mu|n|m|ba|tu|du)babaz\w*\b/],
  // Touched again and again against one's will, Kinyarwanda "-korakora" with a person as its
  // object ("ahora ankorakora", "yamukorakoye").
  ["violence", / \w*(?:nkorakor|mukorakor|dukorakor|bakorakor)\w*\b/],
  // Poison swallowed: a household poison drunk, or a child who swallowed pills.
  [
    "danger",
    / (?:drank|drunk|swalowed|swallowed|ate|yanyoye|\w*nyweye|yamize|yariye|a bu|a avale|avale) (?:\w+ ){0,4}(?:parafin|paraffin|kerosene|petrol|bleach|jik|javel|poison|pesticide|insecticide|acid|uburozi|peteroli|lisansi|essence|umuti w imbeba)\b| (?:umwana|uruhinja|child|baby|kid|toddler|enfant|bebe|petit|petite|fils|fille)\b.* (?:\w*amize|\w*anyoye|\w*nyweye|yariye|swalowed|swallowed|a avale|a mange|ate|got into) (?:\w+ ){0,2}(?:ibinini|umuti|pils|tablets|medicine|medicines|comprimes|medicaments)\b/,
  ],
  // Someone who fainted or does not respond; a person hit on the road or lying there.
  [
    "danger",
    / (?:fainted|passed out|blacked out|unresponsive)\b| (?:she|he|they|my \w+|our \w+) (?:is |are )?(?:not responding|isn t responding|not moving)\b| (?:hit|knocked down|knocked|ran over|run over) (?:a|the|my|our) (?:moto|motorbike|person|child|kid|man|woman|pedestrian|cyclist|bike|rider|boy|girl)\b| lying (?:on the road|on the ground|in the road|unconscious)\b/,
  ],
  // Not seen for days; kept from leaving; money sent to a number that no longer exists.
  [
    "danger",
    / (?:hasn t|has not|haven t|have not|not) been seen (?:for|since)\b| (?:m|l|nous|la|le|les) (?:empeche|empechent|empechait) de (?:sortir|partir|quiter|travailer)\b/,
  ],
  [
    "theft",
    / (?:sent|paid|transfered|transferred|envoye|paye|nohereje|nishyuye)\b.* (?:no longer exists|doesn t exist|does not exist|n existe plus|ntikiriho|ntikibaho|ntibaho)\b/,
  ],
  // Medical emergencies said as symptoms: fits, blood vomited, a snake or dog bite.
  [
    "danger",
    / seizure\w*| convuls\w*| \w*gagar\w*\b| (?:vomit\w*|coughing up|throwing up) blod\b| (?:vomi\w*|crache\w*) du sang\b| \w*ruka amaraso\b| (?:snake|dog) (?:bit|bite|has bitten)\b| bitten by a (?:snake|dog)\b| mordu\w* par un (?:serpent|chien)\b| serpent (?:l a|m a|a) mordu\b| inzoka (?:ya|y)?\w*(?:rumye|riye)\b/,
  ],
  // Taken out of a pocket or bag; a stone thrown at someone; a PIN used by someone else.
  [
    "theft",
    / \w*nkuye\w*(?: \w+){0,2} mu (?:mufuka|isakoshi|gikapu|sakoshi)\b|(?<! i) (?:used|stole|got|took) my (?:momo |mobile money |bank )?(?:pin|code|password|otp)\b| (?:utilise|vole|pris) mon (?:code|pin|mot de pase)\b/,
  ],
  ["violence", / \w*teye (?:ibuye|amabuye|urutare)\b/],
  // An adult seeking a child alone (grooming); attackers named ("des bandits ont attaqué").
  [
    "danger",
    / (?:voir|rencontrer|trouver) seule?\b| (?:meet|see) (?:her|him|my (?:daughter|son|child|kid|girl|boy|niece|nephew)) alone\b| (?:amubone|bahure|ahure|bahura|ahura|bahurire) (?:na we )?(?:ari )?(?:wenyine|bonyine)\b/,
  ],
  ["violence", / (?:bandits?|gangsters?|malfrats?|abambuzi)\b| ataqu\w*\b/],
  // Someone else withdrawing the sender's money; a person who collapsed and cannot speak.
  [
    "theft",
    / (?:someone|somebody|quelqu un|qqn|umuntu|un inconu)\b(?: \w+){0,2} (?:withdrew|withdrawn|retire|yakuye|yabikuje)\b/,
  ],
  [
    "danger",
    / (?:fait|fais|faire|eu) un malaise\b| ne parle plus\b| (?:he|she) (?:can t|cannot|can not) (?:talk|speak|move)\b| (?:yaguye|yituye|aguye)\b.* (?:ntashobora kuvuga|ntavuga|ntahumeka|ntabasha)\b/,
  ],
  // Someone who went off with the sender's thing and never came back, or is unreachable.
  [
    "theft",
    / (?:never|jamais|not|didn t|did not|hasn t|has not|pas) (?:came|come|revenu|revenue|returned|rentre) (?:back )?(?:with|avec)\b| (?:ordi|ordinateur|portable|laptop|moto|voiture|sac|colis|argent)\b.* (?:tel|telephone|portable) (?:est )?(?:eteint|coupe|ferme)\b/,
  ],
  // Threats said as a time the sender will not live to see ("you won't see next week",
  // "tu ne verras pas la fin du mois", "ntuzarenza icyumweru"), by text or in person.
  [
    "violence",
    / (?:i|you|we|he|she|they) (?:won t|wont|wil not|wil never|are not going to|am not going to|is not going to) (?:see|live to see|make it to|survive|reach) (?:next|tomorrow|the end|another|this (?:week|month|year))\b| ne (?:verrai|verras|verra|vivrai|vivras|vivra|passerai|passeras|passera) pas (?:la semaine|demain|le mois|la fin|noel|l annee|ce mois|cette semaine)\b| (?:ntazarenza|ntuzarenza|sinzarenza|ntazabona|ntuzabona|sinzabona|ntazamara|ntuzamara|sinzamara|ntazageza|ntuzageza|sinzageza) (?:icyumweru|ejo|ukwezi|umwaka|noheli|iminsi)\b/,
  ],
  // A relative who cannot be found ("my grandmother walked out and we can't find her").
  [
    "danger",
    new RegExp(
      ` ${KIN}\\b.* (?:can t|cannot|can not|couldn t|still can t) find (?:her|him|them)\\b`,
    ),
  ],
  // Too many pills swallowed by anyone, not only a child ("swallowed a whole strip of her
  // pills", "yamize ibinini byose", "a avalé toute une plaquette"); "took all my pills today"
  // is a dose.
  [
    "danger",
    / (?:swallowed|overdosed on|drank) (?:\w+ ){0,4}(?:pills|tablets|medicine|medication|sleeping)\b| took (?:too many|a whole|the whole|a handful of|a bunch of)(?: \w+){0,3} (?:pills|tablets)\b| (?:yamize|yanyoye|namize|yariye|bamize)(?: \w+){0,2} (?:ibinini|imiti)(?: \w+)? (?:byose|byinshi|myinshi|yose|icyarimwe)\b| (?:avale|pris|bu) (?:toute? (?:une|la|sa|ses|les)|tous (?:ses|les|mes)|beaucoup de|trop de|une boite de|toute la boite)(?: \w+){0,3} (?:comprimes|cachets|medicaments|pilules)\b/,
  ],
  // Poison bought for oneself ("it's not for the rats, it's for me").
  [
    "danger",
    / (?:poison|uburozi|umuti w imbeba|mort aux rats)\b.* (?:for me|for myself|pour moi|ni uwanjye|ari uwanjye|ni uwo kwiyahura)\b/,
  ],
  // Bleeding that will not stop, in any of the three languages.
  [
    "danger",
    / (?:blood|bleeding)\b.* (?:won t|wont|doesn t|does not|wil not|can t|cannot) stop\b| amaraso\b.* (?:ntahagarara|ntiyahagarara|ntiyahagaze|ntahagaze|menshi cyane|aracyava|arimo kuva|ari kuva)\b| saign\w* (?:sans arret|beaucoup|abondamment|enormement)\b/,
  ],
  // A person lying on the road or not moving after a crash or a shock ("umumotari aryamye mu
  // muhanda", "il est par terre et ne bouge plus", "le gars est par terre" after a collision).
  [
    "danger",
    / (?:aryamye|baryamye|uryamye) (?:mu muhanda|hasi|ku muhanda|ku butaka)\b| (?:ntanyeganyega|ntakinyeganyega|atanyeganyega)\b| (?:il|elle|gars|homme|femme|enfant|voisin|voisine|pere|mere|frere|soeur|ami|amie|bebe|mari)\b(?: \w+){0,6} ne bouge (?:plus|pas)\b| (?:percut\w*|heurt\w*|fauch\w*)\b.* par terre\b/,
  ],
  // Snatched, Kinyarwanda "gushikuza" in any form ("bamaze kunshikuza igikapu").
  ["theft", / \w*shiku(?:z|j)\w*\b/],
  // A face swollen or bruised with a partner or drink in the story (violence at home told
  // without a harm word), unless it is about drops or an allergy.
  [
    "violence",
    /^(?!.* (?:drops|gouttes|umuti|allerg\w*|cream|creme|pommade)\b)(?=.* (?:drunk|husband|wife|boyfriend|girlfriend|partner|ivre|saoul|mari|copain|yasinze|umugabo|umugore))(?=.* (?:swollen|black|bruised|busted) (?:eye|lip|face)\b|.* (?:oeil|visage|levre|levres) (?:gonfle\w*|au beurre noir|tumefie\w*)\b|.* (?:ijisho|isura|umunwa|iminwa)(?: \w+)? \w*byimb\w*\b)/,
  ],
  // Hiding, Kinyarwanda ("nihishe mu bwiherero").
  ["danger", / (?:nihishe|twihishe|yihishe|bihishe|ndihisha|turihisha) (?:mu|munsi|inyuma)\b/],
  // A stranger watching the house night after night (Kinyarwanda: "acunga inzu buri joro";
  // a guard hired to watch it names no stranger).
  [
    "danger",
    / (?:umugabo|umuntu|abantu|umusore|abasore)\b(?!.* (?:umuzamu|abazamu|akazi))(?=.* (?:buri joro|nijoro|buri munsi))(?=.* (?:acunga|bacunga|areba|bareba|arekereza|barekereza) (?:inzu|urugo|iwanjye|iwacu))/,
  ],
  // Someone fallen into water, a well or a pit ("a child fell into the water tank").
  [
    "danger",
    / (?:fell|fallen|falen|slipped) (?:into|in) (?:a|the|an|our) (?:\w+ ){0,2}(?:water|tank|wel|pit|river|lake|pool|latrine|hole)\b| (?:yaguye|baguye|yaroshye) mu (?:kigega|iriba|umwobo|mazi|kiyaga|mugezi|musarane|cyobo)\b| tombee? dans (?:la|le|un|une|l) (?:\w+ ){0,2}(?:citerne|puits|riviere|lac|piscine|trou|latrine|eau)\b/,
  ],
  // A break-in found on coming home: the way in forced and the things gone.
  [
    "theft",
    / (?:door|window|gate|lock)\b(?: \w+){0,3} (?:broken|forced|smashed|kicked in)\b.* (?:gone|missing|taken|empty)\b| (?:porte|fenetre|serrure|portail)\b(?: \w+){0,3} (?:forcee?|cassee?|fracturee?|defoncee?)\b.* (?:disparu|vole\w*|plus la|pris|vide)\b| (?:inzu|urugi|idirishya|iduka)\b.* \w*men\w*\b.* ibintu\b.* (?:byagiye|batwaye|\w*ibwe|byabuze|ntibihari|byose)\b/,
  ],
  // Too much medicine taken, said with "too much" first or by the one who took it.
  [
    "danger",
    / trop (?:pris|bu|avale) de (?:medicaments|comprimes|cachets|pilules)\b| (?:nanyoye|twanyoye|nafashe|yafashe) (?:imiti|ibinini)(?: \w+)? (?:myinshi|byinshi|icyarimwe)\b/,
  ],
  // A lock cut and things taken ("they cut the padlock and took the goats").
  [
    "theft",
    / cut (?:the|my|our) (?:padlock|lock|chain|fence)\b.* (?:took|taken|stole|gone|missing)\b/,
  ],
  // Beaten, in French said as blows received or a face in blood ("a reçu des coups").
  [
    "violence",
    / (?:recu|pris|prend|prenait|recoit) des coups\b| (?:visage|tete|bouche|nez|figure) (?:est |etait )?(?:en sang|couvert de sang)\b/,
  ],
  // Grabbed by the neck or the hair, Kinyarwanda "-fat-" with a person as its object.
  [
    "violence",
    / \w*(?:mfashe|nfashe|mufashe|dufashe|bafashe|mufata|mfata|dufata)\w* (?:mu|ku) (?:ijosi|muhogo|musatsi|mukufi)\b/,
  ],
  // Stuck in a lift ("stuck in the lift", "coincé dans l'ascenseur", "naheze muri lift").
  [
    "danger",
    / stuck in (?:the|a|an) (?:lift|elevator)\b| (?:bloque|coince)\w* dans (?:l|un) ascenseur\b| \w*heze (?:muri|mu) (?:lift|asanseri|ascenseur)\b/,
  ],
  // Not wanting to live any more, in French ("je ne veux plus vivre", "marre de la vie").
  ["danger", / ne (?:veux|veut|voulons) plus vivre\b| (?:marre|fatigue\w*) de (?:la vie|vivre)\b/],
  // Feeling that one is dying ("I feel like I'm going to die", "numva ngiye gupfa"), not
  // of hunger or laughter.
  [
    "danger",
    /^(?!.* (?:hunger|laugh\w*|inzara|inyota|guseka|faim|rire)\b).* (?:(?:feel|feels|felt) like (?:i m|i am|he s|he is|she s|she is) (?:going to|gona|about to) die|(?:numva|yumva|ndumva|arumva) (?:ngiye|agiye|ndi hafi yo|ari hafi yo) gupfa|je me sens partir)\b/,
  ],
  // --- Concepts of the fourth round (issue 24 item 6), each said in the three languages. ---
  // Self-harm hinted by its warning signs: being a burden, nobody missing the sender, goodbye
  // letters, belongings given away, a bridge or roof and "how easy it would be".
  [
    "danger",
    / (?:stop being|tired of being|no longer be|i am|i m|im) a burden\b| (?:kubabera|mbabera|ndi|nababereye) umutwaro\b| (?:arete|areter|arrete|fatigue) d etre un (?:poids|fardeau)\b| (?:suis|etre) un (?:poids|fardeau) pour\b/,
  ],
  [
    "danger",
    / (?:nobody|no one|noone) (?:wil|would|is going to|gona) (?:mis|care about|notice|cry for) me\b| ntawe (?:uzankumbura|uzanyibuka|uzambabarira|uzambura)\b| persone (?:ne )?(?:va|vont|vais) me (?:regreter|manquer|pleurer)\b| persone (?:ne )?me (?:regretera|manquera|pleurera)\b/,
  ],
  [
    "danger",
    /^(?=.* (?:nobody|no one|anyway|goodbye|forgive|ntawe|mumbabarire|persone|adieu|pardon|de toute facon|tonight|ce soir|iri joro)\b)(?=.* (?:gave|giving|given) away (?:al )?my (?:stuf|things|belongings|clothes)\b|.* natanze ibintu byanjye byose\b|.* (?:donne|distribue) (?:toutes |tous )?mes (?:afaires|choses|biens)\b|.* (?:wrote|writen|writing|ecrit|nandikiye|nanditse)\b.* (?:leters|letres|amabaruwa|goodbye|adieu)\b)/,
  ],
  [
    "danger",
    / (?:bridge|pont|ikiraro|kiraro|roof|rooftop|toit)\b.* (?:how easy|would be easy|ce serait (?:facile|simple)|serait (?:facile|simple)|byaba byoroshye|byoroshye|to jump|de sauter|gusimbuka|kwijugunya)\b/,
  ],
  // A threat with a condition: someone says they will act against the sender unless paid or
  // obeyed ("they'll break my things if I don't pay", "si je paie pas", "nintishyura").
  [
    "violence",
    /^(?=.* (?:says|said|saying|threaten\w*|dit|disent|disant|menace\w*|avuga|bavuga|ngo)\b)(?=.* (?:if|unles) (?:i|we) (?:don t|dont|do not|can t|cant)? ?(?:pay|come back|return|give|send|leave)\b|.* si (?:je|j|on|nous) (?:ne |n )?(?:paie|paye|payons|reviens|rentre|rends|donne|envoie)\b|.* \w*(?:ntishyura|ntamwishyura|ntabishyura|ntagaruka|ntamuha|ntabaha|dutishyura)\b)(?=.* (?:break|smash|throw|beat|burn|kick|hurt|kil|cas\w*|jet\w*|frap\w*|brul\w*|tuer|\w*mena|\w*sohora|\w*kubit\w*|\w*twik\w*)\b)/,
  ],
  // Someone alone who has not opened the door, or cannot be roused after a fall.
  [
    "danger",
    / (?:neighbour|neighbor|voisin\w*|umuturanyi|umukecuru|umusaza|old (?:lady|man|woman)|vieil\w*|vieux|grandma|grandpa|granny)\b.* (?:doesn t open|does not open|won t open|hasn t opened|has not opened|not opened|n ouvre pas|ouvre pas|a pas ouvert|n a pas ouvert|ntakingura|ntafungura|adafungura|ntiyakinguye|ntiyafunguye)\b/,
  ],
  [
    "danger",
    / (?:(?<!rain )fel (?:from|of|in|on)|falen|slipped|glise\w*|tombe\w*|yanyereye|(?<!(?:imvura|telefoni|telefone) )yaguye|yituye hasi|rwaguye|aguye)\b.* (?:not answering|doesn t answer|isn t answering|not responding|won t wake|repond pas|ne repond plus|ntansubiza|ntasubiza|ntiyitaba|ntavuga|ntakanguka)\b/,
  ],
  [
    "danger",
    / (?:(?<!rain )fel (?:from|of|in|on)|falen|tombe\w*|(?<!(?:imvura|telefoni|telefone) )yaguye|rwaguye|aguye)\b.* (?:head|tete|umutwe)\b.* (?:vomit\w*|sleep\w*|drows\w*|vomi\w*|dort|endormi|\w*ruka|\w*sinzira|ntakanguka)\b/,
  ],
  // Gas smelt, in any order ("impumuro ikaze ya gaz", "ça sent le gaz").
  [
    "danger",
    / (?:smel\w*|odeur|impumuro|umunuko|hanuka|haranuka)\b(?: \w+){0,5} (?:gas|gaz|gaze)\b| sent (?:fort )?(?:le |du )?(?:gas|gaz)\b| (?:gas|gaz|gaze)\b(?: \w+){0,3} (?:smel\w*|odeur|impumuro|umunuko)\b/,
  ],
  // People under a vehicle or a wall ("hari abantu bayiheze munsi"), a vehicle overturned.
  [
    "danger",
    / \w*heze\b.* (?:munsi|imbere)\b| (?:abantu|umuntu)\b.* munsi (?:yayo|yawo|yabyo|yarwo|yacyo|yaryo|y imodoka|y ikamyo|y inzu|y urukuta)\b| \w*birindu\w*\b/,
  ],
  // A beating hidden behind a fall ("I told everyone I fell on the stairs but it was him").
  [
    "violence",
    / (?:told|said|tel|dit|nabwiye|mvuga|navuze)\b.* (?:fel (?:from|of|in|on|down)|tombe\w*|naguye)\b.* (?:but|mais|ariko) (?:it was|c etait|c est|ni) (?:him|her|lui|ele|we)\b/,
  ],
  // Intimate photos used against someone, and impersonation by a fake account or payment.
  [
    "violence",
    /^(?=.* (?:nude|nudes|naked|nues?|intimes?|nambaye ubusa|yambaye ubusa|\w*bwambure)\b)(?=.* (?:send|post|share|publish|leak|envoy\w*|publi\w*|partag\w*|\w*ohere\w*|hanze)\b)/,
  ],
  [
    "theft",
    / (?:fake|faux|fause)\b(?: \w+){0,2} (?:acount|profile|compte|profil|konti|message|momo|sms|payment|paiement)\b| (?:konti|ubutumwa|message|momo)\b(?: \w+){0,3} (?:w |bw |y )?impimbano\b/,
  ],
  // Gone with the sender's thing, in other words ("ahita agenda na moto yanjye", "il vient
  // de partir avec ma moto").
  [
    "theft",
    / (?:ahita agenda|agenda|yagenda|aragenda|bagenda|ahita yigendera) na ?(?:moto|imodoka|telefoni|telefone|amafaranga|igikapu|ibintu|isakoshi)\b| (?:vient|viennent|venait) de (?:partir|filer|s enfuir|fuir) avec (?:mon|ma|mes|notre|nos)\b/,
  ],
  // French "me taper" (to hit me), not "taper sur les nerfs" or a text to type.
  [
    "violence",
    / (?:me|m|nous) (?:taper|tapent|tapait)\b(?! (?:sur les nerfs|le texte|un texte|un message|le code))| (?:il|ele|ils|qui|mari|copain|pere|mere|frere|voisin|patron|chef) me tape\b(?! (?:sur les nerfs|le texte|un texte|un message|le code))/,
  ],
  // Nowhere to be found, in French, by the people searching ("on le trouve nulle part"; a
  // product not found is "je le trouve nulle part").
  ["danger", / on (?:ne |n )?(?:le|la|les|l) (?:trouve|retrouve) nule part\b/],
  // Breaking glass heard, someone coming in ("du verre qui casse en bas", "ibirahuri bimeneka").
  [
    "danger",
    / (?:glas|verre|vitre|vitres|ibirahuri|ikirahuri)\b(?: \w+){0,2} (?:breaking|smashing|shatering|qui case|qui se brise|bimeneka|kimeneka)\b/,
  ],
  // Knowing where the children study ("bazi aho abana banjye biga").
  ["violence", / (?:azi|bazi) aho (?:abana|umwana|umukobwa|umuhungu)\b/],
  // Someone who took or drank something and now cannot stand, talk or move.
  [
    "danger",
    /^(?=.* (?:drank|drunk|ate|took|swalowed|injected|smoked|a bu|a mange|a pris|a avale|\w*nyoye|\w*riye|\w*mize|yafashe))(?=.* (?:can t|cannot|unable to|no longer) (?:stand|talk|walk|speak|move|breathe|se)\b|.* (?:ne peut plus|n arive plus a|ne sait plus) (?:parler|marcher|se lever|bouger|respirer|voir)\b|.* (?:ntashobora|ntabasha|ntakibasha|ntagishobora) (?:kuvuga|guhaguruka|kugenda|guhagarara|kunyeganyega|guhumeka|kureba)\b)/,
  ],
  // Vengeance promised ("you'll pay for what you did", "tu vas me le payer").
  [
    "violence",
    / (?:i l|i wil|you l|you wil|u wil|u l|ul|you re going to|you are going to) pay for (?:this|that|what (?:i|you) (?:did|have done|ve done))\b| tu (?:vas|va) me le payer\b| tu me le paieras\b| vous me le paierez\b/,
  ],
  // A driver who drank, in French and Kinyarwanda ("le chauffeur a bu, il conduit n'importe
  // comment", "umushoferi yasinze").
  [
    "danger",
    / (?:chaufeur|conducteur|motard|taximan)\b.* (?:a (?:trop )?bu\b(?! (?:un|une|du|de l|de la|le|la|mon|son))|ivre|saoul|bourre|zigzag\w*|n importe comment)| (?:umushoferi|umumotari)\b.* (?:yasinze|arasinze|yarasinze|yanyoye inzoga|azunguza)\b/,
  ],
  // No wish to wake up or live any more.
  [
    "danger",
    / (?:n ai plus|plus) envie de (?:vivre|me reveiler|continuer)\b| (?:don t|dont|do not) want to (?:wake up (?:anymore|again|ever)|live anymore|exist)\b| no reason to (?:live|wake up|go on)\b| (?:sinshaka|ntashaka) kongera (?:kubyuka|kubaho)\b| nta mpamvu yo kubaho\b/,
  ],
  // Someone pounding on the door ("banging on my door and shouting my name").
  [
    "danger",
    / (?:banging|pounding|kicking|hammering|bangs|pounds|kicks) (?:on|at) (?:my|our) (?:door|gate|window|windows)\b/,
  ],
  // Money extorted on a schedule ("protection money every friday"), a person found hanging,
  // someone drowning, smoke with someone inside who does not answer.
  [
    "violence",
    / (?:protection money|demanding money|demand money|ask\w* (?:me |us )?for money every)\b| (?:exigent|reclament|demandent) de l argent (?:chaque|tous)\b| (?:racket\w*|ranson|rancon|ransom)\b/,
  ],
  [
    "danger",
    / (?:found|saw|see|trouve|trouvee|vu|nasanze|twasanze|mbonye)\b(?: \w+){0,3} (?:hanging|pendu|pendue|yimanitse|yiyahuye)\b| \w*imanitse\b/,
  ],
  [
    "danger",
    / (?:is|are|was|were|s|re|started|keps) drowning\b(?! in (?:debt|work|bils|paperwork|emails|orders))| (?:se noie|se noient|s est noye\w*|en train de se noyer)\b| \w*(?:rohama|rohamye|rohamba)\b/,
  ],
  [
    "danger",
    / (?:ful of|filed with|plein de|pleine de|huzuye|yuzuye|huzuye) (?:smoke|fumee|umwotsi)\b| (?:smoke|fumee|umwotsi)\b.* (?:not answering|isn t answering|doesn t answer|not responding|ne repond|ntitaba|ntiyitaba|ntasubiza|ntansubiza)\b/,
  ],
  // --- Concepts of the sixth round (issue 24 item 6, safety6). ---
  // Breathing failing with a sign that it is serious (blue lips, a tight chest), or air lost
  // ("nabuze umwuka"), whoever the person.
  [
    "danger",
    / (?:can t|cannot|can not|struggling to|unable to|hard to) breathe\b.* (?:lips|chest|blue)\b| (?:arrive|peux|peut|arrivons) (?:plus|pas) a respirer\b.* (?:levres|poitrine|bleu\w*)\b| (?:nabuze|mbuze|yabuze|twabuze|abuze|ndabura|arabura) umwuka\b| (?:lips|levres|iminwa)\b(?: \w+){0,4} (?:blue|bleues?|ubururu)\b/,
  ],
  // Watched: a caller who describes what the sender wears, or keeps calling hidden.
  [
    "danger",
    / (?:describ\w*|knows|knew|tels me|told me|decri\w*|sait|savent|ambwira|azi|bazi)\b(?: \w+){0,2} (?:what i m wearing|what i am wearing|what i wear|what i wore|ce que je port\w*|imyenda (?:nari )?nambaye)\b| (?:kep|keps|always|n arete pas de) (?:calling|texting|m apeler)\b.* (?:hidden|private|unknown|masque|cache)\b| (?:hidden|private|unknown) number\b.* (?:keps|every night|again and again)\b| (?:numero masque|numero cache|nimero ihishe|nimero yihishe)\b.* (?:\w*mpamagar\w*|m apel\w*|calls? me)\b| (?:\w*mpamagar\w*|m apel\w*) (?:\w+ ){0,3}(?:numero masque|numero cache|nimero ihishe|nimero yihishe)\b/,
  ],
  // Visits to a child's bed at night, or silence imposed, told as a question or not.
  [
    "violence",
    / (?:comes?|came|enters?|entered|gets?) (?:in|into|inside) my (?:rom|bed|bedrom)\b(?: \w+){0,3} (?:at night|when (?:everyone|mum|mom|they) (?:is |are )?(?:asleep|out))\b| (?:tels|told|says|said|asks|asked|makes|made) me (?:to )?(?:kep (?:quiet|silent|it (?:a )?secret)|not (?:to )?tel (?:anyone|anybody|mum|mom))\b(?=.* (?:night|rom|bed|touch\w*|normal)\b)/,
  ],
  // Followed, in French ("je suis suivie depuis l'arrêt", "il est toujours derrière moi").
  [
    "danger",
    / (?:suis|est|sommes) suivie?s?\b(?= (?:depuis|par (?:un|des|une|quelqu)|partout|jusqu))| (?:il|ele|quelqu un|un homme|un type|un mec|ils) (?:est |sont )?(?:toujours |encore )?derriere (?:moi|nous)\b/,
  ],
  // Life without meaning, in French ("je vois plus l'intérêt de vivre", "je pense à en finir").
  [
    "danger",
    / (?:plus|pas|aucun|aucune) (?:l |le |la )?(?:interet|sens|raison) (?:de|a) (?:vivre|ma vie|sa vie|la vie)\b| pense\w* a en finir\b/,
  ],
  // Followed, in Kinyarwanda: "-kurikir-" with the sender as its object ("arankurikira",
  // "bankurikiye") or in the passive by a person ("ndimo gukurikiranwa n'umugabo"); a case
  // followed up ("nabikurikirana") has a thing as its object.
  [
    "danger",
    / \w*(?:ankurikir|bankurikir|barankurikir|arankurikir|mankurikir)\w*\b| (?:ndimo|ndi|turimo|ndmo|ndi kuba) (?:gukurikiranwa|gukurikirwa) n (?:umuntu|abantu|umugabo|abagabo|umusore|abasore|imodoka|moto|umumotari)\b/,
  ],
  // Choking on a thing swallowed ("swallowed a coin and is choking", "yamize igiceri ari
  // kunigwa", "il s'étouffe"); a fall and no answer, in English.
  [
    "danger",
    /(?<!(?:price|prices|rent|tax|taxes|debt|bil|bils|cost|costs|trafic)) (?:is |s |are |started |keps )choking\b(?! (?:on |the |my |our )*(?:price|prices|bil|business|shop|sales|market|economy|profits?))| (?:s etoufe|s etoufent)\b| \w*(?:ri|ra) kunigwa\b| swalowed a (?:coin|batery|magnet|pin|button)\b/,
  ],
  [
    "danger",
    / (?:fel|falen|colapsed)\b.* (?:isn t|isnt|is not|not|won t|doesn t|does not) (?:answering|responding|waking|moving|pick\w* up)\b/,
  ],
  // A fall and no answer, in any order ("mama ntiyitaba kuva mu gitondo, yaguye mu gikoni").
  [
    "danger",
    /^(?=.*(?<!(?:imvura|rain|pluie|neige|snow|price|prices|prix|phone|telefoni|tel|telephone|laptop|screen|ecran|network|reseau|it|i|ca)) (?:yaguye|aguye|yituye hasi|yikubise hasi|fel|falen|colapsed|tombe|tombee|efondre\w*)\b)(?=.* (?:ntiyitaba|ntitaba|ntasubiza|ntakanguka|ntanyeganyega|not answering|isn t answering|won t wake|repond (?:plus|pas)|se reveile pas|bouge (?:plus|pas))\b)/,
  ],
  // Sex forced by a partner, said without a harm word ("il me force quand je veux pas").
  [
    "violence",
    / (?:me|m) (?:force|forcent|forcait|oblige|obligent)\b(?: \w+){0,2} (?:quand|alors que|meme si|meme quand) (?:je )?(?:ne )?(?:veux|voulais) pas\b| (?:forces|forced) me (?:when|even when|although|though) i (?:don t|dont|do not|didn t|did not) want\b/,
  ],
  // Money taken from the sender's account just now, by someone unknown ("bankuyeho amafaranga
  // yose kuri momo ubu", "someone is emptying my account").
  [
    "theft",
    / (?:bankuyeho|yankuyeho|bankuriyeho|yankuriyeho|bamaze gukuraho)(?: \w+){0,2} amafaranga\b(?=.* (?:sinzi|ntazi|utazwi|ubu|nonaha|ubungubu))| (?:emptying|emptied|draining|drained) my (?:acount|momo|wallet|bank)\b| (?:vide|vident|videz|vidé) mon (?:compte|momo|porte monaie)\b/,
  ],
  // About to die ("agiye gupfa", "il va mourir", "he's dying"), not of laughter or hunger.
  [
    "danger",
    / (?:agiye|ari hafi|ari|arimo|ageze aho) (?:gupfa|kwitaba imana)\b|(?<!(?:phone|batery|battery|plant|plants|car|laptop|tree|flowers|business|grass|signal|engine|fire|it|light|conversation|party)) (?:is|s) dying\b(?! (?:to|of|for|laughing|down))| (?:il|ele) (?:va|est en train de) mourir\b(?! (?:de rire|de faim|d envie|d ennui))/,
  ],
  // A stroke's signs ("her face is drooping", "his arm went weak", "ijambo ryamwanze").
  [
    "danger",
    / (?:face|mouth|smile) (?:is |was |s )?(?:drooping|droped|twisted|crooked)\b| (?:arm|leg|side) (?:went|goes|is|suddenly|has gone) (?:weak|numb|limp)\b| (?:visage|bouche) (?:est )?(?:tordue?|paralyse\w*|de travers)\b| (?:slured|slurred) (?:speech|words)\b/,
  ],
  // A fit with a fever or a child, an epileptic crisis ("she is having a fit", "crise
  // d'épilepsie", "yafashwe n'igicuri").
  [
    "danger",
    /^(?=.* (?:fever|temperature|baby|child|kid|toddler|daughter|son|girl|boy|umwana|uruhinja)\b)(?=.* (?:having a fit|had a fit|is fitting|fits)\b)| crise d epilepsie\b| (?:yafashwe|afashwe|arwaye) n igicuri\b| epileptic (?:fit|seizure)\b/,
  ],
  // An adult asking a child for photos or a meeting ("un adulte qui lui demande des photos").
  [
    "violence",
    /^(?=.* (?:num ans|num years? old|num yo|imyaka num|fille|daughter|umukobwa|son|fils|umuhungu|child|enfant|umwana)\b)(?=.* (?:adulte|adult|grown man|old man|umuntu mukuru|umugabo|un homme|a man)\b)(?=.* (?:asks?|asking|demande|amusaba|amusab\w*|wants?|veut|ashaka) (?:her |him |lui |me )?(?:for )?(?:des |ses |amafoto |to meet|de le rencontrer)?(?:photos?|pictures?|pics|amafoto|ifoto|rencontrer|meet)\b)/,
  ],
  // Someone shut in a room for days who does not answer ("hasn't come out of her room for 2
  // days and doesn't answer", "il est enfermé depuis hier et répond pas").
  [
    "danger",
    /^(?=.* (?:rom|chambre|icyumba|bathrom|toilet|toilettes|ubwiherero)\b)(?=.* (?:num days|since yesterday|since morning|depuis (?:num jours|hier|ce matin)|iminsi num|kuva ejo|kuva mu gitondo)\b)(?=.* (?:doesn t answer|does not answer|not answering|isn t answering|won t answer|ne repond (?:pas|plus)|repond (?:pas|plus)|ntitaba|ntiyitaba|ntasubiza)\b)/,
  ],
  // Someone in the sender's account taking money ("someone is using my momo and money keeps
  // leaving", "hari umuntu winjiye muri konti yanjye akuraho amafaranga"); a shared Netflix
  // password moves no money.
  [
    "theft",
    /^(?=.* (?:someone|somebody|quelqu un|umuntu|stranger|inconu)\b)(?=.* (?:acount|momo|compte|konti|banki|bank|wallet)\b)(?=.* (?:money (?:keps|is|kep) (?:leaving|going|disapearing)|\w*kuraho amafaranga|\w*kuyeho amafaranga|retire\w* (?:de l|mon|l) argent|emptying|withdrawing|withdrew|transfering (?:my )?money|l argent (?:part|disparait))\b)/,
  ],
  // Money moved out of the sender's account or line by a transfer they disown ("the bank texts
  // that 800k was transferred out, I didn't do it", "on a retiré 300k de mon compte, c'est pas
  // moi", "konti yanjye yakuweho 100k, si jye"): someone else is in the account now.
  [
    "theft",
    /^(?=.* (?:acount|momo|compte|konti|banki|bank|wallet|line|sim|simukadi|puce|card|carte|ikarita)\b)(?=.* (?:transfered|withdrawn|withdrew|debited|taken out|sent out|went out|transfere|transferes|transferer|retire|retires|retirer|debite|debiter|preleve|prelever|vire|hoherejwe|byoherejwe|yabikujwe|yakuweho|yakuwe)\b)(?=.* (?:i didn t do (?:it|that|this|them)|i did not do (?:it|that|this|them)|it wasn t me|it was not me|c est pas moi|ce n est pas moi|c etait pas moi|ce n etait pas moi|si jye|sinjye|ntabwo ari jye)\b)/,
  ],
  // A person kept locked in ("keeps my sister locked in", "la garde enfermée").
  [
    "violence",
    / (?:keps|kep|kept|keping|has|had) (?:me|us|him|her|them|my \w+|our \w+) locked (?:in|up|inside)\b/,
  ],
  // Burned on purpose by someone ("she burns me with a hot iron").
  ["violence", / (?:burn|burns|burned|burnt) (?:me|us|him|her|my \w+) with\b/],
  // Bitten by a snake, in the Kinyarwanda passive ("yarumwe n'inzoka").
  ["danger", / \w*rumw\w* n inzoka\b/],
] as Array<[SafetyConcern, RegExp]>).map((
  [concern, pattern],
) => [concern, singleLetters(pattern)]);

// Kinyarwanda verbs carry a chain of prefixes (negation, subject, tense, object:
// "nti-ya-n-kubit-e", "a-za-ny-ic-a") and an inflectional ending ("-a", "-ye", "-we",
// "-ishije", "-iwe", "-ira"), so one root has hundreds of written forms. A word is read
// as a harmful root when it is nothing but such prefixes, the root and such an ending,
// which keeps "ikubitiro" or "gutwikira inkono" (to cover a pot, no object) apart.
const RW_PREFIX_CHAIN =
  "(?:nti|nta|si|ku|gu|kw|gw|tu|tw|du|mu|mw|ba|bw|ya|yi|ka|ki|bi|ri|zi|ha|ra|da|za|na|ny|cy|by|n|m|u|a|i|y|w)*";
const RW_ENDING =
  "(?:a|e|i|ye|we|wa|ze|se|je|ga|ira|ire|iye|iwe|irwa|iriye|ishije|isha|ishwa|ishijwe|ije|ana|anye)?";
// Roots (normalised spelling, after the nasal a prefix "n"/"m" can turn "h" into "p").
const RW_HARM_ROOTS: ReadonlyArray<[SafetyConcern, string]> = [
  // gukubita (hit): "yankubise", "ntiyakubiswe"
  ["violence", "(?:kubit|kubis|kubisw|kubitw)"],
  // guhohotera (abuse): "yampohoteye", "bahohotewe"
  ["violence", "(?:hohoter|hohotey|hohotew|pohoter|pohotey|pohotew)"],
  // kwica (kill) only with a subject before a person as its object ("azanyica",
  // "bamwishe"; never a bare "twice").
  ["violence", "(?:a|ba|u|mu|tu|ya|za|ra|ka)(?:ny|mw|n|du|tw|ba|mu)(?:ic|ish|icw|iciw)"],
  // gutwika (burn) with a person or thing of the sender as its object ("azantwika", "bazantwikira").
  ["violence", "(?:a|ba|u|mu|tu|ya|za|ra|ka)(?:n|mu|du|ba)(?:twik|twits)"],
  // guhitana (take a life): "azampitana", "bamuhitanye".
  ["violence", "(?:hitan|pitan)"],
  // kuniga (strangle) with a person as its object ("yamunize", "baramuniga").
  ["violence", "(?:a|ba|u|mu|tu|ya|za|ra|ka)(?:ny|mw|du|tw|ba|mu)(?:nig|niz|nigw|nizw)"],
  // gukangisha (threaten with), gushimuta (kidnap), gutabara (rescue, "help!").
  ["violence", "(?:kangis|kangish)"],
  ["danger", "(?:shimut|shimus|shimutw|shimuw)"],
  ["danger", "(?:tabar|tabaz)"],
  // gutinya (fear): "ndatinya", "ntinya".
  ["danger", "tiny"],
  // kwiba (steal), passive and applicative: "yibwe", "banyibiye", "bibwe".
  ["theft", "(?:ib|ibw|ibiw)"],
  // kwiyita (call oneself, pose as): "wiyita polisi", "wanyiyitiriye umukozi".
  ["theft", "(?:iyit|iyitir)"],
];
const RW_HARM_WORDS: ReadonlyArray<[SafetyConcern, RegExp]> = RW_HARM_ROOTS.map((
  [concern, root],
) => [concern, new RegExp(`^${RW_PREFIX_CHAIN}${root}${RW_ENDING}$`)]);
// All roots in one pattern: most words match none, and one test is cheaper than eleven.
const RW_ANY_HARM = new RegExp(
  `^${RW_PREFIX_CHAIN}(?:${RW_HARM_ROOTS.map(([, root]) => root).join("|")})${RW_ENDING}$`,
);
// Words the morphology would read as harm but are ordinary Kinyarwanda ("iba" is "be",
// "ibi" "these", "ibya" "those of"), checked before the roots.
// "-bwira" is "tell" and "think" ("nibwira ko", "yambwiye"), never the passive of "steal".
const RW_NOT_HARM =
  /^(?:[a-z]{0,3}ib[aeio]?|[a-z]*ibi[a-z]?|ibya|ibyo|ikubitiro|[a-z]*bwir[a-z]*|[a-z]*kanish[a-z]*|[a-z]*kanik[a-z]*)$/;

/**
 * The Kinyarwanda harm a word names by its root (see {@linkcode RW_HARM_ROOTS}), or null.
 * Prefix chains and endings are read, so forms never written down still count.
 */
export function kinyarwandaHarm(word: string): SafetyConcern | null {
  if (word.length < 4 || !RW_ANY_HARM.test(word) || RW_NOT_HARM.test(word)) return null;
  for (const [concern, pattern] of RW_HARM_WORDS) {
    if (pattern.test(word)) return concern;
  }
  return null;
}

// "irimo"/"kirimo" alone mean "contains": only with "gushya" (burning) are they a fire.
const FIRE_RW =
  / (?:irimo|kirimo|ririmo|harimo) gushya\b| (?:irashya|rirashya|harashya|kirashya)\b/;

// Kinyarwanda "kwiba" (steal) conjugated: a word ending in -ibye, -ibiye, -ibwe, -ibiwe
// ("banyibiye", "yibwe"), and nothing else does in the three languages' words we read.
const RW_STOLEN = /(?:^|[a-z])(?:ibye|ibiye|ibwe|ibiwe)$/;
// Other verbs whose perfective ends the same way: kuziba (be blocked: "umusarani wazibye"),
// gusiba (erase, be absent: "yasibye"), and kubiba (sow) after the tense vowel ("twabibye");
// kwiba puts a subject or object glide before its stem ("yibye", "twibye", "banyibye").
const RW_STOLEN_LOOKALIKE = /(?:zibye|zibiye|sib(?:ye|we|iye|iwe)|abib(?:ye|we|iye|iwe))$/;

function rootKeys(
  roots: Record<SafetyConcern, readonly string[]>,
  atStart: boolean,
): Array<[SafetyConcern, string]> {
  return (Object.entries(roots) as Array<[SafetyConcern, readonly string[]]>).flatMap((
    [concern, list],
  ) =>
    list.map((
      root,
    ): [SafetyConcern, string] => [concern, (atStart ? " " : "") + normalizeText(root)])
  );
}
const ROOT_KEYS = [...rootKeys(ROOTS_AT_START, true), ...rootKeys(ROOTS_INSIDE, false)];

// Harm words in ordinary idioms and product names, on the normalised text: "this price is
// killing me", "backache killing me" (any ache, a pain, cramps, a migraine: an ailment for the
// pharmacy, said without "is"), "ce mal de tete me tue", "inzara iranyishe" (hunger is killing me), theft or
// fire insurance, a shooting range, a burnt meal. Each keeps its topic word and loses the
// harm one, so the rest of the message is still read.
const HARM_IDIOMS: ReadonlyArray<[RegExp, string]> = ([
  // A ride for a relative, asked of a driver or as a request ("a driver to take my mother to
  // church", "can a woman driver take my kids to school"), is no threat to take a child.
  [
    new RegExp(
      `(?:^| (?:driver|moto|motari|taxi|cab|car|someone|somebody|you|please|pls|need \\w+|want \\w+|who can|can|could))(?: to)? take (?:my|our) ${KIN} to\\b`,
      "g",
    ),
    " ride to",
  ],
  [
    / (hunger|price|prices|heat|\w*aches?|pain|pains|cramps|migraine|cough|flu|fever|ulcers?|trafic|thirst|queue|wait|rent|bil|bils|work|this|it|back|stomach|tummy|tooth|teth|feet|legs|knes|neck|music|noise|smel|mosquitoes|cold) (?:that |which )?(?:is |are |s )?kiling (?:me|us)\b/g,
    " $1 ",
  ],
  [
    / (prix|faim|chaleur|tete|mal|soif|atente|travail|facture|ca|ventre|dos|dents?|pieds|jambes|estomac|genou|gorge|cou|musique|bruit|moustiques|froid) (?:\w+ ){0,3}?(?:me|nous) tue(?:nt)?\b/g,
    " $1 ",
  ],
  [
    / (inzara|ubushyuhe|inyota|igiciro|ibiciro|umutwe|umunaniro|imbeho|akazi|igifu|umugongo|amenyo|amaguru|mu nda|umuziki|urusaku|imibu)(?: \w+){0,2}? \w*(?:nyishe|nyica|twishe|twica)\b/g,
    " $1 ",
  ],
  // Fear of a thing, not a person: flying, the dark, needles, prices ("les prix me font peur").
  [
    / (?:scared|afraid|frightened|terified|fear|peur|ubwoba)(?: of| de| du| des| d| bw| w)? (?:the )?(flying|heights|dark|planes?|plane|water|nedles|injections|dogs|spiders|snakes|exams|driving|price|prices|avion|l avion|noir|piqures|chiens|examens|indege|umwijima|inshinge|imbwa)\b/g,
    " $1 ",
  ],
  [/ (prix|tarifs|factures|ibiciro|igiciro) (?:\w+ ){0,2}(?:me|nous) font peur\b/g, " $1 "],
  // A vehicle hit or scratched while parked, or a crash into a thing, claimed on insurance.
  [
    / (?:hit|hits|scratched|damaged|dented|bumped|rear ended|knocked) (my|our) (?:parked )?(car|vehicle|moto|motorbike|truck|bumper|mirror)\b/g,
    " $1 $2 ",
  ],
  [
    / (?:yagonze|nagonze|twagonze|yagonzwe|yagongwa) (igiti|urukuta|ipoto|umukingo|igipangu|imodoka)\b(?!.* (?:umuntu|abantu|umwana|komerek\w*|amaraso|yapfuye|bitaro))/g,
    " $1 ",
  ],
  // "Does the insurance cover theft?": up to four words between ("bwanyu bwishingira n").
  [
    / (insurance|asurance|ubwishingizi|cover|couvre|bwishingira)((?: \w+){0,4}?) (?:theft|vol|fire|incendie|ubujura|inkongi)(?: (?:and|or|et|ou|n|na) (?:le |l |la )?(?:theft|vol|fire|incendie|ubujura|inkongi))*\b/g,
    " $1 ",
  ],
  [/ (?:theft|fire) (insurance)\b/g, " $1 "],
  // "Insure my car against theft and fire", "assurer ma moto contre le vol".
  [
    / (insure|insured|insuring|asurer|kwishingira|gushinganisha)((?: \w+){0,4}?) (?:against|contre|ku) (?:le |l )?(?:theft|vol|fire|incendie|ubujura|inkongi)(?: (?:and|or|et|ou|n|na) (?:le |l )?(?:theft|vol|fire|incendie|ubujura|inkongi))*\b/g,
    " $1 $2 ",
  ],
  // A joke ("it was so good it killed me lol").
  [/ (?:kiled|kiling|kils|kil) (?:me|us)\b(?=.* (?:lol|lmao|haha\w*|hihi\w*|mdr|ptdr)\b)/g, " "],
  // "Does the cover pay if a thief takes it": the thief is the case insured, not one met.
  [
    / (insurance|asurance|ubwishingizi|bwishingira|cover|covers|couvre|comprehensive|tous risques)((?: \w+){0,5}?) (?:if|when|iyo|niba|si|en cas d|in case)(?: a| the| des| un| les)? (?:thief|thieves|robers|voleur|voleurs|abajura|umujura)(?: (?:steals?|stole|takes|took|vole|volent|prend|prennent|\w*iba|\w*ibye))?\b/g,
    " $1 $2 ",
  ],
  // A cover asked about by what would happen ("burishyura iyo imodoka yibwe", "does it pay if
  // my car is stolen", "rembourse si la voiture est volee"): a question, no theft.
  [
    / (insurance|asurance|ubwishingizi|bwishingira|cover|covers|couvre|comprehensive|tous risques)((?: \w+){0,5}?) (?:if|when|iyo|niba|si|en cas d|in case)((?: \w+){0,4}?) (?:\w*ibwe|\w*ibiwe|\w*ahiye|\w*shya|stolen|steals?|stole|burnt|burned|burns|catches fire|vole|volee|volent|brule|brulee|prend feu)\b/g,
    " $1 $2 $3 ",
  ],
  // A thing said to be killing the sender, not a person ("the pili pili is killing me", "les
  // loyers me tuent", "umubyigano uranyishe": a Kinyarwanda subject of a class that names
  // no person), murder and robbery as hyperbole ("traffic is murder", "daylight robbery",
  // "c'est du vol").
  [
    / (?:the|this|that|these|those|your|my|our) (?!(?:man|men|guy|guys|boss|driver|landlord|people|someone|husband|wife|boyfriend|girlfriend|partner|father|mother|dad|mum|mom|brother|sister|uncle|neighbour|neighbor|ex)\b)(\w+)(?: \w+)? (?:is|are|s) kiling (?:me|us)\b/g,
    " $1 ",
  ],
  [
    / (?:le|la|les|ce|cet|cete|ces) (?!(?:mec|gars|type|homme|mari|copain|voisin|patron|chaufeur|motard|pere|frere|oncle)\b)(\w+)(?: \w+)? (?:me|nous) tuen?t?\b/g,
    " $1 ",
  ],
  // The subject prefix names the class: "ira-" (a thing of class 9, "embouteillage iranyica"),
  // "cya-", "bya-", "rya-" in the past ("ikizamini cyanyishe"); a person would be "ara-", "ya-".
  [
    / (\w+)(?: \w+){0,3}? (?:(?:bu|ri|ki|bi|zi|ru|tu|ku|ha|i)ra|(?:bw|ry|cy|by|rw|kw)a)(?:ny|tw|dw)i(?:she|ca)\b/g,
    " $1 ",
  ],
  [/ (umu\w+|umw\w+|ubu\w+)(?: \w+){0,4}? (?:u|bu)(?:ra)?(?:ny|tw|dw)i(?:she|ca)\b/g, " $1 "],
  // After a demonstrative the noun drops its first vowel ("uyu muhanda uranyica", "ubu bukode
  // buranyishe"); a noun of class 6 ("aya mafaranga aranyishe") shares its verb prefix with a
  // person, so the noun itself names the class, bandits (amabandi) excepted.
  [
    / ((?:uyu|uwo|uriya) (?:mu|mw)\w+|(?:ubu|ubwo|buriya) bu\w+)(?: \w+){0,4}? (?:u|bu)(?:ra)?(?:ny|tw|dw)i(?:she|ca)\b/g,
    " $1 ",
  ],
  [
    / ((?:aya|ayo|ariya) ma\w+|ama(?!band)\w+)(?: \w+){0,4}? a(?:ra)?(?:ny|tw|dw)i(?:she|ca)\b/g,
    " $1 ",
  ],
  // A match "stolen" by the referee ("the referee robbed us", "l'arbitre nous a volé la
  // finale", "ikipe yacu bayibye … umusifuzi"), or a team robbed in a final: sport talk.
  [
    / (?:robed|robing|robs|rob|stole|stolen|vole|volee|voler|volait|\w*ibye|\w*ibwe)\b(?=.* (?:referee|arbitre|umusifuzi|abasifuzi)\b)|(?<= (?:referee|arbitre|umusifuzi|abasifuzi)\b.*) (?:robed|robing|robs|rob|stole|stolen|vole|volee|voler|volait|\w*ibye|\w*ibwe)\b/g,
    " ",
  ],
  [
    / (team|ekipe|equipe|ikipe) ((?:\w+ ){0,3}?)(?:robed|\w*ibye|\w*ibwe|vole|volee)\b/g,
    " $1 $2 ",
  ],
  [
    / (we|we re|we were|we got|on s est fait|on a ete|nous avons ete) (?:robed|vole|voler|volee)((?: \w+){0,2}?) (in|en|during)((?: the| la| le)?) (final|finale|semi final|semi finale|match|game|derby)\b/g,
    " $1 $2 $3$4 $5 ",
  ],
  [/ (?:is|s|was|are) (?:pure |absolute |plain |real |just )?murder\b/g, " "],
  [
    / (?:daylight |pure |straight )robery\b| (?:that s|thats|this is|it s|its) robery\b(?:(?=.* (?:prices?|refund|charged?|overcharg\w*|cost\w*|rent|bil|fees?|pay|paid|expensive)\b)|(?<= (?:prices?|refund|charged?|overcharg\w*|cost\w*|rent|bil|fees?|pay|paid|expensive)\b.*))| c est (?:du vol|de l arnaque|une arnaque)\b/g,
    " ",
  ],
  // A remedy asked for a symptom ("something for bleeding gums", "umuti w'ishinya iva
  // amaraso", "une crème pour une brûlure") is a pharmacy's, unless the bleeding will not stop.
  [
    / (medicine|medication|cream|something|anything|umuti|imiti|amavuta|qch|quelque chose|truc|remede|creme|pomade|sirop|syrup|tablets|tothpaste|mouthwash|dentifrice|gel|spray|drops)((?: \w+){0,4}?) (?:bleding|bleds|saignent|saigne|saignant|\w*va amaraso)\b(?!.* (?:won t stop|wont stop|not stop|a lot|ntahagarara|sans aret|beaucoup|menshi))/g,
    " $1 $2 ",
  ],
  // "Without permission" with a lawsuit in view ("can I sue?") is a legal case.
  [
    / (?:without (?:my |his |her )?(?:permision|consent)|sans (?:ma |mon )?(?:permision|autorisation|acord))(?=.* (?:sue|lawyer|court|legal|poursuivre|avocat|plainte|tribunal|justice|kurega|namurega|urukiko))/g,
    " ",
  ],
  // A broken lock or door with a new one or a repair asked for is a purchase.
  [
    / (lock|padlock|door|window|gate|handle|knob)((?: \w+){0,2}) (?:is |was )?(?:broken|cut|smashed)\b(?=.* (?:need|new one|replace|repair|fix|buy|fundi|price|how much|cost))/g,
    " $1 $2 ",
  ],
  // A kit, serum or vaccine for a bite is a product ("a snake bite kit for camping").
  [
    / (?:snake|dog) bite (kit|kits|serum|cream|remedy|medicine|vacine|treatment)\b| (kit|kits|serum|antivenom|vacine|medicine|cream|remedy|injection)((?: \w+){0,2}) (?:snake|dog) bites?\b/g,
    " $1$2$3 ",
  ],
  [/ shoting (range)\b/g, " $1 "],
  [
    / (?:burnt|burned) (?:my|our|the) (toast|food|rice|bread|meat|cake|pizza|order|chips|beans|steak|sauce)\b/g,
    " $1 ",
  ],
  // --- Ordinary frames of the fourth round (issue 24 item 6). ---
  // A product that protects against a harm names the harm as its use ("burglar bars", "a
  // fire blanket", "a gas leak detector", "grilles anti-vol", "ibyuma birinda abajura",
  // "igitambaro kizimya umuriro", a first aid kit, bandages for bleeding).
  [
    / (?:burglar|anti vol|antivol|anti feu|antifeu|fire|smoke|gas|gaz|leak|fuite|theft|vol)(?: \w+){0,2}? (bars?|alarms?|detectors?|detecteurs?|blankets?|couvertures?|extinguishers?|extincteurs?|sensors?|capteurs?|locks?|cadenas|griles|cameras?|proof)\b/g,
    " $1 ",
  ],
  [
    / (bars?|alarms?|detectors?|detecteurs?|blankets?|couvertures?|grile|griles|cadenas|cameras?|akuma|icyuma|ibyuma|igitambaro|kamera) (?:\w+ ){0,3}?(?:anti|against|contre|de|for|pour|birinda|kirinda|irinda|kizimya|kamenya|kimenya)(?: \w+){0,2}? (?:burglars?|thieves|theft|fire|smoke|gas|leaks?|fuite|fumee|vol|voleurs?|feu|gaz|abajura|ubujura|umuriro|inkongi|umwotsi|gaze)\b/g,
    " $1 ",
  ],
  [
    / (?:first aid|premiers secours|trouse de secours|ubutabazi bw ibanze)\b/g,
    " kit ",
  ],
  [
    / (bandages?|plasters?|pansements?|bande|bandes|compreses)((?: \w+){0,3}?) (?:bleding|blod|saignements?|sang|amaraso)\b/g,
    " $1 $2 ",
  ],
  // Keys or a phone locked in a car ("nafungiranye imfunguzo mu modoka"): no person kept.
  [/ \w*fungiranye (imfunguzo|urufunguzo|telefoni|telefone|ibintu)\b/g, " $1 "],
  // Kinyarwanda "gukubita" with an object that is no person: ironing, a dot.
  [/ \w*kubit\w* (ipasi|akadomo|amadomo)\b/g, " $1 "],
  // A vehicle hit in a car park with nobody hurt ("imodoka yanjye yagonzwe n'indi").
  [
    / (imodoka|moto|voiture|car) (yanjye|yacu|ma|my|our)? ?(?:ya)?gonzwe\b(?!.* (?:umuntu|abantu|umwana|komerek\w*|amaraso|yapfuye|bitaro))/g,
    " $1 $2 ",
  ],
  // A price that feels like a scam ("I got scammed by the price", "ce loyer c'est de l'arnaque").
  [
    / (?:got |been )?scamed by (?:the|their|your|those|that) (price|prices|bil|fee|fees|rent)\b/g,
    " $1 ",
  ],
  // A broken lock to repair, told verb first ("broke the door lock, need a fundi").
  [
    / (?:broke|smashed|damaged) (?:the|my|our) (?:door |gate |window )?(lock|padlock|door|window|gate|handle)\b(?=.* (?:need|new one|replace|repair|fix|buy|fundi|price|how much|cost))/g,
    " $1 ",
  ],
  // Sport told as slaughter ("our team got murdered 4-0", "ikipe yacu yishwe n'ibitego 3").
  [
    / (team|club|equipe|ikipe|rayon|apr|arsenal|chelsea|barca|madrid)((?: \w+){0,3}?) (?:got |was |were |s est fait |s est faite )?(?:murdered|kiled|destroyed|slaughtered|masacred|masacrer|masacree?|tues?|ecrase\w*|\w*ishwe)\b(?=.* (?:num|goals?|buts?|ibitego|match|game|umukino))/g,
    " $1 $2 ",
  ],
  // A harm word denied ("not stolen, with box and receipt", "pas volé", "itari iyibwe").
  [
    / (?:not|never|pas|non|itari|si|ntabwo ari) (?:a |an |une |un |de l |d )?(?:stolen|vole|volee|voles|iyibwe|scam|arnaque|fraud|fraude|ubujura|uburiganya)\b/g,
    " ",
  ],
  // "Emergency" or "urgence" naming a trade or a product asked for, before or after it ("an
  // emergency plumber", "emergency contraception", "la pilule d'urgence", "an emergency light",
  // "ibinini byo kuboneza urubyaro byihutirwa").
  [
    / (?:emergency|urgence|d urgence|byihutirwa|bwihutirwa)\b(?=.* (?:plumber|plombier|plumbing|plomberie|electrician|electricien|locksmith|serurier|mechanic|mecanicien|fundi|umufundi|generator|pipe|fuite d eau|water leak|tyre|pneu|depanage|contraception|contraceptive|pilule|pil|pils|ibinini|urubyaro|light|lights|lamp|lampe|torch|torche|itara|amatara|kit|trousse|blanket|couverture)\b)|(?<= (?:plumber|plombier|electrician|electricien|locksmith|serurier|mechanic|mecanicien|contraception|contraceptive|pilule|pil|pils|ibinini|urubyaro|light|lights|lamp|lampe|torch|torche|itara|amatara|kit|trousse|blanket|couverture)\b(?: \w+){0,3}) (?:emergency|urgence|d urgence|byihutirwa|bwihutirwa)\b/g,
    " ",
  ],
  // Danger as the risk of a hazard to a place ("a danger of flooding", "risque d'inondation").
  [
    / (?:danger|risk|risque|dangers)(?: of| de| d| du)? (?:flooding|floods?|inondations?|landslides?|glisements? de terain|erosion|umwuzure|inkangu)\b/g,
    " ",
  ],
  // A thing lost, asked after ("I lost my wallet, did a driver find it?"): the lost and found.
  [
    / (?:lost|forgot|left|perdu|oublie|nataye|nasize|nibagiwe) (?:my|mon|ma|mes|our) (wallet|phone|bag|keys|id|card|umbrela|jacket|portefeuile|telephone|sac|cles|carte|parapluie|veste)\b(?=.* (?:find|found|trouve|retrouve|yabonye|uwabonye|wabonye))/g,
    " $1 ",
  ],
  // A small burn or cut of one's own, with a remedy asked ("burned my hand, need a gel").
  [
    / (?:burnt|burned|cut|hurt) my (hand|finger|arm|leg|foot|tongue|knee|lip)\b(?=.* (?:gel|cream|creme|ointment|pomade|plaster|bandage|medicine|umuti|amavuta|pansement|remede))/g,
    " $1 ",
  ],
  // A worry about a thing (fear that the cake will not be ready, that an exam will be hard):
  // the clause after "ubwoba ko" has a subject of a class that names no person ("itazaba",
  // "ikizamini kizaba"); fear of a person ("ko azagaruka", "ko bazantera") stays.
  [
    / (?:ubwoba|\w*tiny\w*) (?:ko|y uko|bw uko) (?:\w+ )?(?:i|ki|bi|ri|zi|bu|ku|ru|gi|cy|by|ry)(?:ta|za|ra|tazi|zaz)\w*\b/g,
    " worry ",
  ],
  // A first-aid product for a small wound ("ibipfuko by'urutoki rwakomeretse"): the pharmacy's,
  // unless the wound is grave.
  [
    / (ibipfuko|igipfuko|pansima|pansement|umuti|imiti|amavuta)((?: \w+){0,3}?) \w*komere(?:k|ts)\w*\b(?!.* (?:cyane|bikabije|amaraso|ntahagarara|menshi))/g,
    " $1 $2 ",
  ],
  // A weapon that is a toy or a prop ("imbunda z'impimbano", "imbunda y'igikinisho").
  [
    / (?:imbunda|intwaro|icyuma|ibyuma) (?:z|y|cy|by) (?:impimbano|ibikinisho|igikinisho|plastike|plastiki)\b/g,
    " igikinisho ",
  ],
  // A harm verb naming a thing's use, after the connective of purpose ("umufuka wo gukubita",
  // a punching bag): an object, not an act.
  [/ (\w+) (?:wo|yo|cyo|byo|zo|two|ryo|rwo|bwo|kwo) (?:gukubita|kwica|kurasa|gutwika)\b/g, " $1 "],
  // Fear of a thing with the verb ("ntinya indege", "ndatinya inshinge"), as with ubwoba.
  [
    / \w*tiny\w* (indege|umwijima|inshinge|imbwa|amazi|ubutumburuke|ibizamini|ikizamini|inzoka|igitagangurirwa)\b/g,
    " $1 ",
  ],
  // Fined, in Kinyarwanda "hit with a fine" ("nakubiswe n'ihazabu").
  [/ \w*kubisw\w* n (ihazabu|amande|ibihano)\b/g, " $1 "],
  // Beaten at a match ("ikipe yacu yakubiswe ibitego bitatu"): goals, not blows.
  [/ \w*kubi(?:sw|tw|t|s)\w* (ibitego|igitego|amanota)\b/g, " $1 "],
  // Beaten by the weather ("nakubiswe n'imvura", caught in the rain): lightning (inkuba) stays.
  [/ \w*kubi(?:sw|tw)\w* n (imvura|izuba|umuyaga|imbeho|ubukonje)\b/g, " $1 "],
  // Sowing, Kinyarwanda "kubiba" with the tense vowel before its stem ("twabibye ibishyimbo",
  // "narabibye imbuto"): the perfective reads like "-ibye" (stolen), the seed tells them apart.
  [
    / \w*abib(?:ye|we|iye|iwe) (?:\w+ )?(imbuto|ibigori|ibishyimbo|ingano|amasaka|umuceri|soya|imboga|ibirayi|imyumbati|mu murima|umurima)\b/g,
    " $1 ",
  ],
  // Fear of a means of travel ("j'ai peur de prendre l'avion").
  [
    / (?:scared|afraid|fear|peur|ubwoba)(?: of| de| d| bw| bwo)? (?:prendre|taking|take|riding|ride|kujya|kugenda|gutega|conduire|driving)(?: \w+){0,2}? (avion|plane|planes|flight|indege|moto|motorbike|bus|lift|ascenseur)\b/g,
    " $1 ",
  ],
  // A drink or dish spilt ("le serveur a renversé la sauce sur moi").
  [
    / renverse\w* (?:la |le |du |de la |mon |ma |son |sa |les |l |un |une )?(sauce|the|cafe|boison|vere|biere|jus|soupe|eau|vin|plat|assiete|lait)\b/g,
    " $1 ",
  ],
  // "A thief" as a name for the other side of a dispute taken to a lawyer ("my landlord is
  // a thief, he kept my deposit, can a lawyer help").
  [
    / (?:is|are|c est|est|ni) (?:a |an |un |une )?(?:thief|crok|voleur|voleuse|escroc|umujura)\b(?=.* (?:lawyer|avocat|umunyamategeko|court|tribunal|urukiko|sue|kurega|deposit|caution|garantie|avansi))/g,
    " ",
  ],
  // Whatever protects against a harm is a product ("urugi rurinda abajura", "anti-theft",
  // "an alarm against intruders").
  [
    / (?:\w*rinda|against|contre(?: les?| l| la)?|anti) (?:burglars?|thieves|theft|fire|intruders?|vol|voleurs?|feu|incendie|intrusion|abajura|ubujura|umuriro|inkongi)\b/g,
    " ",
  ],
  // A threat of a court case is a legal matter, not a danger ("threatens to take me to
  // court", "menace de me trainer au tribunal", "arankangisha kunjyana mu rukiko").
  [
    / (?:threaten\w*|threats?|menace\w*|\w*kangish\w*|\w*kangis\w*) ((?:to |de |d |me |nous |ku)*(?:take|drag|sue|report|trainer|poursuivre|amener|porter plainte|denoncer|kunjyana|kundega|kuturega|kurega|njyana)\b)(?=.* (?:court|tribunal|justice|urukiko|rukiko|lawyer|avocat|police|polisi|sue|plainte))/g,
    " $1",
  ],
  // Danger as a worry about a place ("I don't want my kids in danger when it rains") and a
  // neighbourhood's reputation ("my old area had many thieves").
  [
    / (?:don t|dont|do not) want (?:\w+ ){0,3}(?:in danger|at risk)\b| (?:veux|voudrais|veut) pas (?:\w+ ){0,4}en danger\b/g,
    " ",
  ],
  [
    / (area|neighbourhood|neighborhood|quartier|place|aho nabaga|aho ntuye|aho twabaga)((?: \w+){0,3}?) (?:had|has|have|avait|a|hari|harimo|there were) (?:many|a lot of|lots of|beaucoup de|plein de|too many|trop de)? ?(?:thieves|robers|voleurs|vols|abajura|ubujura)\b/g,
    " $1 $2 ",
  ],
  // Sheltering from the weather ("nihishe imvura", "je me cache de la pluie").
  [
    / (?:hiding|hide|cache|caches|nihishe|twihishe|ndihisha|turihisha)(?: \w+){0,2}? (?:from |de |du )?(?:the |la |le )?(rain|imvura|pluie|sun|soleil|izuba|cold|froid|imbeho)\b/g,
    " $1 ",
  ],
  // Praise: "c'est le feu", "that place is fire".
  [
    / c est (?:le|du) feu\b| (?:is|s) (?:pure |straight )?fire\b(?! (?:in|at|on|near|next))/g,
    " ",
  ],
  // Robbery as a complaint about a charge, in Kinyarwanda ("mwankase kabiri, ni ubujura!").
  [
    / (?:ubwo |ibi |iki |ibyo )?ni ubujura\b(?=.* (?:munsubize|kabiri|igiciro|ibiciro|mwankase|mwanyishyuje|mwakase))|(?<= (?:munsubize|kabiri|igiciro|ibiciro|mwankase|mwanyishyuje|mwakase)\b.*) (?:ubwo |ibi |iki |ibyo )?ni ubujura\b/g,
    " ",
  ],
  // --- Ordinary frames of the sixth round (issue 24 item 6, safety6). ---
  // A harm word in a film, a game or a party's name: shooting a scene, a crime scene for a
  // film crew, a murder party, a water gun.
  [
    /(?<= (?:film|films|movie|tournage|filime|crew|series|serie|clip|theatre|video|party|soiree)\b.*) (?:shoting|crime scene|scene de crime|ahabereye icyaha)\b| (?:shoting|crime scene|scene de crime|ahabereye icyaha)\b(?=.* (?:film|films|movie|tournage|filime|crew|series|serie|clip|theatre|video)\b)/g,
    " scene ",
  ],
  [
    / (?:water gun|toy gun|nerf gun|pistolet a eau|pistolet jouet|imbunda y amazi|imbunda y ibikinisho|imbunda y igikinisho)\b/g,
    " toy ",
  ],
  // A scare said as a near heart attack ("I almost had a heart attack", "j'ai failli faire
  // une crise cardiaque"): a figure of speech, never a patient.
  [
    / (?:almost|nearly) (?:had|got|gave me) a heart attack\b| (?:failli|presque) (?:faire|avoir|fait|eu) une crise (?:cardiaque|de coeur)\b/g,
    " shocked ",
  ],
  // A building's fire exit, drill or brigade; a fire made for cooking.
  [
    / (?:fire (?:exit|exits|escape|door|doors|drill|station|brigade|safety|assembly)|sortie de secours|issue de secours|aho gusohokera (?:habaye |mu gihe cy |hagize )?inkongi)\b/g,
    " exit ",
  ],
  [
    / (?:le |un )?feu (?:du|de|pour le|pour) (?:barbecue|bbq|braise|bois|camp|cuisine|grill\w*)\b| allume feu\b/g,
    " grill ",
  ],
  // A cover against harms, named by them ("fire and burglary cover", "assurance incendie et
  // vol"): a product.
  [
    / (?:fire|theft|burglary|vol|incendie)(?: (?:and|or|et|ou|n|na) (?:fire|theft|burglary|vol|incendie))* (insurance|cover|policy|premium|asurance)\b/g,
    " $1 ",
  ],
  // Accused of a theft: a legal matter about the sender or someone near, not a theft suffered.
  [
    / (?:accused of|accuse\w* de|\w*shinjw\w*|\w*shinja) (?:\w+ ){0,1}?(?:theft|stealing|robbery|fraud|vol|escroquerie|ubujura|kwiba|uburiganya)\b/g,
    " accused ",
  ],
  // An injury denied ("nobody was hurt", "nta muntu wakomeretse"): the accident is a claim.
  [
    / (?:nobody|no one|noone) (?:was |got |is |has been )?(?:hurt|injured|wounded)\b| no (?:injuries|injury|one injured)\b| personne (?:n a ete |n est |n a )?(?:blesse\w*|touche\w*)\b| (?:pas|aucun) de blesse\w*\b| aucun blesse\b| nta (?:muntu |n umwe |we )?(?:wakomeretse|wapfuye|wagize icyo aba)\b| ntawe? (?:wakomeretse|wapfuye)\b/g,
    " ",
  ],
  // Fear at one's own mistake ("I sent it to the wrong number, it scared me"): a payment
  // to undo, not a threat.
  [
    /(?<= (?:nibeshye|by mistake|par erreur|wrong number|mauvais numero|itari yo)\b.*) (?:byanteye|binteye) ubwoba\b| (?:byanteye|binteye) ubwoba\b(?=.* (?:nibeshye|by mistake|par erreur|wrong number|mauvais numero|itari yo)\b)/g,
    " ",
  ],
  // A theft case in court names the theft as its subject ("the theft trial is next week").
  [
    / (?:theft|robbery|fraud|vol|ubujura|uburiganya) (case|trial|charges?|hearing|file)\b| (affaire|proces|dossier) (?:de|pour) (?:vol|escroquerie|cambriolage)\b| (urubanza) rw (?:ubujura|uburiganya)\b/g,
    " $1 ",
  ],
  // Fright at a film or a book ("ce film d'horreur m'a tué de peur"); burned by a seller.
  [
    /(?<= (?:film|films|movie|horror|horeur|serie|series|livre|book|filime|novel|roman)\b.*) (?:m a tue de peur|mort de peur|scared me|peur|scared|ubwoba)\b/g,
    " ",
  ],
  [
    / (?:got |was |been )?burned by (?:the|a|this|that|my) (?:\w+ )?(seler|vendor|shop|company|app|deal)\b/g,
    " $1 ",
  ],
  // A harm named as a genre of films, books or games ("filime z'intambara n'iz'abajura",
  // "a book about murder", "des romans sur des voleurs").
  [
    /(?<= (?:filime|film|films|movie|movies|dvd|dvds|book|books|ibitabo|igitabo|livre|livres|roman|romans|series|serie|game|games|imikino|umukino|novel|novels)\b(?: \w+){0,4}) (?:n iz |iz |z |y |by |cy |ry |of |de |d |des |about |sur )?(?:intambara|abajura|umujura|ubujura|ubwicanyi|abagizi ba nabi|abagome|war|crime|crimes|thieves|guere|voleurs|horeur|horror|murder|murders|meurtres?)\b/g,
    " genre ",
  ],
  // A threat about money or a contract ("threatening to raise the rent", "menace d'augmenter
  // le loyer", "ankangisha kuzamura ubukode"): a dispute for its desk, not a danger.
  [
    / (?:threaten\w*|threat) (?:to|of) (raise|increase|cut|close|cancel|sue|report|fire|charge|stop|disconect|evict|take (?:me|us) to court)\b| menac\w* (?:de|d) (augmenter|couper|fermer|resilier|porter plainte|licencier|expulser)\b| \w*kangish?\w* (kuzamura|kongera|guhagarika|gufunga|kunyirukana|kunsohora|kuduca|kunca|kwirukana|kuzamur\w*)\b/g,
    " $1$2$3 ",
  ],
  // A small injury asked a remedy for ("yakomeretse ku ivi gato, nkeneye plasters").
  [
    / (?:\w*komeret\w*|scraped|grazed|ecorche\w*|blese\w*)((?: \w+){0,3}) (?:gato|gake|hato|a little|slightly|legerement|un peu)\b(?=.* (?:plasters?|pansements?|bandages?|bande|antiseptic\w*|antiseptique|betadine|iodine|cream|creme|amavuta|umuti)\b)/g,
    " $1 ",
  ],
  // Robbed by a price ("robbed by the taxi fare lol", "arnaqués sur le prix du menu"), stolen
  // by a beauty ("nibwe n'ubwiza bw'iyi nzu"): figures of speech about a price or a taste.
  [
    / (?:robed|scamed|riped of|ripped of|overcharged|arnaque\w*|arnaquer|vole\w*|voler) (?:by|on|with|sur|par|avec|for) (?:the |le |la |les |du |des )?(?:\w+ ){0,2}?(price|prices|fare|fares|bil|bils|menu|prix|tarif|tarifs|facture|addition|frais)\b| \w*ibwe n (ubwiza)\b/g,
    " $1$2 ",
  ],
  // A product that thieves cannot beat ("the thief-proof lock", "un coffre-fort que les
  // cambrioleurs ne peuvent pas ouvrir", "ingufuri idashobora kwibwa"), and dying of laughter
  // ("I nearly died laughing", "mort de rire", "ndapfa guseka").
  [
    / (?:thief|thieves|burglar|burglars|theft|bulet)[ -]?proof\b| anti ?(?:theft|vol)\b| antivol\b| (?:que|qui) les (?:cambrioleurs|voleurs) ne (?:peuvent|pouront) pas (?:ouvrir|forcer|casser)\b| (?:that|which) (?:thieves|burglars|robers) (?:can t|cannot|can not|won t) (?:open|break|force|cut)\b| \w*(?:dashobora|tashobora) kwibwa\b| abajura (?:badashobora|batashobora) (?:gufungura|kwinjira|kumena|guca)\b/g,
    " secure ",
  ],
  [
    / (?:nearly |almost )?(?:died|dying|dead) (?:laughing|of laughter|from laughing)\b| (?:mort|morte|morts|mourir|meurs) de rire\b| (?:ndapfa|napfuye|twapfuye|narapfuye|turapfa) (?:guseka|ibitwenge)\b/g,
    " laughed ",
  ],
  // Nearly dead of laughter or surprise ("I almost died lol").
  [
    / (?:almost|nearly|literaly) (?:died|dead)\b(?=.* (?:lol|haha|hahaha|mdr|laughing|laughed)\b)/g,
    " ",
  ],
  // A worry about an outcome ("I'm scared the cake won't arrive on time", "j'ai peur que le
  // gâteau arrive en retard", "mfite ubwoba ko itazagera ku gihe"): the words between are kept.
  [
    / (?:scared|afraid|worried|fear|peur|ubwoba)(?: that| que| qu| ko)?((?: \w+){1,6}?) (?:won t arrive|wont arrive|not arrive|wil be late|be late|on time|arive en retard|en retard|a temps|ku gihe|itazagera|itagera|ntizagera|wil rain|va pleuvoir|imvura)\b/g,
    " $1 on time ",
  ],
  // A harm naming a genre before its medium ("a thief movie night", "un film de guerre" is
  // read above): the medium is kept.
  [
    / (?:thief|thieves|crime|murder|war|horror|gangster|zombie|voleurs?|guere|horeur|intambara|abajura) (movie|movies|film|films|series|book|books|novel|novels|game|games|night)\b/g,
    " $1 ",
  ],
  // An animal that attacked livestock ("the dog attacked my chickens", "imbwa yariye inkoko").
  [
    / (dog|dogs|cat|imbwa|chien|chiens|fox|snake|inzoka)((?: \w+){0,2}?) (?:attacked|killed|ate|a tue|ont tue|a ataque|yariye|yishe|zariye|zishe) (?:my |our |mes |nos |les )?(chickens|hens|goats|sheep|rabbits|ducks|poules|chevres|lapins|moutons|inkoko|ihene|intama|inkwavu)\b/g,
    " $1$2 $3 ",
  ],
  // A parked car knocked ("quelqu'un a cogné ma voiture garée").
  [
    / (?:cogne|cognee|cogner|heurte|heurtee|rayee|raye) (ma|mon|notre|la|le) (voiture|moto|auto|portiere|pare choc|vehicule)\b/g,
    " $1 $2 ",
  ],
  // A cost that chokes a business is a complaint about the cost.
  [
    / (price|prices|rent|tax|taxes|debt|bil|bils|cost|costs) (?:is |are |s )?(?:choking|strangling|kiling) (?:my|our|the) (business|shop|sales|company|restaurant)\b/g,
    " $1 $2 ",
  ],
  // A vehicle hit while parked or driven into a thing ("my car was hit in a parking lot", "ma
  // voiture a heurté un poteau", "imodoka yanjye bayigonze muri parikingi", "umuntu yakubise
  // imodoka yanjye iparitse"): damage to claim. A vehicle hitting a person keeps its words.
  [
    / (?:my|our|the) (car|vehicle|moto|motorbike|truck|bike)((?: \w+){0,2}?) (?:was|got|has been) (?:hit|knocked|dented|scratched|bumped|rear ended)\b| (?:hit|knocked|dented|scratched|bumped) (?:my|our) parked (car|vehicle|moto|motorbike|truck)\b| (?:ma|mon|notre) (voiture|moto|auto|camionete|vehicule)((?: \w+){0,2}?) (?:a ete |s est fait )?(?:cognee?|heurtee?|rayee?|cabossee?|touchee?|emboutie?|accrochee?)\b| ((?:imodoka|moto|ivatiri) (?:yanjye|yacu))((?: \w+){0,1}?) (?:bayigonze|yagonzwe|bayikubise|yakubiswe|bayishwanyaguje)\b| (?:yakubise|yagonze|bakubise|bagonze) ((?:imodoka|moto) (?:yanjye|yacu))\b/g,
    " $1$3$4$6$8 $2$5$7 damaged ",
  ],
  [
    / (car|vehicle|moto|motorbike|truck|voiture|moto|auto|imodoka)((?: \w+){0,2}?) (?:hit|a heurte|a cogne|a percute|yagonze|yagonganye n) (?:a |an |the |un |une |le |la |l )?(pole|post|tree|wall|gate|fence|poteau|arbre|mur|portail|cloture|ipoto|igiti|urukuta|igipangu|uruzitiro)\b/g,
    " $1$2 $3 damaged ",
  ],
  // "Attaquer" a company or in court is to sue it.
  [
    / attaquer (?:en justice|au tribunal|la societe|l entreprise|la compagnie|la boite|mon ancien|mon employeur|l etat)\b/g,
    " poursuivre ",
  ],
  // An emergency denied ("not an emergency, just her appointment", "ce n'est pas une urgence").
  [
    / (?:not an?|no|isn t an?|it s not an?) (?:emergency|emergencies)\b| (?:pas une|pas d|aucune) (?:urgence|urgences)\b| (?:si|ntabwo ari) (?:ikibazo cyihutirwa|ibyihutirwa)\b/g,
    " ",
  ],
  // Keys locked in ("j'ai enfermé mes clés dans la voiture"): a locksmith, not a person held.
  [
    / (?:enferme\w*|locked) (?:mes|les|ma|mon|my|the) (cles|clefs|cle|keys|key|telephone|phone)\b/g,
    " locked $1 ",
  ],
  // "Sans danger" is harmless ("quels plats sont sans danger pour lui"), a food or a product.
  [/ sans danger\b/g, " sur "],
  // "Frappe" as a noun: a typing slip, a punching bag, a strike force.
  [/ (faute|sac|force|erreur) de frape\b/g, " $1 "],
  // "Afite umuriro" is a fever, not a fire.
  [/ (\w*fite|\w*gize|\w*rwaye) umuriro\b/g, " $1 fever "],
] as Array<[RegExp, string]>).map(([idiom, keep]) => [singleLetters(idiom), keep]);

/**
 * The normalised message with harm words in ordinary idioms taken out ("this
 * price is killing me" reads "this price"), so neither the lexicon nor the
 * router's sensitive stems read them as harm.
 */
export function withoutHarmIdioms(normalized: string): string {
  let padded = ` ${normalized} `;
  // One space between words after each idiom, so the next reads the words it left.
  for (const [idiom, keep] of HARM_IDIOMS) {
    padded = padded.replace(idiom, keep).replace(/\s+/g, " ");
  }
  padded = withoutOrdinaryFrames(padded);
  return padded.replace(/\s+/g, " ").trim();
}

// Words that make a story present: the harm is happening or has just happened.
const NOW = singleLetters(
  / (?:now(?! (?:i|we) (?:want|need|would|wish))|right now|just|tonight|currently|(?<!(?:do i|do we|should i|can i|do you|must i) )still(?! open)|ubu(?! (?:turashaka|ndashaka|nshaka|dushaka|nkeneye|dukeneye|twifuza|nifuza))|ubungubu|nonaha|amaze|imaze|bamaze|iri joro|maintenant(?! (?:on|je|j|nous) (?:veut|veux|voudrais|voudrait|voulons|cherche|cherchons|a besoin|ai besoin|avons besoin))|vient de|viens de|viennent de|ce soir|en ce moment|encore(?! ouvert))\b/,
);
// A past date: last week/month/year, a month named, some time ago (never "last night").
const PAST_DATE = singleLetters(
  / (?:last (?:wek|month|year)|(?:num|a|one|two|thre|few|several) (?:weks?|months?|years?) ago|in (?:january|february|march|april|may|june|july|august|september|october|november|december)|ukwezi gushize|umwaka ushize|icyumweru gishize|hashize (?:iminsi|ibyumweru|amezi|imyaka|ukwezi|umwaka|num)|mu (?:myaka|mezi|byumweru|minsi) (?:num|ibiri|itatu) (?:ishize|ashize|bishize)|muri (?:mutarama|gashyantare|werurwe|mata|gicurasi|kamena|nyakanga|kanama|nzeri|ukwakira|ugushyingo|ukuboza)|le mois dernier|l anee derniere|l anee pasee|l an dernier|l an pase|la semaine derniere|il y a (?:num|deux|trois|quelques) (?:semaines|mois|ans)|en (?:janvier|fevrier|mars|avril|mai|juin|juilet|aout|septembre|octobre|novembre|decembre)|(?:in|en|muri) num\b(?! (?:min\w*|hours?|heures?|sec\w*|h|iminota|amasaha|days|jours|iminsi)))\b/,
);
// Paperwork, a claim or a case asked for.
const PAPERWORK = singleLetters(
  / (?:police (?:declaration|report|certificate|statement|abstract)|declaration|attestation|certificat|icyemezo|lawyer|avocat|umunyamategeko|court|tribunal|urukiko|claim|plainte|press charges|kurega|\w*rega|imei|insurance|asurance|ubwishingizi|file a report|report it|report|rapport|raporo|pv|sue|suing|proces|casier|record)\b/,
);
// An insurance question about a thing damaged ("does comprehensive cover it").
const INSURANCE_QUESTION = singleLetters(
  / (?:insurance|comprehensive|asurance|tous risques|ubwishingizi)\b.* (?:cover|covers|pay|pays|paid|couvre|rembourse|paie|paye|\w*ishyur\w*)\b/,
);
const THING_DAMAGED = singleLetters(
  / (?:my|our|ma|mon|notre) (?:car|vehicle|moto|motorbike|truck|house|voiture|maison)\b| (?:imodoka|moto|inzu) (?:yanjye|yacu)\b/,
);
// A vehicle named, for an insurance question about a collision ("umuntu yangonze imodoka ku
// isangano, ubwishingizi bunyishyure?").
const VEHICLE = singleLetters(
  / (?:car|vehicle|moto|motorbike|truck|voiture|vehicule|camion|imodoka|modoka|ikamyo|ivatiri)\b/,
);
// Words of a collision between vehicles, dropped from an insurance question about a vehicle.
// A person knocked down, hit or struck ("renversé", "hit me", "percuté", "yagonze umwana")
// keeps their words, and so does a collision with someone hurt or in hospital.
const COLLISION_WORDS = singleLetters(
  / (?:crashed|crash|bumped|acident|acrochage|acroche|cogne\w*|heurte\w*|\w*gonze|\w*gonzwe|\w*gonganye|impanuka)\b(?! (?:a |an |the |un |une |le |la |l |mon |ma |my |our )?(?:umwana|abana|umuntu|abantu|umugore|umugabo|umukecuru|umusaza|umunyamaguru|child|children|kid|kids|boy|girl|person|people|man|woman|pedestrian|son|daughter|enfant|enfants|personne|pieton|fils|file|homme|feme)\b)/g,
);
// Someone hurt or cared for: a collision told with one is no mere claim.
const SOMEONE_HURT = singleLetters(
  / (?:hospital|hopital|ibitaro|clinic|clinique|ambulance|injured|hurt|wounded|blese\w*|\w*komeret\w*|blod|bleding|sang|saigne\w*|amaraso|traped|coince\w*|unconscious|inconscient|yataye ubwenge)\b/,
);
// Words of theft and of a seller vanishing, dropped from a message whose frame is paperwork
// about the past or an insurance question about a thing.
const THEFT_WORDS = singleLetters(
  / (?:stole|stolen|steal\w*|robed|robery|rober|thief|thieves|theft|burgl\w*|cambriol\w*|vole|volee|voles|vol|voleurs?|\w*ibwe|\w*ibiwe|\w*ibye|ubujura|umujura|abajura|disapeared|disparu|akabura|arabura|aburirwa|took|pris|yatwaye|wantwaye)\b/g,
);
// Buying a thing (again): "I want to buy a new one", "ndashaka kugura nshya", "acheter un".
const BUYING_AGAIN = singleLetters(
  / (?:want to buy|buy a new|need a new|looking for a new|ndashaka kugura|nshaka kugura|kugura indi|je veux acheter|acheter un|acheter une|un nouveau|une nouvele)\b/,
);
// Protection bought after a harm ("better locks and cameras", "des serrures", "ingufuri").
const PROTECTION = singleLetters(
  / (?:locks?|padlocks?|cameras?|cctv|alarms?|guards?|fence|security|safe|grilles?|serures?|cadenas|cameras?|alarmes?|gardiens?|cloture|securite|cofre fort|ingufuri|kamera|camera|umuzamu|abazamu|uruzitiro|umutekano)\b/,
);
// Words of an accident, a fire or a flood, dropped when it is dated in the past and nothing is
// happening now ("we had a fire last year, now we want insurance for the new house").
const PAST_ACCIDENT_WORDS = singleLetters(
  / (?:bit|bitten|bite|mordu|yarumye|burnt|burned|brule|crashed|crash|acident|impanuka|knocked down|renverse|broke|broken|fractured|yavunitse|avunitse|fire|incendie|inkongi|flod|floded|inondation|inonde|umwuzure)\b/g,
);
// A person's anger at a lapse of the sender ("my boss will kill me, I'm late", "ma femme
// va me tuer si je rate le vol", "shefu azanyica nakererewe"): hyperbole, not a threat.
const LAPSE = singleLetters(
  / (?:late|latenes|mis|mised|forgot|forget|retard|rate|rater|oublie|nakererewe|natinze|nkerewe|ntayifata|nintayifata|nibagiwe|\w*tinda|\w*tinze|\w*kererwa)\b/,
);
const LAPSE_ANGER = singleLetters(
  / (?:bos|chef|patron|shefu|wife|mum|mom|mother|teacher|coach|dad|father|parents|femme|mere|maman|prof|pere|umugore|mama|papa|mwarimu|ababyeyi)((?: \w+){0,2}?) (?:(?:wil|gona|is going to|going to|wl) kil (?:me|us)|(?:va|vont) (?:me|nous) tuer|\w*(?:nyica|twica))\b/g,
);

// News talk: a crime heard of on the radio or read in the paper ("did you hear the news about
// the robbery at the bank", "mwumvise inkuru y'abajura bateye banki", "vous avez vu les infos
// sur le braquage"). "Amakuru" alone is also a greeting ("amakuru? banyibye"), so it counts
// only as "mu makuru" (in the news).
const NEWS = singleLetters(
  / (?:news|on the radio|on tv|on the tv|in the paper|newspaper|did you hear|have you heard|les infos|aux infos|les informations|au journal|a la radio|a la tele|a la television|dans le journal|inkuru|kuri radio|kuri radiyo|kuri televiziyo|mu makuru|wumvise|mwumvise|they say|people say|on dit que|on dit qu|il parait|bavuga ko|abantu bavuga|amakuru avuga|amakuru aravuga|ngo ejo|ngo haraye|ngo habaye)\b/,
);
// The sender or their own among the actors: "me", "my", "nous", "yanjye", "iwacu", and the
// Kinyarwanda object infix of the first person ("ba-ny-ibye", "ya-n-kubise", "ya-m-bwiye").
// English "I" is read before a verb: Kinyarwanda's "i" is "at" before a place ("i Gikondo").
const FIRST_PERSON = singleLetters(
  / i (?:am|m|was|were|have|ve|had|d|got|get|saw|see|heard|hear|lost|need|want|think|thought|live|lived|bought|paid|pay|just|also|don|didn|do|did|can|could|will|would|ll|went|go|left|came|come|found|called|told|know|knew|still|really|never|only|should|must|work|woke|hope|feel|felt)\b| (?:me|my|mine|myself|we|us|our|je|j|moi|mon|ma|mes|m|nous|notre|nos|njye|twe|iwacu|iwanjye)\b| \w*(?:anjye|acu)\b| (?:ba|a|ya|bara|ara|yara|baka|aka|yaka)n(?:y)?\w{3,}| (?:ba|ya|bara|ara|yara|baka|yaka)m\w{3,}/,
);
// The harm words of a news story: theft, robbery, murder, an attack, a fire.
const NEWS_HARM_WORDS = singleLetters(
  / (?:braquage|braque\w*|hold up|holdup|atack\w*|ataque\w*|murder\w*|meurtres?|killed|tue|tues|tuee|shoting|fusillade|bateye|gutera|ubwicanyi|abicanyi|bishe|yishe|fire|burned|burnt|incendie|brule|inkongi)\b/g,
);

// A debt: money lent, borrowed or owed ("my cousin owes me money and blocked me", "mon
// beau-frère m'a emprunté 2 millions", "umuntu amfitiye 200,000"): money owed to the sender.
// A debtor who stops answering is a case for Legal Intake, not a theft; money paid for a thing
// that never came is no debt, and a debt owed by someone near is no reason to stop worrying.
const DEBT = singleLetters(
  / (?:owes? (?:me|us)|owed (?:me|us)|lent|loaned|borowed (?:from me|from us|my|our)|on credit|me doit|nous doit|m a emprunte|nous a emprunte|je lui ai prete|on lui a prete|a credit|amfitiye|adufitiye|namugurije|twamugurije|yarantije|yantije|namutije|twamutije|ku ideni)\b/,
);
// A debtor's silence: not answering, a phone off, blocked.
const SILENCE = singleLetters(
  / (?:(?:is )?not answering|isn t answering|won t answer|doesn t answer|does not answer|stopped answering|doesn t pick up|won t pick up|phone is (?:always )?(?:of|off|unreachable)|switched of|turned of|blocked me|unreachable|ne repond (?:plus|pas)|ne decroche (?:plus|pas)|(?:est )?(?:toujours )?eteint|m a bloque|bloque|injoignable|introuvable|ntacyitaba|ntakitaba|ntiyitaba|ntitaba|ntafata telefoni|yamblocked|yarambloka|yampagaritse|telefoni ye (?:ntiri|ntiboneka|irafunze|yavuyeho))\b/g,
);

// The ordinary frames that hold over a whole message: paperwork about a past theft, an
// insurance question about a thing damaged, anger at a lapse, news talk about strangers.
function withoutOrdinaryFrames(padded: string): string {
  let out = padded;
  if (LAPSE.test(out)) out = out.replace(LAPSE_ANGER, " $1$2 ");
  if (DEBT.test(out)) out = out.replace(SILENCE, " silent ");
  if (NOW.test(out)) return out;
  if (NEWS.test(out) && !FIRST_PERSON.test(out)) {
    out = out.replace(THEFT_WORDS, " ").replace(NEWS_HARM_WORDS, " ");
  }
  // An accident of the past ("a dog bit me last year, do I need the shot") is history.
  if (PAST_DATE.test(out)) out = out.replace(PAST_ACCIDENT_WORDS, " ");
  // A past theft with its paperwork, with the thing bought again ("stolen 3 months ago, I
  // want a new Samsung") or with protection bought against the next one.
  const paperwork = PAST_DATE.test(out) &&
    (PAPERWORK.test(out) || BUYING_AGAIN.test(out) || PROTECTION.test(out));
  const claim = INSURANCE_QUESTION.test(out) && THING_DAMAGED.test(out);
  if (INSURANCE_QUESTION.test(out) && VEHICLE.test(out) && !SOMEONE_HURT.test(out)) {
    out = out.replace(COLLISION_WORDS, " ");
  }
  return paperwork || claim ? out.replace(THEFT_WORDS, " ") : out;
}

/**
 * The harm a message describes (violence, theft, danger), or null when it
 * describes none.
 *
 * @param text The message as the user wrote it.
 * @returns The first kind of harm found, or null.
 * @example
 * ```ts
 * import { safetyConcern } from "@shared/agent/safety.ts";
 * safetyConcern("the moto guy drove off with my bag"); // "theft"
 * safetyConcern("ndakubiswe"); // "violence"
 * safetyConcern("taxi to the airport"); // null
 * ```
 */
export function safetyConcern(text: string): SafetyConcern | null {
  // SMS shorthands written out first, so "qqn me suit" is read as "quelqu un me suit".
  const normalized = withoutHarmIdioms(expandShorthands(normalizeText(text)));
  const words = normalized.split(" ").filter((word) =>
    !SAFE_WORDS.has(word) && !RW_LOOKALIKE_STEM.test(word) && !LOOKALIKE_START.test(word)
  );
  const padded = ` ${words.join(" ")} `;
  for (const [concern, key] of ROOT_KEYS) {
    if (padded.includes(key)) return concern;
  }
  for (const [concern, pattern] of PATTERNS) {
    if (pattern.test(padded)) return concern;
  }
  if (FIRE_RW.test(padded)) return "danger";
  if (
    words.some((word) =>
      word.length >= 5 && RW_STOLEN.test(word) && !RW_STOLEN_LOOKALIKE.test(word)
    )
  ) return "theft";
  for (const word of words) {
    const concern = kinyarwandaHarm(word);
    if (concern !== null) return concern;
  }
  return null;
}
