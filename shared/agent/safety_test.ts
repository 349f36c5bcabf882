import assert from "node:assert/strict";
import { kinyarwandaHarm, safetyConcern } from "./safety.ts";

// Worded apart from the routing sets: the detector is judged on wordings it was not written for.
Deno.test("violence, theft and danger said without a harm keyword are found in three languages", () => {
  const cases: Array<[string, string]> = [
    ["my uncle kicked me in the stomach", "violence"],
    ["a boda rider rode away with our luggage", "theft"],
    ["I handed my parcel to a moto driver and he left with it, now he does not pick up", "theft"],
    ["my little brother went missing at the market", "danger"],
    ["the flat next door is on fire", "danger"],
    ["il m'a gifle devant tout le monde", "violence"],
    ["le taxi est parti avec mes bagages", "theft"],
    ["j'ai confie mon colis a un motard et il est parti avec, il ne repond plus", "theft"],
    ["mon bebe a disparu du quartier", "danger"],
    ["mushiki wanjye yankubise", "violence"],
    ["umushoferi yirukanse n'imizigo yanjye", "theft"],
    ["banyibiye mu modoka", "theft"],
    ["nahaye umumotari ipaki yanjye yigendera nayo", "theft"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("ordinary messages that share a word with harm raise no alarm", () => {
  for (
    const text of [
      "fire extinguisher for the office",
      "assurance incendie pour ma maison",
      "extincteur d'incendie",
      "tourner a gauche au feu rouge",
      "suivi de ma commande",
      "blood pressure tablets",
      "umuvuduko w'amaraso",
      "follow up on my order",
      "my landlord kicked me out, is it legal",
      "a kilo of sugar",
      "I paid for the phone and left with it",
      "il est parti avec sa soeur au marche",
      "ibyerekeye serivisi yanyu",
      "mu kagari ka Kimironko",
      "aho batuye ni he",
      "kitchen knife set for the restaurant",
      "armoire a vendre",
      "shooting a video for my shop",
      "my phone is off, call me later",
      "the driver is not answering",
      "le chauffeur ne repond pas",
      "mon ancien employeur me poursuit en justice",
      "nta mutekano w'imodoka",
      "how do i share my photos of the car",
      "asthma inhaler, i can't breathe well at night",
      "heart attack insurance cover",
      "je veux enlever un article de ma commande",
      "paid but the order disappeared from the app",
      "ku wa gatanu ukurikira",
      "nkurikiza amabwiriza",
      "the man took my order but the food is late",
      "can you finish my order",
      "bantwaye ku kibuga cy'indege",
    ]
  ) {
    assert.equal(safetyConcern(text), null, text);
  }
});

// Worded apart from the routing sets and the dev probes.
Deno.test("weapons, harm to someone else, being held, blackmail and things kept by someone who stopped answering are found", () => {
  const cases: Array<[string, string]> = [
    ["a drunk man holding a machete is shouting at us", "violence"],
    ["my uncle slaps his daughter every day", "violence"],
    ["the taxi man refuses to let me out of the car", "danger"],
    ["he says he is going to leak my pictures", "violence"],
    ["the seller has my money and blocked me on whatsapp", "theft"],
    ["my wallet was taken out of my bag in the market", "theft"],
    ["my nephew did not come back home yesterday", "danger"],
    ["ma cousine se fait battre par son copain", "violence"],
    ["un type porte une arme devant l'ecole", "violence"],
    ["le livreur garde ma valise et son telephone est eteint", "theft"],
    ["il me fait chanter", "violence"],
    ["umusore yitwaje umuhoro hano hanze", "violence"],
    ["bamfungiranye mu cyumba", "violence"],
    ["bantwaye telefone bahita bariruka", "theft"],
    ["ntabwo ndi mu mutekano hano", "danger"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("kidnapping, force, medical collapse, blackmail and a seller who vanished with the money are found", () => {
  const cases: Array<[string, string]> = [
    ["my grandfather fell and is not breathing", "danger"],
    ["my boss forced me into his office and locked the door", "violence"],
    ["i paid the broker for a room and then he disappeared", "theft"],
    ["they stole the radio out of the car", "theft"],
    ["mon neveu a ete enleve devant l'ecole", "danger"],
    ["ils ont pris mon sac de force", "violence"],
    ["mon voisin est inconscient", "danger"],
    ["umwana w'umuturanyi yashimuswe", "danger"],
    ["abagizi ba nabi bateye mu isoko", "violence"],
    ["umukoresha arantoteza buri munsi", "violence"],
    ["bankangishije imbunda", "violence"],
    ["abasore babiri bankurikiye kugera mu rugo", "danger"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("strangers taking things, fake agents, someone at the door, a relative not seen since, and a threat to finish someone are found", () => {
  const cases: Array<[string, string]> = [
    ["three boys near the stadium grabbed my phone", "theft"],
    ["a fake police officer asked me for money", "theft"],
    ["somebody tried to force our gate at 2am", "danger"],
    ["my cousin has not been seen since monday", "danger"],
    ["they told me they will finish me", "violence"],
    ["des inconnus m'ont pris mon telephone", "theft"],
    ["quelqu'un tente d'entrer chez nous", "danger"],
    ["banshikuje telefone mu muhanda", "theft"],
    ["hari abantu barimo kumena idirishya ry'inzu yacu", "danger"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("a Kinyarwanda harm root is read through any prefix chain and ending", () => {
  // Forms written for this test, none of them listed in the detector.
  const harmful: Array<[string, string]> = [
    ["ntibazankubita", "violence"],
    ["twakubiswe", "violence"],
    ["barampohoteye", "violence"],
    ["bazatwica", "violence"],
    ["bamuhitanye", "violence"],
    ["bazadutwika", "violence"],
    ["barankangishije", "violence"],
    ["baramushimuse", "danger"],
    ["turatinya", "danger"],
    ["twibwe", "theft"],
    ["bamwiyitiriye", "theft"],
  ];
  for (const [word, concern] of harmful) assert.equal(kinyarwandaHarm(word), concern, word);
  // Ordinary words that share letters with a root: "be", "these", "office", "to cover", "twice".
  for (const word of ["iba", "ibi", "ibyo", "ibiro", "gutwikira", "twice", "ikubitiro", "yitwa"]) {
    assert.equal(kinyarwandaHarm(word), null, word);
  }
  assert.equal(safetyConcern("ndashaka gutwikira inkono"), null);
  assert.equal(safetyConcern("i was charged twice, refund please"), null);
});

Deno.test("danger said as a situation is found in unseen wordings", () => {
  const cases: Array<[string, string]> = [
    ["mwana wanjye ntiyatashye", "danger"],
    ["umushoferi yanze ko tuvamo", "danger"],
    ["the cab driver is drunk and won't pull over", "danger"],
    ["a lady on the bus cut my handbag", "theft"],
    ["le conducteur ne s'arrete pas et va hors de la ville", "danger"],
    ["ils m'ont ligote", "violence"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("extortion, code scams, watchers and door-trying are found; look-alike ordinary asks are not", () => {
  const cases: Array<[string, string | null]> = [
    ["he wants 50k or else", "violence"],
    ["il veut de l'argent sinon il publie mes photos", "violence"],
    ["they took the otp and now all my money is gone", "theft"],
    ["someone was trying the gate at midnight", "danger"],
    ["abagabo bacunga inzu yacu", null],
    ["hari abasore batureba buri joro", "danger"],
    ["i want rice or else pasta", null],
    ["je veux du riz sinon des pates", null],
    ["my balance is zero after paying for the order", null],
    ["i need a new door handle and lock", null],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

// Concepts, each in wordings of its own (none from the routing sets).
Deno.test("wanting to die, someone who cannot be woken or took too many pills, threats of harm and sexual abuse are found", () => {
  const cases: Array<[string, string]> = [
    ["honestly i do not want to be alive anymore", "danger"],
    ["I'm thinking of taking my own life", "danger"],
    ["je veux mourir, personne ne m'aime", "danger"],
    ["il veut mettre fin à ses jours", "danger"],
    ["murumuna wanjye avuga ko ashaka kwiyahura", "danger"],
    ["ndumva sinkishaka kubaho", "danger"],
    ["grandpa won't wake up and his lips are blue", "danger"],
    ["ma tante ne se réveille plus", "danger"],
    ["papa yituye hasi ntavuga", "danger"],
    ["she swallowed rat poison", "danger"],
    ["il a pris trop de comprimés", "danger"],
    ["mon voisin menace de faire du mal à ma famille", "violence"],
    ["our neighbour was defiled by a boda man", "violence"],
    ["a man has been sexually harassing my daughter", "violence"],
    ["umugabo yasambanyije umwana w'imyaka 8", "violence"],
    ["the fundi didn't come back with my drill and the cash", "theft"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("ordinary messages near those concepts raise no alarm", () => {
  for (
    const text of [
      "I want to end my lease early, is it allowed",
      "je veux en finir avec ce dossier de terrain",
      "STI test kit, sexually transmitted infections",
      "umwana ntarabyuka, muzane ibiryo saa tatu",
      "the app is not responding when I pay",
      "does the comprehensive cover include fire and theft",
      "ubwishingizi bwanyu bwishingira n'inkongi y'umuriro?",
      "nshaka kwiyandikisha",
      "les médicaments pour la tension, j'en prends beaucoup",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("a mob beating someone, a gas leak, money taken then blocked, threats for speaking, a spiked drink are found", () => {
  const cases: Array<[string, string]> = [
    ["people are kicking a boy outside the bus park", "violence"],
    ["des gens frappent une femme devant le marché", "violence"],
    ["I can smell gas in the corridor", "danger"],
    ["il y a une fuite de gaz chez la voisine", "danger"],
    ["the fundi got my deposit and now he blocked me everywhere", "theft"],
    ["my boss says if i report him he will have me beaten", "violence"],
    ["bashyize umuti mu nzoga yanjye", "danger"],
    ["le gardien est parti hier soir avec nos ordinateurs", "theft"],
    ["the maid went out early with our jewellery", "theft"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
  for (
    const text of [
      "gas cylinder refill 12kg",
      "my gas cooker knob is broken",
      "il est parti au marché avec ma soeur",
      "she left early with my brother for Huye",
      "I paid my deposit for the house, when can I move in",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("poison swallowed, a person who fainted or was hit on the road, someone unseen for days, a person kept in and money sent to a vanished number are found", () => {
  const cases: Array<[string, string]> = [
    ["the toddler drank some kerosene from a bottle", "danger"],
    ["uruhinja rwanjye rwamize ibinini", "danger"],
    ["my colleague passed out in the office", "danger"],
    ["a truck knocked down a cyclist near Giporoso", "danger"],
    ["our neighbour has not been seen since Monday", "danger"],
    ["mon oncle l'empêche de sortir de la maison", "danger"],
    ["I paid the agent 200k and his number no longer exists", "theft"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
  for (
    const text of [
      "I took petrol at the station, where do I pay",
      "the website is not responding",
      "can a moto take me from Kicukiro, not seen any nearby",
      "pesticide for my tomatoes",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("fits, blood vomited, a bite, a pocket emptied, a stone thrown and a PIN used by someone else are found; their ordinary neighbours are not", () => {
  const cases: Array<[string, string]> = [
    ["my nephew is having a seizure right now", "danger"],
    ["l'enfant convulse depuis 5 minutes", "danger"],
    ["papa araruka amaraso", "danger"],
    ["a dog bit my daughter on the way to school", "danger"],
    ["bankuye amafaranga mu mufuka muri bisi", "theft"],
    ["abana banteye amabuye", "violence"],
    ["somebody used my momo pin last night", "theft"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
  for (
    const text of [
      "I used my momo code but the payment failed",
      "ndashaka umuti w'inzoka w'abana",
      "dog food 5kg and a leash",
      "nakuye amafaranga mu mufuka nishyura moto",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("an adult seeking a child alone, attackers named, money withdrawn by someone else and a collapse with loss of speech are found", () => {
  const cases: Array<[string, string]> = [
    ["a man from church wants to meet my daughter alone", "danger"],
    ["des malfrats ont attaqué notre maison", "violence"],
    ["somebody withdrew 150k from my account", "theft"],
    ["mon père a eu un malaise au travail", "danger"],
    ["nyogokuru yaguye mu bwiherero ntavuga", "danger"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
  for (
    const text of [
      "I withdrew 50k yesterday, how do I pay by momo",
      "can I see my flat alone before signing the lease",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

// Worded apart from the routing sets, as above.
Deno.test("a child who swallowed something by mistake, a child lured into a vehicle and unwanted touching are found", () => {
  const cases: Array<[string, string]> = [
    ["my toddler swallowed some of the washing powder by accident", "danger"],
    ["le petit a bu de l'eau de javel", "danger"],
    ["umwana yamize imiti ya nyirakuru atabizi", "danger"],
    ["ma fille a avalé du détergent par erreur", "danger"],
    ["some guy was trying to get my son into his van near the market", "danger"],
    ["un inconnu voulait faire monter mon fils dans son taxi", "danger"],
    ["umugabo utazwi yagerageje gutwara umwana wanjye", "danger"],
    ["umwarimu we amukorakora buri munsi", "violence"],
    ["my sister came home with a black eye again", "violence"],
    ["mon fils a des bleus partout et ne veut pas dire qui", "violence"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("an insurance question about what happens if a car is stolen or burns raises no alarm", () => {
  for (
    const text of [
      "ubwishingizi bwishyura iyo moto yibwe?",
      "will the comprehensive cover pay if my car gets stolen",
      "l'assurance tous risques rembourse si la voiture est brûlée ?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("electrocution, a person not responding, drowning, a fall, someone outside who will not leave or prowling, and ending everything are found", () => {
  const cases: Array<[string, string]> = [
    ["my brother got electrocuted fixing the wires, he's on the floor", "danger"],
    ["murumuna wanjye yafashwe n'amashanyarazi, aryamye hasi", "danger"],
    ["mon frère s'est électrocuté en réparant les fils", "danger"],
    ["my baby has a very high fever and is shaking, not responding", "danger"],
    ["umwana yarohamye mu kiyaga", "danger"],
    ["ma mère est tombée dans la salle de bain et ne peut pas se relever", "danger"],
    ["il y a de la fumée qui sort de la maison d'à côté", "danger"],
    ["my ex is outside my house and won't go away", "danger"],
    ["mon ex est devant chez moi et refuse de partir", "danger"],
    ["uwahoze ari umugabo wanjye ari hanze y'inzu yanjye yanze kugenda", "danger"],
    ["someone is walking around our compound with a torch at 2am", "danger"],
    ["quelqu'un tourne autour de notre parcelle avec une torche", "danger"],
    ["I feel like ending everything tonight", "danger"],
    ["numva nshaka kurangiza byose iri joro", "danger"],
    ["abana b'umuturanyi bamaze iminsi itatu bonyine nta biryo", "danger"],
    ["il est encore rentré saoul, les enfants sont cachés sous le lit", "danger"],
    ["des types essaient d'ouvrir ma porte en ce moment", "danger"],
    ["il dit que si je ne paie pas il publie mes photos", "violence"],
    ["he keeps saying I'll regret leaving him", "violence"],
    ["umugabo yambwiye ko nzabyicuza", "violence"],
    ["there's a strange man sleeping in our corridor", "danger"],
    ["I gave my phone to a boy to charge and he vanished", "theft"],
    ["my father is having chest pain and can't breathe", "danger"],
    ["papa afite ububabare mu gatuza ntabasha guhumeka", "danger"],
    ["un enfant est tombé dans les latrines", "danger"],
    ["umwana yaguye mu musarane", "danger"],
    ["inzu y'umuturanyi yaguye kubera imvura, abantu bari imbere", "danger"],
    ["hari umuntu watwaye umwana wanjye ku irembo ry'ishuri", "danger"],
    ["le bus brûle près de Nyabugogo", "danger"],
    ["umugore wanjye avuga ko ashaka kuzimira burundu", "danger"],
    ["umukozi wo mu rugo ararira, umugabo aramubabaza", "violence"],
    ["umugabo ahora ahamagara umukobwa wanjye ashaka ko bahura bonyine", "danger"],
    ["imodoka yagonze igiti, umuntu arava amaraso", "danger"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("insuring against theft or fire, a joke, an electrician and a tenant who will not leave raise no alarm", () => {
  for (
    const text of [
      "how much to insure my car against theft and fire",
      "the food was so good it killed me lol",
      "I need an electrician to fix the wires in my house",
      "my tenant refuses to leave the house after the contract ended",
      "le locataire refuse de partir après la fin du bail",
      "amashanyarazi yabuze i Kicukiro",
      "mon voisin a construit sur ma parcelle, je veux le poursuivre en justice",
      "je veux le poursuivre, il a construit sur ma parcelle",
      "umushoferi watwaye umwana wanjye ku ishuri ejo yishyurwa angahe",
      "nibwira ko nifuza ifiriti n'inkoko",
      "yambwiye ko bizagera ejo",
      "ibiciro byanyu biranyica",
      "les prix me font peur, vous avez moins cher",
      "I'm scared of flying, can I get a car to Musanze instead",
      "my son is afraid of the dark, need a night lamp",
      "someone hit my parked car, how do I claim",
      "imodoka yanjye yagonze igiti, ndashaka ubwishingizi",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

// Worded apart from the routing sets (issue 24 item 6): each concept in all three languages.
Deno.test("a threat of not living to a date, a relative nobody can find, many pills swallowed, poison kept for oneself and bleeding that will not stop are found", () => {
  const cases: Array<[string, string]> = [
    ["he wrote that you won't live to see the end of the month", "violence"],
    ["il m'a écrit que je ne passerai pas la fin du mois", "violence"],
    ["yanyandikiye ko ntazageza ukwezi gutaha", "violence"],
    ["my uncle went to the shops at noon and we still can't find him", "danger"],
    ["papa yagiye ku isoko none twabuze aho ari", "danger"],
    ["ma mère est sortie hier et on ne la retrouve pas", "danger"],
    ["my cousin swallowed half a bottle of sleeping tablets", "danger"],
    ["musaza wanjye yamize ibinini bye byinshi", "danger"],
    ["mon frère a pris une boite de cachets d'un coup", "danger"],
    ["the poison in my bag is for myself", "danger"],
    ["the blood from his leg won't stop", "danger"],
    ["amaraso ava mu kuguru kwe ntahagarara", "danger"],
    ["mon fils saigne beaucoup du nez depuis une heure", "danger"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("a person lying on the road or not moving, a bag snatched, a swollen face after a drunk partner, hiding, a stranger watching at night and a fall into water are found", () => {
  const cases: Array<[string, string]> = [
    ["umunyamaguru aryamye hasi ku muhanda", "danger"],
    ["umukozi wacu yafashwe n'amashanyarazi ntanyeganyega", "danger"],
    ["ma voisine est tombée dans l'escalier, elle ne bouge plus", "danger"],
    ["une voiture a heurté un vélo, le cycliste est par terre", "danger"],
    ["umusore yanshikuje telefoni ku muhanda", "theft"],
    ["my boyfriend was drunk last night and now I have a black eye", "violence"],
    ["mon copain était ivre, j'ai le visage tuméfié", "violence"],
    ["umugore we yasinze none umunwa wanjye wabyimbye", "violence"],
    ["twihishe mu cyumba n'abana", "danger"],
    ["hari umusore uhagarara hanze buri joro areba inzu yacu", "danger"],
    ["our neighbour's boy slipped into the pit behind the house", "danger"],
    ["umusaza yaguye mu iriba", "danger"],
    ["un enfant est tombé dans le puits du quartier", "danger"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("a thing that is killing the sender, murder or robbery as hyperbole, a remedy for a bleeding symptom and a lawsuit over use without permission raise no alarm", () => {
  for (
    const text of [
      "this heat wave is killing me, need a fan",
      "the noise from the bar is killing us",
      "ce bruit me tue, un casque svp",
      "ubushyuhe buranyishe, mufite fan?",
      "umuziki wabo uranyishe",
      "parking in town is murder, send a moto",
      "those shoes were daylight robbery",
      "3000 pour un jus, c'est du vol",
      "toothpaste for bleeding gums",
      "une crème pour une coupure qui saigne un peu",
      "umuti w'izuru riva amaraso gake",
      "a shop used my logo without my permission, can I sue?",
      "ils utilisent ma musique sans autorisation, je veux un avocat",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("an ailment killing the sender, said without 'is', raises no alarm; a person doing it still does", () => {
  for (
    const text of [
      "backache killing me, what can I take for it",
      "this migraine killing me since morning, panadol?",
      "period cramps killing me, need something strong",
      "earache killing me all night",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  assert.equal(safetyConcern("my husband killing me"), "violence");
});

Deno.test("money moved out of an account by a transfer the sender disowns is theft; one's own transfers are not", () => {
  for (
    const text of [
      "the bank just sent an sms, 600k was transferred from my account to a number I don't know, I didn't do it",
      "on vient de retirer 250 000 de mon compte à la banque, c'est pas moi",
      "konti yanjye ya banki yakuweho 300k ubu ngubu, si jye wabikoze",
      "my card was debited 40k at a supermarket in Huye this morning, it wasn't me, I'm in Kigali",
    ]
  ) assert.equal(safetyConcern(text), "theft", text);
  for (
    const text of [
      "I transferred 20k to the shop yesterday, did it arrive?",
      "I didn't do the transfer yet, how do I pay the hotel by bank",
      "the bank debited my account twice for the same school fees, can you check",
      "j'ai retiré 50k hier au guichet, comment payer par momo",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("a person doing the killing, the hurting or the bleeding stays an alarm", () => {
  const cases: Array<[string, string]> = [
    ["the man next door is killing me slowly, he beats me", "violence"],
    ["my husband is killing me", "violence"],
    ["the cut on his head is bleeding and won't stop", "danger"],
    ["someone is using my momo without my permission", "theft"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("a break-in found on coming home, too much medicine taken, feeling one is dying and not wanting to live are found", () => {
  const cases: Array<[string, string]> = [
    ["we got back from church, the window was smashed and the TV was gone", "theft"],
    ["en rentrant, la serrure était fracturée et mon ordinateur avait disparu", "theft"],
    ["twageze mu rugo dusanga urugi barumennye, ibintu byose babitwaye", "theft"],
    ["someone cut our padlock last night and took the bicycle", "theft"],
    ["elle a trop pris de cachets pour dormir", "danger"],
    ["yafashe ibinini byinshi icyarimwe", "danger"],
    ["my chest hurts, I feel like I am about to die", "danger"],
    ["mama arumva agiye gupfa, ntahagaze neza", "danger"],
    ["j'en ai marre de la vie", "danger"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("a broken lock to replace, dying of laughter or hunger, and a door to repair raise no alarm", () => {
  for (
    const text of [
      "the gate lock is broken, how much for a new padlock",
      "handle of my door was broken, need a fundi to fix it",
      "I feel like I'm going to die laughing at this video",
      "numva ngiye gupfa n'inzara, muteka iki?",
      "la fenêtre est cassée, combien pour la réparer",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("blows received or a face in blood (French) are found; a parcel thrown or a bite kit is not harm to a person", () => {
  assert.equal(safetyConcern("mon frère a pris des coups à la sortie du bar"), "violence");
  assert.equal(safetyConcern("la petite a la bouche en sang"), "violence");
  assert.equal(safetyConcern("he threw my daughter out of the car"), "violence");
  for (
    const text of [
      "the courier threw my box on the ground, it's damaged",
      "antivenom for snake bites, do you stock it?",
      "dog bite cream for my puppy",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("an insurance question about theft or fire, prices that 'kill us' and an overcharge called robbery raise no alarm; a robbery with a bag taken still does", () => {
  for (
    const text of [
      "will my car cover pay out if a thief steals it from the parking",
      "l'assurance rembourse si la moto prend feu?",
      "amafaranga y'ishuri araturembeje, ibiciro biratwica",
      "they charged me 5000 for delivery, that's robbery",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  assert.equal(safetyConcern("this is robbery, they took my bag"), "theft");
});

Deno.test("Kinyarwanda -rigany- (cheat) and -fat- by the neck are read through their prefixes; taking a moto is not", () => {
  assert.equal(safetyConcern("umucuruzi yaturiganyije ibihumbi 50"), "theft");
  assert.equal(safetyConcern("yamfashe mu muhogo arankurura"), "violence");
  assert.equal(safetyConcern("ndashaka gufata moto ijya Remera"), null);
});

Deno.test("French SMS shorthands are written out before the lexicon reads the message", () => {
  assert.equal(safetyConcern("mon ptit a avalé des médocs sans qu'on le voie"), "danger");
  assert.equal(safetyConcern("qqn me suit jusqu'à la maison"), "violence");
  assert.equal(safetyConcern("des médocs pour mon ptit, il tousse"), null);
});

Deno.test("someone stuck in a lift is found in three languages", () => {
  for (
    const text of [
      "my mum is stuck in the elevator at the mall",
      "on est coincés dans l'ascenseur depuis 20 minutes",
      "twaheze muri lift ya hoteli",
    ]
  ) assert.equal(safetyConcern(text), "danger", text);
});

// Fourth round (issue 24 item 6): each concept in three languages, worded apart from the
// safety set, with an ordinary neighbour that must stay quiet.
Deno.test("self-harm said by its warning signs is found in three languages", () => {
  for (
    const text of [
      "I'm tired of being a burden to my family",
      "after this week nobody will miss me",
      "giving away all my clothes, goodbye everyone",
      "I go up on the roof at night and think how easy it would be",
      "je suis un poids pour mes parents",
      "personne ne va me regretter",
      "nababereye umutwaro bose",
      "ntawe uzanyibuka nimara kugenda",
    ]
  ) assert.equal(safetyConcern(text), "danger", text);
  for (
    const text of [
      "giving away my baby clothes, who wants them",
      "the roof of my house leaks, need a fundi",
      "is the bridge to Nyabugogo open today",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("a threat with a condition is violence, a bill with one is not", () => {
  for (
    const text of [
      "he said he will smash my car unless I pay him tomorrow",
      "il dit qu'il va brûler ma boutique si je ne paie pas",
      "avuga ko azatwika iduka ryanjye nintamwishyura",
    ]
  ) assert.equal(safetyConcern(text), "violence", text);
  for (
    const text of [
      "the shop says they will send the bill again if I don't pay today",
      "il dit que la commande sera annulée si je ne paie pas",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("someone who cannot be roused, gas smelt, people trapped and breaking glass are danger", () => {
  for (
    const text of [
      "grandma fell off the chair and is not responding",
      "mamie a glissé dans la cuisine et ne répond plus",
      "nyogokuru yituye hasi mu gikoni ntiyitaba",
      "my son fell from the tree on his head and keeps vomiting",
      "the old man next door hasn't opened his door since monday",
      "le vieux voisin n'ouvre pas depuis samedi",
      "there's a smell of gas in the kitchen",
      "ça sent le gaz chez la voisine",
      "haranuka gaze mu nzu hose",
      "imodoka yabirindutse mu muhanda",
      "hari umwana uheze munsi y'urukuta",
      "I can hear glass smashing downstairs",
      "j'entends une vitre qui se brise",
      "numva ikirahuri kimeneka hanze",
      "on ne la trouve nulle part depuis ce matin",
    ]
  ) assert.equal(safetyConcern(text), "danger", text);
  for (
    const text of [
      "imvura yaguye cyane, umushoferi ntiyitaba",
      "I sent the gas money yesterday, is the refill coming",
      "a gas leak detector for the kitchen",
      "je cherche ce sirop, je le trouve nulle part",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("a beating hidden behind a fall, intimate photos, a fake payment and a quick getaway are found", () => {
  const cases: Array<[string, string]> = [
    ["I said I fell off the bike but it was her", "violence"],
    ["j'ai dit au docteur que je suis tombée mais c'était lui", "violence"],
    ["nabwiye muganga ko naguye ariko ni we", "violence"],
    ["he has naked pictures of me and will post them", "violence"],
    ["afite amafoto yanjye nambaye ubusa azayashyira hanze", "violence"],
    ["a buyer showed me a fake momo message and took the goods", "theft"],
    ["un client m'a montré un faux message de paiement", "theft"],
    ["yanyeretse ubutumwa bw'impimbano", "theft"],
    ["yahise agenda na telefoni yanjye", "theft"],
    ["il vient de filer avec mon sac", "theft"],
    ["mon copain me tape quand il boit", "violence"],
    ["bazi aho umwana wanjye yiga", "violence"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
  for (
    const text of [
      "how do I know if a momo message is fake",
      "je veux partir avec ma famille à Rubavu",
      "tu peux me taper le texte du contrat",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("ordinary frames disarm harm words: products, court threats, worries, weather, praise", () => {
  for (
    const text of [
      "burglar alarm for my shop",
      "un détecteur de fumée pour la chambre",
      "ibyuma birinda abajura ku rugi",
      "igitambaro kizimya umuriro",
      "a first aid box for the office",
      "trousse de premiers secours",
      "pansements pour le sang",
      "my landlord threatens to sue me over the deposit, what can I do in court",
      "il menace de porter plainte contre moi au tribunal",
      "arankangisha kundega mu rukiko",
      "I don't want my baby in danger near the road, is the house fenced",
      "je veux pas que les enfants soient en danger près de la route",
      "the area has many thieves, is the house fenced",
      "le quartier a bcp de voleurs, la maison a un gardien?",
      "aho ntuye hari abajura benshi, mufite ingufuri",
      "I'm hiding from the sun, bring cold drinks",
      "je me cache du soleil, apportez des jus",
      "this party playlist is fire",
      "ton son c'est le feu",
      "igiciro cya taxi ni ubujura",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("a past theft asking for paperwork or an insurance claim is no emergency, unless it is happening now", () => {
  for (
    const text of [
      "my bike was stolen 3 months ago, I need a police report for the insurance",
      "ma moto a été volée il y a 2 mois, il me faut une attestation",
      "moto yanjye yibwe hashize amezi 2, nkeneye icyemezo cya polisi",
      "a thief broke my car mirror, will my insurance pay?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const text of [
      "my bike was stolen last year and right now I see the thief at the market",
      "ma moto a été volée le mois dernier et le voleur est encore devant chez moi",
      "moto yanjye yibwe ukwezi gushize none ubu umujura ari hano",
    ]
  ) assert.equal(safetyConcern(text), "theft", text);
});

Deno.test("anger at a lapse is hyperbole; the same words without a lapse, or from a partner, are not", () => {
  for (
    const text of [
      "hurry, my wife will kill me if I miss the wedding",
      "vite, ma mère va me tuer je suis en retard",
      "mama azanyica natinze",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const text of [
      "my ex will kill me, he is waiting outside",
      "my husband will kill me, I'm late home",
      "mon mari va me tuer, il est devant la porte",
    ]
  ) assert.equal(safetyConcern(text), "violence", text);
});

Deno.test("someone who cannot stand after a drink, vengeance promised, a driver who drank and no wish to wake are found", () => {
  for (
    const text of [
      "my brother smoked something and now cannot stand up",
      "mon ami a bu un truc et ne peut plus parler",
      "yanyoye ikintu none ntashobora guhaguruka",
      "the taximan keeps texting that I'll pay for what I did",
      "il m'écrit que tu vas me le payer",
      "le motard est ivre et roule sur le trottoir",
      "umumotari yasinze arimo kwiruka cyane",
      "I don't want to wake up anymore",
      "je n'ai plus envie de continuer",
      "sinshaka kongera kubyuka",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
  for (
    const text of [
      "my grandmother cannot walk far, book a car with space for her chair",
      "you'll pay for the order on delivery?",
      "le chauffeur a bu un café et il arrive",
      "I don't want to wake up early tomorrow, book the taxi at 10",
      "nafungiranye imfunguzo mu modoka",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  assert.equal(safetyConcern("umugore afungiranywe n'umugabo we"), "violence");
});

Deno.test("what protects against a harm is a product, and a year named dates a theft", () => {
  for (
    const text of [
      "nkeneye urugi rurinda abajura",
      "a bike lock against thieves",
      "alarme contre les intrusions",
      "my laptop was stolen in 2021, can a lawyer help me claim it",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  assert.equal(
    safetyConcern("my laptop was stolen in 5 minutes at the café, the guy is running"),
    "theft",
  );
});

Deno.test("Kinyarwanda -kubit- on a thing, a car hit while parked, a price called a scam and a lock to mend stay ordinary", () => {
  for (
    const text of [
      "ninde wankubitira ipasi ishati",
      "gukubita akadomo ku ijambo",
      "moto yanjye yagonzwe n'imodoka iparitse, ubwishingizi bwishyura?",
      "I was scammed by the prices at that supermarket haha",
      "ce loyer c'est de l'arnaque",
      "someone smashed the gate lock, need a fundi to fix it",
      "do you sell a knife block",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const text of [
      "moto yanjye yagonzwe n'imodoka, umwana arava amaraso",
      "someone is pounding on our gate and shouting",
      "on m'a chipé ma montre dans le bus",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
});

Deno.test("extortion on a schedule, a person found hanging, drowning and smoke with no answer are found; sport slaughter and a denied theft are not", () => {
  for (
    const text of [
      "men demanding money every week from the kiosk",
      "des types exigent de l'argent chaque samedi",
      "we saw my uncle hanging from a tree",
      "a man is drowning near the boats",
      "le petit est en train de se noyer",
      "the flat upstairs is full of smoke",
      "inzu yuzuye umwotsi",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
  for (
    const text of [
      "our club got destroyed 3-0, bring beers",
      "ikipe yacu yishwe n'ibitego 2",
      "selling a laptop, not stolen, receipt included",
      "je vends un iPhone, pas volé, avec facture",
      "I'm drowning in emails, order me lunch",
      "hanging shelves for the shop",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("'emergency' naming a trade, a flood risk, a thing lost and asked after, a small burn with a remedy, a fine, fear of flying and a spilt sauce stay ordinary", () => {
  for (
    const text of [
      "emergency electrician needed, no power in the shop",
      "urgence, un serrurier pour ma porte",
      "what's the risk of landslides for a plot in Kinyinya",
      "I left my jacket at your bar, did the staff find it?",
      "cut my finger slicing onions, need a plaster",
      "yakubiswe n'ihazabu ya polisi",
      "I'm afraid of taking the plane, bus to Kampala?",
      "le serveur a renversé du café sur ma robe",
      "a dog bit my son last month, where is the vaccine",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const text of [
      "emergency, my brother collapsed",
      "a dog just bit my son and he is bleeding a lot",
      "I lost my son at the market, has anyone found him?",
      "le camion a renversé un enfant",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
});

Deno.test("a dispute's 'thief' taken to a lawyer and a mother's anger at a missed bus stay ordinary", () => {
  for (
    const text of [
      "the seller is a crook, he kept my deposit, I want to sue",
      "le proprio est un voleur, il garde ma caution, il me faut un avocat",
      "je vais rater le bus, maman va me tuer",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  assert.equal(safetyConcern("there is a thief in our compound right now"), "theft");
});

// The sixth round's concepts (issue 24 item 6), worded apart from the safety6 set.
Deno.test("failing breath with a sign, a watcher who describes one's clothes, night visits and being followed are found in three languages", () => {
  const cases: Array<[string, string]> = [
    ["my grandson can't breathe and his lips look blue", "danger"],
    ["mon fils arrive pas à respirer, ses lèvres sont bleues", "danger"],
    ["umusaza yabuze umwuka, ari kugwa", "danger"],
    ["a man keeps texting me describing what I wore today", "danger"],
    ["il m'envoie des messages qui décrivent ce que je porte aujourd'hui", "danger"],
    ["hari umugabo unyandikira ambwira imyenda nambaye uyu munsi", "danger"],
    ["is it normal that my stepfather gets into my bed when mum is out?", "violence"],
    ["ma fille est suivie par un homme depuis l'école", "danger"],
    ["ndimo gukurikiranwa n'abagabo babiri kuva ku isoko", "danger"],
    ["umusore arankurikira kuva kuri gare", "danger"],
    ["elle dit qu'elle voit plus le sens de sa vie", "danger"],
    ["mama yarumwe n'inzoka ubu", "danger"],
    ["ashyize hanze amafoto yanjye ndi ubwambure", "violence"],
  ];
  for (const [text, concern] of cases) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("a film, a toy, a figure of speech, a building's fire exit, a cover, an accusation and a denied injury stay ordinary in three languages", () => {
  for (
    const text of [
      "we're shooting a crime scene for a music video, need a moto for the cameraman",
      "vous avez des pistolets à eau pour enfants?",
      "ndashaka imbunda y'amazi y'umwana",
      "my feet are killing me, need comfortable sandals",
      "les pieds me tuent, des sandales svp",
      "umugongo uranyica, mufite amavuta yo gusiga?",
      "I nearly had a heart attack when I saw the bill",
      "the fire exit door at my shop needs a new lock",
      "un bois pour le feu du barbecue et du charbon",
      "assurance incendie et vol pour mon magasin, c'est combien?",
      "he was accused of stealing a phone, I need a lawyer for the appeal",
      "yashinjwe ubujura, nkeneye umunyamategeko",
      "personne n'a été blessé mais le pare-choc est cassé, je veux déclarer à l'assurance",
      "nta muntu wakomeretse ariko imodoka yangiritse, nshaka claim",
      "nohereje kuri nimero itari yo, byanteye ubwoba, nabisubiza nte?",
      "umwana afite umuriro mwinshi, mufite sirope?",
      "my shop was burgled in March and now I want to sue the guards' company",
      "nabikurikirana nte kuri assurance?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  // The same harm words, happening now, are still found.
  for (
    const text of [
      "nobody helped, he's not breathing",
      "there is a fire in our building and the exit is locked",
      "umwana afite umuriro kandi ari kugagara",
      "someone is stealing my phone right now, a man grabbed it",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
});

Deno.test("choking on a thing swallowed, a fall with no answer and a burn given on purpose are found; a theft trial, a film's fright and a seller who 'burned' a buyer are not", () => {
  for (
    const text of [
      "the baby swallowed a coin and is choking",
      "umwana yamize igiceri none ari kunigwa",
      "le bébé a avalé une pièce et il s'étouffe",
      "my elderly dad fell down the stairs and isn't answering his phone",
      "is it normal for my wife to burn me with a hot iron when she's angry?",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
  for (
    const text of [
      "my lawyer says the theft trial is next week, I need a taxi to the court on monday",
      "un avocat pour l'affaire de vol de mon frère",
      "ce film d'horreur m'a tué de peur mdr, vous livrez du popcorn?",
      "I got burned by the last seller on this app, want a refund of my deposit",
      "the price is choking my business, any discount on rice?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("a fall and no answer in any order, sex forced by a partner and an account emptied now are found; a harm named as a genre is not", () => {
  for (
    const text of [
      "mama ntiyitaba kuva mu gitondo, yaguye mu gikoni",
      "grand-mère répond plus, elle est tombée dans la douche",
      "she's not answering, I think she fell in the shower",
      "est ce normal que mon mari me force quand je veux pas?",
      "is it normal that he forces me when I don't want to?",
      "bankuyeho amafaranga yose kuri momo ubu ngubu, sinzi uwo ariwe",
      "someone is emptying my momo right now",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
  for (
    const text of [
      "nkeneye filime z'intambara n'iz'abajura, DVD",
      "a book about murder in Kigali for my book club",
      "je cherche des romans sur des voleurs de banque",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("strangling in Kinyarwanda's verb forms, about to die, a stroke's and a fit's signs, a poison drunk and an adult asking a child for photos are found", () => {
  for (
    const text of [
      "yamunize agiye gupfa",
      "baramuniga ubu nyine",
      "umwana yanyweye peteroli",
      "my mom's face is drooping and her arm went weak suddenly",
      "ma mère a la bouche de travers depuis ce matin",
      "my little girl has a fever and now she is having a fit",
      "mon fils fait une crise d'épilepsie, il tremble et bave",
      "umwana yafashwe n'igicuri ubu",
      "ma fille de 13 ans parle avec un adulte qui lui demande des photos",
      "my 12 year old is chatting with an adult who asks for pictures",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
  for (
    const text of [
      "my phone is dying, need a charger",
      "I'm dying to try your pizza",
      "the landlord is threatening to raise the rent, need a new house",
      "le proprio menace de couper l'eau, je cherche un autre logement",
      "umwana wanjye yaguye ku igare yakomeretse ku ivi gato, nkeneye plasters",
      "passport photos for my daughter and one adult, how much?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("a worry about an outcome, a harm naming a genre, livestock attacked, a parked car knocked, an old fracture and a theft long ago with the thing bought again stay ordinary", () => {
  for (
    const text of [
      "I'm scared the cake won't arrive on time for the party at 7, can you rush it",
      "j'ai peur que le gâteau arrive en retard pour la fête, vous pouvez accélérer?",
      "mfite ubwoba ko gato itazagera ku gihe, mwakwihutisha?",
      "a thief movie night at home, need popcorn and 6 sodas",
      "my neighbour's dog attacked my chickens last week, where can I buy fencing wire",
      "quelqu'un a cogné ma voiture garée et a laissé son numéro, comment déclarer",
      "my son broke his arm last year and needs a check-up, moto to CHUK",
      "my phone was stolen 3 months ago, I want to buy a new Samsung A15",
      "banyibye telefoni mu mezi 3 ashize, ndashaka kugura Samsung A15 nshya",
      "on m'a volé mon tel il y a 3 mois, je veux acheter un Samsung A15",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const text of [
      "I'm scared he will hit me again when he's home",
      "j'ai peur qu'il me frappe encore ce soir",
      "the dog attacked my son, he is bleeding",
      "my phone was just stolen, I want to buy a new one but first block it",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
});

Deno.test("medicines eaten by a child, chest pains, and someone shut in a room for days without answering are found; robbed by a fare and stolen by a beauty are not", () => {
  for (
    const text of [
      "le petit a mangé des médicaments de sa grand mère, plein",
      "my dad has chest pains and is sweating a lot",
      "my roommate has not come out of her room for 2 days and doesn't answer",
      "mon frère est dans sa chambre depuis hier et il répond pas",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
  for (
    const text of [
      "nibwe n'ubwiza bw'iyi nzu, ndashaka kuyikodesha",
      "I was robbed by the taxi fare last time lol, how much to Nyarutarama",
      "on s'est fait arnaquer sur le prix du menu la dernière fois lol, c'est combien le buffet",
      "the child took his medicine, when is the next dose?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("someone in the sender's account taking money is theft; a mechanic, waiting at a gate, loud music and 'I almost died lol' are not harm", () => {
  for (
    const text of [
      "someone is using my momo account and money keeps leaving, I didn't do it",
      "hari umuntu winjiye muri konti yanjye ya banki akuraho amafaranga ubu",
      "quelqu'un est dans mon compte momo et retire de l'argent",
    ]
  ) assert.equal(safetyConcern(text), "theft", text);
  for (
    const text of [
      "I think someone is using my Netflix account, how do I change the password",
      "imodoka yanjye yapfiriye mu nzira nijoro, nkeneye umukanishi",
      "umushoferi ntiyitaba, maze iminota 20 ntegereje ku irembo",
      "la musique du voisin nous tue chaque nuit, vous avez un casque anti bruit",
      "le prix du taxi me tue",
      "umuziki w'umuturanyi uratwica buri joro, mufite ecouteurs?",
      "my daughter cut her hair very short and I almost died lol, need a wig for her",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  assert.equal(
    safetyConcern("my brother-in-law keeps my sister locked in and takes her salary"),
    "violence",
  );
  // The object prefix keeps a watcher at the gate: "arantegereje" waits for the sender.
  assert.notEqual(safetyConcern("umugabo arantegereje ku irembo buri joro"), null);
});

Deno.test("a blessed day and a ride for a relative raise no alarm; a threat to take a child still does", () => {
  for (
    const text of [
      "ok thank you, have a blessed day",
      "a driver to take my mother to church every sunday",
      "can a woman driver take my kids to school",
      "take my grandfather to his doctor appointment",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const text of [
      "he said he will take my kids to his village and I will never see them",
      "my ex threatens to take my son",
      "il a blessé mon fils avec un couteau",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
});

Deno.test("a debtor's silence, news of a crime, a vehicle damaged, a past fire or burglary now insured or locked against, and a rent threat raise no alarm", () => {
  for (
    const text of [
      // A debt owed to the sender, then silence.
      "my uncle owes me money for the cows and has blocked me on every app",
      "the client who owes us money for the goods is not answering",
      "mon ami me doit de l'argent depuis juin, son téléphone est éteint",
      "mon frère m'a emprunté de l'argent et m'a bloqué partout",
      // News talk about strangers.
      "have you heard about the robbery at the fuel station on the news",
      "les infos parlent d'un braquage à Remera, c'est fou",
      "mwumvise inkuru y'abajura bibye muri supermarket ya Kicukiro?",
      "people say the bus depot burned on Sunday, are tickets still sold?",
      "bavuga ko inkongi yafashe gare ku cyumweru, amatike aracyagurishwa?",
      // A vehicle damaged, an insurance claim.
      "our truck got dented in the car park, can I claim",
      "ma moto a été rayée devant le marché, l'assurance rembourse ?",
      "moto yanjye bayikubise iparitse, ubwishingizi bwishyura?",
      "personne blessé mais la portière est cassée, comment déclarer",
      "nta wakomeretse ariko imodoka yangiritse, nkore iki ku bwishingizi",
      // A past fire or burglary, and what is bought against the next.
      "inkongi yabaye umwaka ushize, ubu dushaka ubwishingizi bw'iduka",
      "cambriolage le mois dernier, il me faut un cadenas et une alarme",
      // A threat about rent, in French and Kinyarwanda.
      "la propriétaire menace d'augmenter le loyer en janvier",
      "nyir'inzu arankangisha kunsohora kubera ubukode, mfite amasezerano",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("violence beside a debt, a theft of the sender told beside the news, a vehicle hitting a person and a fire now stay alarms", () => {
  for (
    const text of [
      "he owes me money and when I asked he slapped me",
      "il me doit de l'argent et il m'a frappé hier soir",
      "did you hear the news? thieves robbed me last night",
      "mwumvise ko banyibye telefoni",
      "a car hit my daughter and she is bleeding",
      "une voiture a heurté mon fils, il ne bouge pas",
      "there is a fire in our kitchen now",
      "they say there is a fire near us, my kids are inside",
      "the moto guy took my bag and is not answering",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
});

Deno.test("an emergency product asked for and a collision between vehicles asked about for insurance raise no alarm; a person hit or trapped still does", () => {
  for (
    const text of [
      "a torch and an emergency blanket for the car",
      "trousse d'urgence pour la voiture svp",
      "nkeneye ibinini byihutirwa byo kwirinda gusama",
      "umushoferi wa bisi yangonze ku isangano ndi mu modoka, ubwishingizi bwe buzanyishyura?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const text of [
      "imodoka yagonze umwana ku muhanda, ubwishingizi bwishyura?",
      "the truck crashed into our house and my mother is trapped, will insurance cover",
      "a car hit me, will insurance pay the hospital",
      "emergency! my son swallowed pills",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
});

Deno.test("a product thieves cannot beat and dying of laughter raise no alarm; a thief at the lock still does", () => {
  for (
    const text of [
      "do you have a burglar-proof padlock for the gate",
      "une serrure que les voleurs ne peuvent pas forcer, vous avez ?",
      "mufite inzugi z'icyuma zidashobora kwibwa? ndashaka itashobora kwibwa",
      "abajura badashobora kumena iyi ngufuri? ndayishaka",
      "the video was so funny we nearly died laughing",
      "on est morts de rire hier soir, réservez encore la même table",
      "twapfuye guseka kubera iyo filime, mufite indi?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  assert.notEqual(safetyConcern("a thief is breaking our padlock right now"), null);
});

Deno.test("Kinyarwanda stems that begin like a harm root (wonder, focus, forget, sit, follow up a file, an alarm), rain that beats and seed sown stay ordinary; the harm roots themselves still count", () => {
  for (
    const text of [
      "ndibaza niba resitora yanyu ifunguye none",
      "turashaka kwibanda ku biribwa by'abana",
      "yibagiwe igikapu cye muri bisi, mwamfasha kukibona?",
      "mushiki wanjye yibarutse impanga, ndashaka indabo",
      "tumaze kwicara ku meza, muzane amazi",
      "nshaka kwicaza abashyitsi icumi muri resitora",
      "munkurikiranire ikibazo cya konti yanjye",
      "mudukurikiranire dosiye y'imodoka",
      "ndashaka intabaza y'imodoka n'ingufuri",
      "twakubiswe n'imvura tuva ku isoko, dukeneye tagisi",
      "narabibye ibigori mu murima, nkeneye ifumbire",
      "twabibye imbuto z'imboga, imiti y'udukoko igura angahe?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const [text, concern] of [
      ["bashaka kunyica", "violence"],
      ["umujura yashatse kwiba telefoni yanjye", "theft"],
      ["umugabo arankurikira kuva ku isoko", "danger"],
      ["nimudutabare, hari umuntu winjiye mu nzu", "danger"],
      ["yakubiswe n'inkuba none ntahumeka", "violence"],
      ["abajura bibye ibigori byacu mu murima", "theft"],
    ] as const
  ) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("a household poison drunk is danger in Kinyarwanda's other verb for drinking (-nywa: 'yanyweye')", () => {
  assert.equal(safetyConcern("sogokuru yanyweye umuti wica udukoko"), "danger");
  assert.equal(safetyConcern("umukozi yanyweye umuti wica imbeba"), "danger");
});

Deno.test("Kinyarwanda figures and objects near harm stay ordinary: a thing of another class 'killing' me, a blocked drain, a day missed, a toy gun, a punching bag, fear of planes, hearsay of a fire, crime novels", () => {
  for (
    const text of [
      "iyi embouteillage iranyica, nshaka moto",
      "ikizamini cy'ejo cyanyishe, nkeneye icyayi",
      "robine yo mu gikoni yazibye, nkeneye umufundi",
      "umwana yasibye ishuri kubera ibicurane, mufite umuti?",
      "dukeneye imbunda z'ibikinisho z'abana",
      "ndashaka umufuka wo gukubita wa siporo",
      "ndatinya indege, mumbonere bisi ijya Nairobi",
      "amakuru avuga ko habaye inkongi i Gikondo, amaduka arafunguye?",
      "murafite ibitabo by'abagizi ba nabi by'icyongereza?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const [text, concern] of [
      ["umugabo aranyica, muze vuba", "violence"],
      ["bibye ihene zacu nijoro", "theft"],
      ["moto yanjye yibwe ubu nonaha", "theft"],
      ["inka zacu zibwe nijoro", "theft"],
      ["mfite ubwoba, umugabo afite imbunda hanze", "violence"],
      ["ndatinya umugabo wanjye, arankubita", "violence"],
    ] as const
  ) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("a Kinyarwanda break-in told by its two acts, a thing broken and things taken or gone, is theft; a window broken alone is not", () => {
  for (
    const text of [
      "bamennye idirishya ry'imodoka bajyana mudasobwa",
      "nagarutse nsanga urugi rwamenetse kandi ibintu byo mu nzu bitakiriho",
      "bamennye iduka ryacu batwara amakarito y'amata",
    ]
  ) assert.equal(safetyConcern(text), "theft", text);
  for (
    const text of [
      "umwana yamennye ikirahure cy'idirishya, nkeneye umufundi",
      "ingufuri y'urugi yamenetse, mufite indi?",
    ]
  ) assert.equal(safetyConcern(text), null, text);
});

Deno.test("a Kinyarwanda worry about a thing, a plaster for a small wound and a team beaten by goals stay ordinary; fear of a person and a grave wound stay alarms", () => {
  for (
    const text of [
      "mfite ubwoba ko imodoka izatinda, mwohereze indi",
      "ndatinya ko ibiciro bizazamuka, ngure ubu?",
      "nkeneye igipfuko cy'ukuguru kwakomeretse gato",
      "Rayon yakubiswe ibitego bine ejo, ndashaka itike y'umukino utaha",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const text of [
      "mfite ubwoba ko azagaruka nijoro",
      "nkeneye umuti, umwana yakomeretse cyane ava amaraso",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
});

Deno.test("a thing after a demonstrative or of class 6 'killing' me, a boss angry at a lapse said with -tinda, and a match 'stolen' by the referee stay ordinary; bandits, a man and a theft at a match do not", () => {
  for (
    const text of [
      "uyu muhanda w'i Kanombe uranyica buri munsi, nshaka moto",
      "ubu bukode buranyishe, hari inzu ihendutse?",
      "aya mafaranga y'ubukode aranyishe, hari inguzanyo?",
      "shefu aranyica nintinda, mpa moto",
      "umusifuzi yatwibye umukino, ikipe yacu yibwe",
      "ikipe yacu bayibye igitego ku munota wa nyuma",
      "our team got robbed in the semi final by the referee",
      "we got robbed in the final, unbelievable",
      "on s'est fait voler en finale hier",
      "the referee robbed us",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const [text, concern] of [
      ["amabandi aranyica muze", "violence"],
      ["uyu mugabo aranyica", "violence"],
      ["shefu aranyica", "violence"],
      ["on s'est fait voler au match hier", "theft"],
      ["on m'a volé pendant le match", "theft"],
      ["someone stole my phone during the game", "theft"],
      ["bamwibye telefoni ku kibuga cy'umupira", "theft"],
      ["l'arbitre a vu le voleur prendre mon sac", "theft"],
      ["order ref 4471: they stole my parcel at the gate", "theft"],
    ] as const
  ) assert.equal(safetyConcern(text), concern, text);
});

Deno.test("a word that only begins with a harm root's letters, keys locked in, harmless food and a denied emergency stay ordinary; the roots still count", () => {
  for (
    const text of [
      "rappelle-moi dès que tu peux, c'est pour la commande",
      "a bottle of cognac and two glasses for tonight",
      "des biscuits sans arachides pour l'école de mon fils",
      "ce sirop est sans danger pour un bébé de 6 mois ?",
      "nshaka kwibaruza moto nshya muri RRA",
      "my mum needs a ride to her check-up, it is not an emergency",
      "j'ai enfermé mes clés dans la maison, il me faut un serrurier",
      "pardon pour la faute de frappe, je voulais dire deux pizzas",
    ]
  ) assert.equal(safetyConcern(text), null, text);
  for (
    const text of [
      "he raped my sister last night",
      "il m'a cognée contre le mur",
      "deux gars m'ont arraché mon téléphone",
      "il m'a enfermée dans la chambre depuis hier",
      "mon mari me frappe",
      "this is an emergency, my neighbour collapsed",
      "bashaka kwiba inka zacu",
    ]
  ) assert.notEqual(safetyConcern(text), null, text);
});
