/**
 * The reader bench's reading of Chromium's trace (test/bench/presented.ts), on
 * traces written by hand: ticks every 16 ms (16,000 µs), each frame a
 * PipelineReporter from its tick to its presentation, the page's marks on its
 * main thread. The expected figures are counted on the timeline by hand.
 */
import { describe, expect, it } from 'vitest';
import { presentedPresses, type TraceEvent } from '../bench/presented.ts';

const PID = 7;
const MAIN = 1;
const COMPOSITOR = 2;

/** One frame per tick: begun at the tick, presented `presentedAfter` µs later (null: not presented). */
function frames(count: number, presentedAfter: (tick: number) => number | null): TraceEvent[] {
  const events: TraceEvent[] = [];
  for (let i = 0; i < count; i++) {
    const begin = i * 16_000;
    const after = presentedAfter(i);
    const state = after === null ? 'STATE_NO_UPDATE_DESIRED' : 'STATE_PRESENTED_ALL';
    events.push({ name: 'PipelineReporter', ph: 'b', ts: begin, pid: PID, tid: COMPOSITOR, id2: { local: '0x1' }, args: { frame_reporter: { state } } });
    events.push({ name: 'PipelineReporter', ph: 'e', ts: begin + (after ?? 1_000), pid: PID, tid: COMPOSITOR, id2: { local: '0x1' } });
  }
  return events;
}

const mark = (name: string, ts: number): TraceEvent => ({ name, ph: 'I', ts, pid: PID, tid: MAIN });

describe('when a key was shown, from the trace', () => {
  it('a key between two ticks, shown by the next frame: presented with it, seen at the tick after (2 ticks)', () => {
    // Key at 20 ms (between the ticks of 16 and 32), shown in the frame of 32, presented at 35.
    const events = [...frames(5, (i) => (i === 2 ? 3_000 : null)), mark('key:0', 20_000), mark('shown:0', 32_500)];
    expect(presentedPresses(events).get(0)).toEqual({ keyToPresented: 15, ticks: 2 });
  });

  it('a frame that missed its tick: presented with a later frame, seen a tick later (3 ticks)', () => {
    // The frame of 32 shows it but is not presented (its work overran); the frame of 48 presents at 50.
    const events = [...frames(6, (i) => (i === 3 ? 2_000 : null)), mark('key:0', 20_000), mark('shown:0', 32_500)];
    expect(presentedPresses(events).get(0)).toEqual({ keyToPresented: 30, ticks: 3 });
  });

  it('a key just in time for a frame already begun: shown at the next tick (1 tick)', () => {
    // Tick at 16, key at 16.2, that frame's main-thread part shows it at 16.5, presented at 18.
    const events = [...frames(4, (i) => (i === 1 ? 2_000 : null)), mark('key:0', 16_200), mark('shown:0', 16_500)];
    expect(presentedPresses(events).get(0)).toEqual({ keyToPresented: 1.8, ticks: 1 });
  });

  it('overlapping frames of one id: each end closes the oldest one open; a press the trace never saw presented is left out', () => {
    // Frame 1 (16-40: presented late, after frame 2 began at 32) and frame 2 (32-34, not presented).
    const events: TraceEvent[] = [
      { name: 'PipelineReporter', ph: 'b', ts: 0, pid: PID, tid: COMPOSITOR, id2: { local: '0x1' }, args: { frame_reporter: { state: 'STATE_NO_UPDATE_DESIRED' } } },
      { name: 'PipelineReporter', ph: 'e', ts: 1_000, pid: PID, tid: COMPOSITOR, id2: { local: '0x1' } },
      { name: 'PipelineReporter', ph: 'b', ts: 16_000, pid: PID, tid: COMPOSITOR, id2: { local: '0x1' }, args: { frame_reporter: { state: 'STATE_PRESENTED_ALL' } } },
      { name: 'PipelineReporter', ph: 'b', ts: 32_000, pid: PID, tid: COMPOSITOR, id2: { local: '0x1' }, args: { frame_reporter: { state: 'STATE_NO_UPDATE_DESIRED' } } },
      { name: 'PipelineReporter', ph: 'e', ts: 40_000, pid: PID, tid: COMPOSITOR, id2: { local: '0x1' } },
      { name: 'PipelineReporter', ph: 'e', ts: 41_000, pid: PID, tid: COMPOSITOR, id2: { local: '0x1' } },
      { name: 'PipelineReporter', ph: 'b', ts: 48_000, pid: PID, tid: COMPOSITOR, id2: { local: '0x1' }, args: { frame_reporter: { state: 'STATE_NO_UPDATE_DESIRED' } } },
      { name: 'PipelineReporter', ph: 'e', ts: 49_000, pid: PID, tid: COMPOSITOR, id2: { local: '0x1' } },
      // Another process's frames (the browser's own) never count.
      { name: 'PipelineReporter', ph: 'b', ts: 20_000, pid: 99, tid: 3, id2: { local: '0x1' }, args: { frame_reporter: { state: 'STATE_PRESENTED_ALL' } } },
      { name: 'PipelineReporter', ph: 'e', ts: 21_000, pid: 99, tid: 3, id2: { local: '0x1' } },
      mark('key:0', 10_000),
      mark('shown:0', 16_400),
      // Shown in the frame of 48, which was never presented.
      mark('key:1', 45_000),
      mark('shown:1', 48_300),
    ];
    const figures = presentedPresses(events);
    // The frame of 16 was presented at 40, seen at the tick of 48: 3 ticks from the key's tick (0).
    expect(figures.get(0)).toEqual({ keyToPresented: 30, ticks: 3 });
    expect(figures.has(1)).toBe(false);
  });
});
