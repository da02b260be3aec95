/** What test/bench/reader.ts prints (as JSON) for run.ts: kept apart, as reader.ts needs the DOM's types. */
export interface ReaderFigures {
  /** A key that changes nothing, to the next frame: the floor any key pays. */
  floorP95: number;
  nextPrefetchedP50: number;
  nextPrefetchedP95: number;
  /** Of the j/k presses, how many showed the next email in the first frame after the key. */
  nextInFirstFrame: number;
  nextPresses: number;
  /**
   * With a display clock running (a frame every ~16.7 ms, as a 60 Hz screen asks for them), from the
   * key to the presentation of the frame that showed it (Chromium's trace, test/bench/presented.ts):
   * the next email, and a key that changes nothing (but a small square) pressed the same way.
   */
  nextShownP50: number;
  nextShownP95: number;
  noopShownP50: number;
  noopShownP95: number;
  /** In ticks, from the first tick after the key to the tick that shows it (the press's phase taken out): 1 is the next frame. `nextLate`: presses shown later than that. */
  nextTicksP95: number;
  noopTicksP95: number;
  nextLate: number;
  nextShownPresses: number;
  noopShownPresses: number;
  /** The key's own handlers (before any frame): j/k and the key that changes nothing. */
  nextWorkP95: number;
  noopWorkP95: number;
  coldOpenP50: number;
  coldOpenP95: number;
  html2mbFirstScreen: number;
  html5mbFirstScreen: number;
  html5mbLongestTask: number;
  html5mbKeyHonoured: boolean;
  text10mbFirstScreen: number;
  /** The tester's tools opened one after another on the 2 MB newsletter: the longest task meanwhile, and H to its report. */
  tools2mbLongestTask: number;
  compat2mbReport: number;
  /** A (axe-core, light and dark) and B (compared with the 5 MB one before it) to their reports. */
  accessibility2mbReport: number;
  compare2mbReport: number;
  /** What the long-task observer reports for one 80 ms task made on purpose (0 would mean it sees nothing). */
  longTaskCalibration: number;
}
