/**
 * When a key's change reached the screen, read from Chromium's own trace: the
 * compositor's PipelineReporter spans each frame from its BeginFrame (the
 * tick) to its presentation, and says whether it was presented. The page marks
 * each press (`key:N`) and the animation frame that first showed its change
 * (`shown:N`): that frame belongs to the last tick before the mark, and is
 * presented with that tick's frame (or, when it missed it, with the next frame
 * presented). A screen shows it at the first tick after that.
 *
 * Kept apart from reader.ts (which needs the DOM's types) so that it can be
 * checked on its own; it reads nothing of the app.
 */

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
  id2?: { local?: string; global?: string };
  id?: string;
}

export interface PressFigures {
  /** From the key to the presentation of the frame that showed its change, ms. */
  keyToPresented: number;
  /**
   * Ticks from the last tick before the key to the tick that shows it: 2 when the key's frame is the
   * next one (begun at the next tick, shown at the one after), 1 when the key came just in time for a
   * frame already begun, 3 or more when its frame missed its tick.
   */
  ticks: number;
}

interface Reporter {
  begin: number;
  end: number;
  presented: boolean;
}

/** The renderer's frames: one PipelineReporter per BeginFrame, from its tick to its presentation (or not). */
function reporters(events: TraceEvent[], pid: number): Reporter[] {
  // Frames overlap (one is presented while the next begins): an end closes the oldest open one of its id.
  const open = new Map<string, TraceEvent[]>();
  const found: Reporter[] = [];
  for (const event of events) {
    if (event.name !== 'PipelineReporter' || event.pid !== pid) continue;
    const key = `${event.tid}/${event.id2?.local ?? event.id2?.global ?? event.id}`;
    if (event.ph === 'b') open.set(key, [...(open.get(key) ?? []), event]);
    else if (event.ph === 'e') {
      const began = open.get(key)?.shift();
      if (!began) continue;
      const state = (began.args?.frame_reporter as { state?: string } | undefined)?.state ?? '';
      found.push({ begin: began.ts, end: event.ts, presented: state.startsWith('STATE_PRESENTED') });
    }
  }
  return found.sort((a, b) => a.begin - b.begin);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** Each marked press's figures, by its number; a press whose frame the trace did not see to the end is left out. */
export function presentedPresses(events: TraceEvent[]): Map<number, PressFigures> {
  const sorted = [...events].sort((a, b) => a.ts - b.ts);
  const marks = sorted.filter((e) => /^(key|shown):\d+$/.test(e.name) && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b'));
  const first = marks[0];
  const figures = new Map<number, PressFigures>();
  if (!first) return figures;
  const frames = reporters(sorted, first.pid);
  const ticks = frames.map((f) => f.begin);
  const interval = median(ticks.slice(1).map((t, i) => t - ticks[i]!).filter((d) => d > 0));
  const keyAt = new Map<number, number>();
  const shownAt = new Map<number, number>();
  for (const mark of marks) {
    const [kind, n] = mark.name.split(':') as ['key' | 'shown', string];
    (kind === 'key' ? keyAt : shownAt).set(Number(n), mark.ts);
  }
  const lastBefore = <T>(list: T[], at: (item: T) => number, time: number) => list.filter((item) => at(item) <= time).at(-1);
  for (const [n, key] of keyAt) {
    const shown = shownAt.get(n);
    if (shown === undefined) continue;
    // The frame the mark was made in began at the last tick before it.
    const own = lastBefore(frames, (f) => f.begin, shown);
    const presented = own?.presented ? own : frames.find((f) => f.presented && f.begin > shown);
    const keyTick = lastBefore(ticks, (t) => t, key);
    const visibleTick = presented ? ticks.find((t) => t >= presented.end) : undefined;
    if (!presented || keyTick === undefined || visibleTick === undefined) continue;
    figures.set(n, { keyToPresented: (presented.end - key) / 1000, ticks: Math.round((visibleTick - keyTick) / interval) });
  }
  return figures;
}
