/**
 * The bench's figures beside a kept run's (issue 34): `npm run bench -- --keep
 * <label>` (one word, such as a version) writes this run's tracked figures to kept-figures.json, to be
 * committed with a release; every later run prints each figure beside the
 * kept one, with the ratio, and flags one more than 10% worse. A regression
 * then shows in CI's own output, not only in a reader's memory of the last run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const FILE = 'test/bench/kept-figures.json';
/** Worse than the kept figure by more than this is flagged. */
const TOLERANCE = 0.1;

interface KeptFile {
  label: string;
  commit: string;
  at: string;
  figures: Record<string, { value: number; unit: string; better: 'lower' | 'higher' }>;
}

export class KeptFigures {
  private readonly now = new Map<string, KeptFile['figures'][string]>();
  private readonly kept: KeptFile | null = existsSync(FILE) ? (JSON.parse(readFileSync(FILE, 'utf8')) as KeptFile) : null;

  /** A figure to compare run to run; `name` stays the same from release to release. */
  track(name: string, value: number, unit = 'ms', better: 'lower' | 'higher' = 'lower'): void {
    if (Number.isFinite(value)) this.now.set(name, { value, unit, better });
  }

  /** Rows for the printed table: figure, kept, ratio, and a flag where this run is worse by more than the tolerance. */
  rows(): { title: string; rows: string[][] } | null {
    if (!this.kept) return null;
    const rows: string[][] = [];
    for (const [name, figure] of this.now) {
      const before = this.kept.figures[name];
      if (!before) {
        rows.push([name, show(figure), 'not kept', '']);
        continue;
      }
      const times = figure.value / before.value;
      const worse = figure.better === 'lower' ? times > 1 + TOLERANCE : times < 1 - TOLERANCE;
      rows.push([name, show(figure), show(before), `${times.toFixed(2)}x${worse ? `  ▲ worse by ${Math.abs((times - 1) * 100).toFixed(0)}%` : ''}`]);
    }
    return { title: `Against the kept figures of ${this.kept.label} (${this.kept.commit.slice(0, 7)}, ${this.kept.at.slice(0, 10)}):`, rows };
  }

  save(label: string): void {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const file: KeptFile = { label, commit, at: new Date().toISOString(), figures: Object.fromEntries(this.now) };
    writeFileSync(FILE, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`Kept ${this.now.size} figures as ${label} in ${FILE}.`);
  }
}

const show = (figure: { value: number; unit: string }) =>
  figure.unit === 'ms' ? `${figure.value.toFixed(figure.value < 1 ? 3 : 1)} ms` : `${figure.value.toFixed(figure.unit === 'x' ? 2 : 0)} ${figure.unit}`;
