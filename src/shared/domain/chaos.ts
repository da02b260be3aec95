/**
 * Chaos: This computer's SMTP answering "no" on purpose, so an app's retry and
 * bounce handling can be tested (Mailpit's Chaos, and more): per stage of the
 * SMTP conversation an answer code with a probability or for the next N times,
 * a slow server (a delay before each answer), and a connection dropped in the
 * middle of DATA. Pure: the settings, their checks, the decision, and
 * Mailpit's /api/v1/chaos shape. Runs anywhere.
 */

export const CHAOS_STAGES = ['connect', 'auth', 'mailFrom', 'rcptTo', 'dataEnd'] as const;
export type ChaosStage = (typeof CHAOS_STAGES)[number];

export const STAGE_NAMES: Record<ChaosStage, string> = {
  connect: 'connect (the greeting)',
  auth: 'AUTH',
  mailFrom: 'MAIL FROM',
  rcptTo: 'RCPT TO',
  dataEnd: 'the end of DATA',
};

/** The codes a tester reaches for first; any 4xx or 5xx is taken. */
export const COMMON_CODES = [421, 450, 451, 452, 535, 550, 552, 554] as const;

export interface ChaosTrigger {
  /** The SMTP answer: 400-599. */
  code: number;
  /** Percent of the times the stage is reached (0-100)… */
  probability: number;
  /** …or exactly the next N times (then off); 0: the probability decides. */
  next: number;
}

export interface ChaosSettings {
  triggers: Partial<Record<ChaosStage, ChaosTrigger>>;
  /** Waited before every answer, to make the app's timeouts fire; 0: none. */
  delayMs: number;
  /** Drop the connection in the middle of DATA (nothing is stored): a percent, or the next N. */
  drop: { probability: number; next: number } | null;
  /** Stays on after a restart; otherwise a restart turns it off. */
  pinned: boolean;
}

export const CHAOS_OFF: ChaosSettings = { triggers: {}, delayMs: 0, drop: null, pinned: false };
export const MAX_CHAOS_DELAY_MS = 600_000;

const fires = (t: { probability: number; next: number }) => t.next > 0 || t.probability > 0;

/** Whether anything makes the server misbehave: what the inbox's banner says. */
export function chaosIsOn(chaos: ChaosSettings): boolean {
  return Object.values(chaos.triggers).some((t) => t && fires(t)) || chaos.delayMs > 0 || (chaos.drop !== null && fires(chaos.drop));
}

/** The banner's sentence: what the server does now. */
export function describeChaos(chaos: ChaosSettings): string {
  const parts: string[] = [];
  for (const stage of CHAOS_STAGES) {
    const t = chaos.triggers[stage];
    if (t && fires(t)) parts.push(`${t.code} at ${STAGE_NAMES[stage]} (${t.next > 0 ? `the next ${t.next}` : `${t.probability}%`})`);
  }
  if (chaos.delayMs > 0) parts.push(`${chaos.delayMs / 1000} s before every answer`);
  if (chaos.drop && fires(chaos.drop)) parts.push(`the connection dropped mid-DATA (${chaos.drop.next > 0 ? `the next ${chaos.drop.next}` : `${chaos.drop.probability}%`})`);
  return parts.join('; ');
}

/** A trigger as given, or the sentence that says why not. */
export function checkTrigger(value: unknown, where: string): ChaosTrigger | string {
  const t = value as Partial<ChaosTrigger> | null;
  if (typeof t !== 'object' || t === null) return `${where}: a trigger is { code, probability } or { code, next }.`;
  const code = t.code;
  if (typeof code !== 'number' || !Number.isInteger(code) || code < 400 || code > 599) return `${where}: the code must be a 4xx or 5xx SMTP answer (400-599), not ${JSON.stringify(code)}.`;
  const probability = t.probability ?? 0;
  if (typeof probability !== 'number' || !(probability >= 0 && probability <= 100)) return `${where}: the probability is a percent from 0 to 100, not ${JSON.stringify(probability)}.`;
  const next = t.next ?? 0;
  if (typeof next !== 'number' || !Number.isInteger(next) || next < 0 || next > 1_000_000) return `${where}: "the next N" is a whole number from 0, not ${JSON.stringify(next)}.`;
  return { code, probability, next };
}

/** Whole settings as given, or the sentence that says what is wrong. */
export function checkChaos(value: unknown): ChaosSettings | string {
  const v = value as Partial<ChaosSettings> | null;
  if (typeof v !== 'object' || v === null) return 'Chaos settings are an object.';
  const triggers: ChaosSettings['triggers'] = {};
  for (const [stage, trigger] of Object.entries(v.triggers ?? {})) {
    if (!(CHAOS_STAGES as readonly string[]).includes(stage)) return `There is no stage "${stage}": ${CHAOS_STAGES.join(', ')}.`;
    if (trigger === null || trigger === undefined) continue;
    const checked = checkTrigger(trigger, STAGE_NAMES[stage as ChaosStage]);
    if (typeof checked === 'string') return checked;
    triggers[stage as ChaosStage] = checked;
  }
  const delayMs = v.delayMs ?? 0;
  if (typeof delayMs !== 'number' || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > MAX_CHAOS_DELAY_MS) return `The delay is a whole number of milliseconds from 0 to ${MAX_CHAOS_DELAY_MS}.`;
  let drop: ChaosSettings['drop'] = null;
  if (v.drop) {
    const checked = checkTrigger({ code: 421, ...v.drop }, 'Drop mid-DATA');
    if (typeof checked === 'string') return checked;
    drop = { probability: checked.probability, next: checked.next };
  }
  return { triggers, delayMs, drop, pinned: v.pinned === true };
}

/** Mailpit's names for the stages it has. */
const MAILPIT: Record<'Sender' | 'Recipient' | 'Authentication', ChaosStage> = { Sender: 'mailFrom', Recipient: 'rcptTo', Authentication: 'auth' };

export interface MailpitChaos {
  Sender: { ErrorCode: number; Probability: number };
  Recipient: { ErrorCode: number; Probability: number };
  Authentication: { ErrorCode: number; Probability: number };
}

/** GET /api/v1/chaos: Mailpit's three triggers (a trigger set "for the next N" shows as 100%). */
export function toMailpit(chaos: ChaosSettings): MailpitChaos {
  const one = (stage: ChaosStage) => {
    const t = chaos.triggers[stage];
    return t && fires(t) ? { ErrorCode: t.code, Probability: t.next > 0 ? 100 : t.probability } : { ErrorCode: 451, Probability: 0 };
  };
  return { Sender: one('mailFrom'), Recipient: one('rcptTo'), Authentication: one('auth') };
}

/** PUT /api/v1/chaos: as Mailpit, a trigger left out goes back to 0%; the rest of ours stays. */
export function fromMailpit(body: unknown, current: ChaosSettings): ChaosSettings | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The body is an object: { "Sender": { "ErrorCode": 451, "Probability": 50 }, … }.';
  const triggers = { ...current.triggers };
  for (const [name, stage] of Object.entries(MAILPIT)) {
    const given = (body as Record<string, unknown>)[name] as { ErrorCode?: unknown; Probability?: unknown } | undefined;
    if (given === undefined || given === null) {
      delete triggers[stage];
      continue;
    }
    const checked = checkTrigger({ code: given.ErrorCode, probability: given.Probability ?? 0 }, name);
    if (typeof checked === 'string') return checked;
    triggers[stage] = checked;
  }
  return { ...current, triggers };
}

/**
 * The decision at a stage: the code to answer, or null to go on. A trigger
 * "for the next N" counts down (the caller keeps what it answers).
 */
export function decide(chaos: ChaosSettings, stage: ChaosStage, random: () => number): { code: number | null; chaos: ChaosSettings } {
  const t = chaos.triggers[stage];
  if (!t || !fires(t)) return { code: null, chaos };
  if (t.next > 0) {
    const left = t.next - 1;
    const triggers = { ...chaos.triggers, [stage]: { ...t, next: left } };
    // The last of the next N: the trigger is spent.
    if (left === 0 && t.probability === 0) delete triggers[stage];
    return { code: t.code, chaos: { ...chaos, triggers } };
  }
  return { code: random() * 100 < t.probability ? t.code : null, chaos };
}

/** Whether this DATA is cut off midway. */
export function decideDrop(chaos: ChaosSettings, random: () => number): { drop: boolean; chaos: ChaosSettings } {
  const d = chaos.drop;
  if (!d || !fires(d)) return { drop: false, chaos };
  if (d.next > 0) return { drop: true, chaos: { ...chaos, drop: d.next - 1 === 0 && d.probability === 0 ? null : { ...d, next: d.next - 1 } } };
  return { drop: random() * 100 < d.probability, chaos };
}
