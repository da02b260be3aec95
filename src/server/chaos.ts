/**
 * The service's chaos, as its SMTP consults it (smtp.ts) and its API sets it
 * (Mailpit's /api/v1/chaos): the settings, the decisions they make, and who is
 * told when they change (the app's banner). The rules are shared/domain/chaos.ts.
 */
import { CHAOS_OFF, chaosIsOn, decide, decideDrop, type ChaosSettings, type ChaosStage } from '../shared/domain/chaos.ts';

export class ChaosState {
  private current: ChaosSettings;
  private readonly listeners = new Set<(settings: ChaosSettings) => void>();
  private readonly random: () => number;

  constructor(initial: ChaosSettings = CHAOS_OFF, random: () => number = Math.random) {
    this.current = initial;
    this.random = random;
  }

  get settings(): ChaosSettings {
    return this.current;
  }

  get on(): boolean {
    return chaosIsOn(this.current);
  }

  set(settings: ChaosSettings): void {
    this.current = settings;
    for (const listener of this.listeners) listener(settings);
  }

  onChange(listener: (settings: ChaosSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The code this stage answers now, or null; a "next N" trigger counts down. */
  at(stage: ChaosStage): number | null {
    const { code, chaos } = decide(this.current, stage, this.random);
    if (chaos !== this.current) this.set(chaos);
    return code;
  }

  /** Whether this DATA is dropped midway. */
  dropsData(): boolean {
    const { drop, chaos } = decideDrop(this.current, this.random);
    if (chaos !== this.current) this.set(chaos);
    return drop;
  }

  /** Waited before an answer (a slow server). */
  delay(): Promise<void> {
    const ms = this.current.delayMs;
    return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
  }
}
