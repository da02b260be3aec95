/**
 * The one-time code of a transactional email (sign-up, login, 2FA), or
 * nothing: a wrong code pasted into the app under test costs more than no
 * code, so a number is shown only when its own label says it is the code.
 *
 * Each number-shaped token is judged by the label nearest it: the words
 * before it in its sentence (or the line above, when it stands on a line of
 * its own, as codes in big type do), or a copula after it ("591 284 is your
 * code"). A promo code, a card's approval code, a dial-in PIN, an order or
 * merchant number, a postcode wears a label of its own (cues.ts) and is left
 * out; a bare "code" counts only in an email whose subject is about signing
 * in. Two different codes with equally good labels are no answer either.
 * Pure: the subject and the body's text (html-text.ts) in.
 */
import { AUTH_SUBJECT, BOOKING_MAIL, COMMERCE_SUBJECT, MEETING_MAIL, cuesIn, type Cue } from './cues.ts';

export interface FoundCode {
  code: string;
  /** Where it was: the subject or the body. */
  in: 'subject' | 'body';
  /** The words that said it is the code ("verification code", "is your code"). */
  label: string;
}

/** Letters of spaced scripts and digits: a code touches none of these. */
const WORD = String.raw`\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{N}`;
/**
 * Digits in up to four groups ("739 204", "12-34-56"), 4 to 8 digits, capitals
 * and digits in dash-joined groups ("QX6-9NT", "K7Q2ZP"), or words joined by
 * dashes ("sadly-brave-hedgehog"). Not after a currency sign, '#', '+' or a
 * decimal point; not before a percent sign, a unit of a time or a decimal.
 */
const CANDIDATE = new RegExp(
  String.raw`(?<![${WORD}@#$€£¥.,/+_=&?%'’-])` +
    String.raw`(\d{2,4}(?:[ -]\d{2,4}){1,3}|[A-Z0-9]{3,12}(?:-[A-Z0-9]{2,6}){1,3}|[A-Z0-9]{4,12}|[a-z]{3,12}(?:-[a-z]{3,12}){2,3})` +
    String.raw`(?![${WORD}@/_]|[.,:-]\p{N}|-[\p{L}\p{N}]|\s\d{4}(?!\d)|\s?#|\s?(?:%|€|\$|円|元|원|руб|EUR|USD|GBP|PLN|h\b|min\b))`,
  'gu',
);

/** Where a sentence ends: what is before it labels nothing after it. A period before a number ("merchant no. 4921") ends nothing. */
const SENTENCE_END = /[!?;。！？|•·]\s|\.\s(?!\s*\d)|[。！？]/g;
/** What may stand between a label and its code on a line: nothing that says something. */
const FILLER = /^[\s:：\-–—"'“”„«»()[\]【】「」<>*#=.]*$/u;
/** After a code, a copula makes the label follow: "591284 is your code", "662401是您的验证码". */
const COPULA = /^[\s:,—–-]*(?:is|ist|est|es|é|è|jest|to|je|är|это|это ваш|是|为|為|は|이|가|은|는)(?![\p{L}])/iu;
/** After a code, "is your…": the code is the subject's own. */
const POSSESSIVE_COPULA = /^[\s:,—–-]*(?:is|ist|est|es|é|è|je)\s+(?:your|dein|ihr|votre|ton|tu|su|seu|il tuo|je|uw)\b/iu;
/** A verb or colon that points at what follows: the sentence's subject is its label ("Ihre TAN … lautet: 482913"). */
const POINTING = /(?:lautet|lauten|is|ist|est|es|é|è|to|jest|je|:)\s*:?\s*$/iu;
/** A verb that asks for typing, right before a number. */
const IMPERATIVE = /\b(?:enter|use|type|input|eingeben|geben sie|gib|saisissez|entrez|utilisez|introduce|ingresa|usa|insira|use o|inserisci|usa il|voer|gebruik|wpisz|wprowadź|введите|используйте)\s*$/iu;
/** What the typing is for, right after it: signing in, confirming, verifying. */
const PURPOSE =
  /^\s*(?:to|um|pour|para|per|om|aby|чтобы|для)\s+(?:\S+\s+){0,2}?(?:verify|confirm|sign[\s-]?in|log[\s-]?in|finish|complete|reset|activate|access|bestätig|anzumelden|verifizier|vérifier|confirmer|connecter|verificar|confirmar|iniciar|acessar|verificare|confermare|accedere|verifiëren|bevestigen|inloggen|in te loggen|potwierdz|zalogowa|подтвер|войти|входа)/iu;
/** How far back a sentence's subject may be. */
const HEAD_REACH = 200;
/** A number of another kind between a label and a candidate: the label is that number's. */
const OTHER_NUMBER = /\d[\d ]*[.,]\d\d(?!\d)|\d{4}|[A-Z]+\d|\d+[A-Z]/u;
/** Words of prices and discounts, in a sentence whose bare "code" then is a promo code. */
const PRICE_WORDS = /%|[$€£¥₩]|\b(off|save|sale|free|checkout)\b|soldes|rabatt|réduction|descuento|desconto|sconto|korting|zniżk|rabat|скидк|割引|折|할인/iu;
/** After a code, what makes it a price or a discount's: "SAVE20 for 20% off", "at checkout". */
const DISCOUNT_AFTER = /%|\boff\b|(at|during|in) (the )?checkout|\bsave\b|rabatt|réduction|descuento|desconto|sconto|korting|zniżk|скидк|割引|折|할인/iu;

/**
 * How much of one line is read: a code stands near the start of its paragraph, and a line of
 * 100 KB (a base64 blob, a template with no breaks) cost 35 ms of labels and candidates to read whole.
 */
const LINE_CHARS = 8000;

/** How far from its label a code may be, in characters. */
const NEAR = 60;
/** How far from the end of the line above a label may be, for a code on a line of its own. */
const ABOVE = 90;

interface Candidate {
  code: string;
  strength: number;
  inSubject: boolean;
  label: string;
}

/** The code of an email, from its subject and its body's text; null when none is labelled as one beyond doubt. */
export function findCode(subject: string, text: string): FoundCode | null {
  const subjectLine = subject.normalize('NFKC');
  const context: MailContext = {
    authSubject: AUTH_SUBJECT.test(subjectLine) && !COMMERCE_SUBJECT.test(subjectLine),
    meeting: MEETING_MAIL.test(subjectLine) || MEETING_MAIL.test(text),
    booking: BOOKING_MAIL.test(subjectLine) || BOOKING_MAIL.test(text),
  };
  const lines = text.split('\n').map((line) => (line.length > LINE_CHARS ? line.slice(0, LINE_CHARS) : line));
  const found: Candidate[] = [...candidatesIn([subjectLine], context, true), ...candidatesIn(lines, context, false)];
  if (found.length === 0) return null;
  const best = Math.max(...found.map((c) => c.strength));
  const top = found.filter((c) => c.strength === best);
  const codes = new Set(top.map((c) => c.code));
  // Two codes each labelled as well as the other: which one the app wants is a guess, and a guess is not shown.
  if (codes.size !== 1) return null;
  const code = top[0]!.code;
  const where = top.find((c) => c.inSubject) ?? top[0]!;
  return { code, in: where.inSubject ? 'subject' : 'body', label: where.label };
}

interface MailContext {
  authSubject: boolean;
  meeting: boolean;
  booking: boolean;
}

/**
 * The body's lines as the finder reads them: addresses blanked, and each
 * line's labels found once, however many numbers it holds (a newsletter's
 * price table holds hundreds).
 */
class Page {
  private readonly masked = new Map<number, string>();
  private readonly cues = new Map<number, Cue[]>();
  readonly lines: string[];
  constructor(lines: string[]) {
    this.lines = lines;
  }
  line(index: number): string {
    let line = this.masked.get(index);
    if (line === undefined) this.masked.set(index, (line = maskAddresses(this.lines[index]!)));
    return line;
  }
  cuesOf(index: number): Cue[] {
    let cues = this.cues.get(index);
    if (cues === undefined) this.cues.set(index, (cues = cuesIn(this.line(index))));
    return cues;
  }
}

function candidatesIn(lines: string[], context: MailContext, inSubject: boolean): Candidate[] {
  const found: Candidate[] = [];
  const page = new Page(lines);
  for (let index = 0; index < lines.length; index++) {
    const line = page.line(index);
    for (const match of line.matchAll(CANDIDATE)) {
      const raw = match[1]!;
      const at = match.index;
      const code = shapeOf(raw);
      if (code === null) continue;
      const after = sentenceAfter(line, at + raw.length);
      // Words joined by dashes are a code only on a line of their own under their label.
      if (/[a-z]/.test(code) && line.trim() !== raw) continue;
      if (DISCOUNT_AFTER.test(after.slice(0, 30))) continue;
      const labelled = labelOf(page, index, at, raw.length, after);
      if (!labelled) continue;
      let strength = strengthOf(labelled.label, context);
      // "591 284 is your Instagram code": nothing but a one-time code is said of that way.
      if (labelled.via === 'after' && POSSESSIVE_COPULA.test(after) && strength > 0) strength = 3;
      // A bare "code" in a sentence about a price or a discount is a promo code.
      if (labelled.label.kind === 'weak' && PRICE_WORDS.test(line.slice(sentenceStart(line, at), at + raw.length) + after)) strength = 0;
      if (strength === 0) continue;
      // A year right after a loose label ("code for 2026") is the year; right after "code:" it is the code.
      if (/^(19|20)\d\d$/.test(code) && labelled.gap > 3) continue;
      found.push({ code, strength, inSubject, label: labelled.label.text.trim() });
    }
  }
  return found;
}

interface Labelled {
  label: Cue;
  via: 'before' | 'above' | 'head' | 'after';
  /** Characters between the label and the code. */
  gap: number;
}

/**
 * What labels the number at `at`: the nearest label before it in its sentence
 * with no other number between them; for a number that starts its line, the
 * line above; a sentence that opens with a code's name and ends "lautet: N"
 * or "is N"; or a copula after it ("N is your code").
 */
function labelOf(page: Page, index: number, at: number, length: number, after: string): Labelled | null {
  const line = page.line(index);
  const cues = page.cuesOf(index);
  const from = sentenceStart(line, at);
  const label = nearestIn(cues, from, at);
  if (label) {
    const between = line.slice(label.end, at);
    if (between.length <= NEAR && !OTHER_NUMBER.test(between)) return { label, via: 'before', gap: between.length };
  }
  if (FILLER.test(line.slice(0, at))) {
    // A code that starts its line (big type, a box of one digit per cell): the line above labels it.
    for (let back = 1; back <= 2 && index - back >= 0; back++) {
      const above = page.line(index - back);
      const cue = nearestIn(page.cuesOf(index - back), Math.max(0, above.length - ABOVE), above.length);
      if (cue && !OTHER_NUMBER.test(above.slice(cue.end))) return { label: cue, via: 'above', gap: 0 };
      if (cue || OTHER_NUMBER.test(above.slice(-ABOVE))) break;
    }
    // "The one-time password for your payment of EUR 249.90 to … on 27.11.2026 is:" and the code on a line
    // of its own below: the sentence above points at it, and its subject names it, however much it says between.
    for (let back = 1; back <= 2 && index - back >= 0; back++) {
      const above = page.line(index - back);
      if (above.trim() === '') continue;
      if (!POINTING.test(above)) break;
      const head = sentenceStart(above, above.length, HEAD_REACH);
      const first = page.cuesOf(index - back).find((cue) => cue.start >= head);
      if (first && first.start < head + 30 && first.kind !== 'weak') return { label: first, via: 'head', gap: 0 };
      break;
    }
  }
  const before = line.slice(from, at);
  if (POINTING.test(before)) {
    // "Ihre TAN für die Überweisung an DE89 … lautet: 482913": the sentence's subject names it.
    const head = sentenceStart(line, at, HEAD_REACH);
    const first = cues.find((cue) => cue.start >= head && cue.end <= at);
    if (first && first.start < head + 30 && first.kind !== 'weak') return { label: first, via: 'head', gap: 0 };
  }
  if (IMPERATIVE.test(before) && PURPOSE.test(after)) {
    // "Enter 294013 to verify your email": typed to sign in or confirm, it is the code.
    return { label: { kind: 'strong', start: at, end: at, text: 'enter … to verify' }, via: 'after', gap: 0 };
  }
  const copula = COPULA.exec(after);
  if (copula) {
    const end = at + length;
    const following = cues.find((cue) => cue.start >= end + copula[0].length - 1 && cue.end <= end + 50);
    if (following && following.kind !== 'decoy') return { label: following, via: 'after', gap: 0 };
  }
  return null;
}

/** How much a label vouches for the number it labels (0: not at all). */
function strengthOf(label: Cue, context: MailContext): number {
  switch (label.kind) {
    case 'decoy':
      return 0;
    case 'strong':
      return 3;
    case 'booking':
      return context.booking ? 0 : 3;
    case 'meeting':
      return context.meeting ? 0 : 2;
    case 'weak':
      return context.authSubject ? 1 : 0;
  }
}

/** The code as it is typed: digit groups joined, capitals' dashes kept; null for a shape no code has. */
function shapeOf(raw: string): string | null {
  if (/^[a-z-]+$/.test(raw)) return raw;
  if (/^[\d -]+$/.test(raw)) {
    // A date written with dashes is a date.
    if (/^\d{4}-\d\d-\d\d$|^\d\d-\d\d-\d{4}$/.test(raw)) return null;
    const digits = raw.replace(/[ -]/g, '');
    const grouped = digits.length !== raw.length;
    if (grouped ? digits.length < 6 || digits.length > 9 : digits.length < 4 || digits.length > 8) return null;
    return digits;
  }
  const letters = raw.replace(/-/g, '');
  // Capitals with digits: a digit and a letter both, 4 to 12 of them.
  if (!/\d/.test(letters) || !/[A-Z]/.test(letters) || letters.length < 4 || letters.length > 12) return null;
  return raw;
}

/** Where the sentence holding `at` starts, at most `reach` characters back. */
function sentenceStart(line: string, at: number, reach = Math.round(NEAR * 1.5)): number {
  const start = Math.max(0, at - reach);
  let cut = start;
  SENTENCE_END.lastIndex = 0;
  for (const end of line.slice(start, at).matchAll(SENTENCE_END)) cut = start + end.index + end[0].length;
  return cut;
}

/** The rest of the sentence after `at`, at most NEAR characters. */
function sentenceAfter(line: string, at: number): string {
  const window = line.slice(at, at + NEAR);
  const end = window.search(SENTENCE_END);
  return end === -1 ? window : window.slice(0, end + 1);
}

/**
 * The label nearest `to` among those wholly within [from, to). A bare "code"
 * right after another label is that label's: "gift card code" is a gift
 * card's, "SMS code" an SMS's.
 */
function nearestIn(cues: Cue[], from: number, to: number): Cue | null {
  let last = -1;
  for (let i = 0; i < cues.length && cues[i]!.end <= to; i++) if (cues[i]!.start >= from) last = i;
  if (last === -1) return null;
  const cue = cues[last]!;
  const previous = last > 0 ? cues[last - 1]! : undefined;
  if (cue.kind === 'weak' && previous && previous.start >= from && cue.start - previous.end <= 2 && previous.kind !== 'weak') return { ...previous, end: cue.end };
  return cue;
}

/** Addresses and URLs hold numbers that are no code: blanked, with their length kept. */
function maskAddresses(line: string): string {
  // The local part is bounded (RFC 5321: 64 octets): unbounded, a 25,000-letter line without an @ took 375 ms to scan.
  return line.replace(/\b(?:https?:\/\/|www\.)\S+|[^\s@<>()]{1,64}@[^\s@<>()]+/giu, (found) => ' '.repeat(found.length));
}
