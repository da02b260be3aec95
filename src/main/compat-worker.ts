/**
 * The HTML compatibility check in a thread of its own: caniemail parses and
 * checks a 2 MB newsletter in about two seconds, which main's event loop (and
 * so every other call of the app) never waits on.
 */
import { caniemail, rawData } from 'caniemail';
import { parentPort } from 'node:worker_threads';
import { compatReport, markDataGaps, type CompatCheck, type FeatureData } from './qa/compat.ts';

markDataGaps(rawData as unknown as Parameters<typeof markDataGaps>[0]);

// Kept warm by run-compat.ts: one check per message, as many as main sends.
parentPort!.on('message', (html: string) => {
  try {
    parentPort!.postMessage({ ok: true, report: compatReport(html, caniemail as unknown as CompatCheck, (rawData as unknown as { data: FeatureData[] }).data) });
  } catch (error) {
    parentPort!.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
