/**
 * Legal Intake gives no legal advice, in any language. Two checks hold the
 * rule, each in en, rw and fr:
 *
 * - {@link asksForAdvice}: the client's message asks what to do or what the
 *   law allows ("should I sign this?", "nkwiye gusinya?", "est-ce que je dois
 *   signer ?"). The offline flow answers it with a polite refusal and the
 *   offer of a person, then carries on with the intake.
 * - {@link givesAdvice}: a model's reply tells the client what to do or what
 *   the law says. The agent's reply guard replaces such a reply with the same
 *   refusal before anyone reads it: no prompt can talk the model past it.
 *
 * Both err towards refusing: a refusal costs the client a tap to a person, an
 * answer that sounds like advice could cost them their case.
 *
 * @module
 */

// Accents and curly apostrophes do not change what is asked.
function plain(text: string): string {
  return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(
    /[\u2018\u2019`]/g,
    "'",
  );
}

const ASKS: readonly RegExp[] = [
  // English: what should I do, am I allowed, is it legal, what are my rights, will I win.
  /\b(should|shall|must|can|could|may) i\b/,
  /\bdo i (have|need) to\b/,
  /\b(am i|are we) (allowed|obliged|entitled|liable|required|right)\b/,
  /\bis (it|this|that|he|she|they|my [a-z]+|the [a-z]+) (legal|illegal|lawful|unlawful|allowed|permitted|entitled|valid|binding|right)\b/,
  /\b(is|are) (my|the|our) [a-z]+ (allowed|entitled|permitted|right) to\b/,
  /\bcan (he|she|they|my [a-z]+|the [a-z]+) (legally|lawfully|really)?\s*(do|evict|fire|refuse|keep|take|sue|charge|make)\b/,
  /\bwhat (should|can|do|must) (i|we) do\b/,
  /\b(my|our) rights\b/,
  /\b(will|would|could) (i|we) win\b/,
  /\bdo (i|we) have a (case|chance)\b/,
  /\b(legal )?advi[cs]e\b/,
  /\bwhat does the law say\b/,
  // Kinyarwanda: nkwiye / ngomba (should I, must I), nemerewe (am I allowed), uburenganzira
  // (rights), nakora iki (what do I do), inama (advice), natsinda (would I win).
  /\b(nkwiye|ngomba|dukwiye|tugomba)\b/,
  /\b(nemerewe|yemerewe|bemerewe|twemerewe|biremewe|byemewe)\b/,
  /\buburenganzira\b/,
  /\b(nakora|dukore|nkore|nakwiye gukora) iki\b/,
  /\b(ngire|mungire|ungire|mumpe|mpa) inama\b/,
  /\binama (mu by'amategeko|y'amategeko|z'amategeko)\b/,
  /\b(natsinda|natsindwa|nzatsinda)\b/,
  /\bamategeko (avuga|ateganya)\b/,
  // French: dois-je, est-ce que je dois, ai-je le droit, est-ce légal, que dois-je faire, conseil.
  /\b(dois|devrais|puis|peux)-je\b/,
  /\best-ce que (je|j'|on|il|elle|mon|ma) ?(dois|devrais|peux|pourrais|ai le droit|a le droit|peut)\b/,
  /\b(ai|a|avons|ont)[- ](je |t-il |t-elle )?le droit\b/,
  /\best-ce (legal|illegal|permis|interdit|valable)\b/,
  /\b(que|qu'est-ce que) (je dois|dois-je|je peux|puis-je|je devrais) faire\b/,
  /\bmes droits\b/,
  /\bconseils? (juridiques?|d'avocat)?\b/,
  /\b(vais|pourrais)-je gagner\b/,
  /\bque dit la loi\b/,
];

const GIVES: readonly RegExp[] = [
  // English: directives and verdicts.
  /\byou (should|shouldn't|should not|ought to|must not|mustn't|had better|could sue|can sue|will win|would win|are likely to win)\b/,
  /\byou (are|aren't|are not) (allowed|entitled|obliged|liable|required|within your rights)\b/,
  /\byou (have|do not have|don't have) (the|a|no) ([a-z]+ )?(right|case|claim)\b/,
  /\b(would|will|could) (win|lose)\b/,
  /\b(he|she|they|your [a-z]+|the [a-z]+) (is|are|isn't|is not|aren't|are not) (allowed|entitled|permitted|obliged|required|liable)\b/,
  // "that is legal advice" names the subject, it judges nothing.
  /\b(it|this|that) (is|isn't|is not|would be) (legal(?! (advice|aid|help|question|matter|case|issue|problem))|illegal|lawful|unlawful|valid|invalid|binding|a breach)\b/,
  /\b(under|according to) (the |rwandan |rwanda's )?law\b/,
  /\bthe law (says|states|requires|allows|forbids|protects|gives)\b/,
  /\barticle [0-9]+\b/,
  /\bi (would )?(advise|recommend|suggest) (you|that you|not)\b/,
  /\bmy advice\b/,
  /\b(do not|don't|never) sign\b/,
  /\b(go ahead and |you can )?sign (it|the contract|this)\b/,
  // Kinyarwanda: ukwiye / wagombye (you should), ntugasinye / sinya (do not sign / sign),
  // ufite uburenganzira (you have the right), amategeko avuga (the law says).
  /\b(ukwiye|wagombye|ntukwiye|ntugomba)\b/,
  /\b(ntugasinye|ntusinye|sinya|usinye)\b/,
  /\b(ufite|afite|ntafite|bafite|nta) u?burenganzira\b/,
  /\bu?burenganzira (ufite|afite|bafite|bwo)\b/,
  /\b(wemerewe|ntiwemerewe|yemerewe|ntiyemerewe|bemerewe|ntibemerewe|biremewe|birabujijwe)\b/,
  /\b(byemewe|binyuranyije|bihabanye) n'amategeko\b/,
  /\bamategeko a(vuga|teganya|tegeka|buza|bibuza|bemerera|kwemerera|bikwemerera)\b/,
  /\bitegeko (rivuga|riteganya|ribuza)\b/,
  /\b(ndakugira|nkugira|ndabagira) inama\b/,
  /\b(uzatsinda|uratsinda|wabatsinda)\b/,
  // French: vous devez / devriez, ne signez pas, vous avez le droit, selon la loi.
  /\bvous (devriez|devez|ne devez pas|ne devriez pas|pouvez poursuivre|allez gagner|gagnerez)\b/,
  /\b(ne signez pas|signez-le|signez le contrat)\b/,
  /\bvous (avez|n'avez pas) (le droit|droit)\b/,
  /\b(il|elle|ils|votre [a-z]+) (a|n'a pas|ont|n'ont pas) le droit\b/,
  /\b(c'est|ce serait|est) (legal|illegal|licite|illicite|interdit|valable|nul)\b/,
  /\b(selon|d'apres) la loi\b/,
  /\bla loi (dit|prevoit|autorise|interdit|exige|protege)\b/,
  /\bje vous (conseille|recommande|suggere)\b/,
  /\bmon conseil\b/,
];

/** Whether a client's message asks for legal advice: what to do, or what the law allows. */
export function asksForAdvice(text: string): boolean {
  const said = plain(text);
  return ASKS.some((pattern) => pattern.test(said));
}

/** Whether a reply gives legal advice: tells the client what to do or what the law says. */
export function givesAdvice(text: string): boolean {
  const said = plain(text);
  return GIVES.some((pattern) => pattern.test(said));
}
