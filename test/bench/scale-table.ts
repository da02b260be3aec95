/**
 * npm run bench -- --scale: the reference service at 1k, 10k and 100k stored
 * emails, one column each (scale.ts measures).
 */
import { measureScale, SEARCH_TERM, type ScaleFigures } from './scale.ts';

const sizes = [1_000, 10_000, 100_000];
const figures: ScaleFigures[] = [];
for (const size of sizes) figures.push(await measureScale(size));
const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 1)} ms`;
const rows: [string, (f: ScaleFigures) => string][] = [
  ['seed (direct to the store)', (f) => ms(f.seedMs)],
  ['page 1, p95', (f) => ms(f.page1P95)],
  [`search "${SEARCH_TERM}" + unread, p95`, (f) => ms(f.searchP95)],
  ['one change, p95', (f) => ms(f.changeP95)],
  ['SMTP ingest', (f) => `${f.ingestPerSecond.toFixed(0)} msg/s`],
  ['restart until listening', (f) => ms(f.restartMs)],
  ['RSS', (f) => `${f.rssMiB.toFixed(0)} MiB`],
];
console.log(`Reference service at scale (node ${process.version}, ${new Date().toISOString()})`);
console.log(`| measure | ${sizes.map((s) => `${s / 1000}k`).join(' | ')} |`);
console.log(`|---|${sizes.map(() => '---').join('|')}|`);
for (const [label, cell] of rows) console.log(`| ${label} | ${figures.map(cell).join(' | ')} |`);
