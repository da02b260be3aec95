/**
 * MIME parsing on a thread of its own, for `npm run server`: parsing is about
 * half of what an SMTP ingest costs, and off the event loop it runs beside the
 * rest (SMTP, the store, HTTP) on a second core. The demo inside the app parses
 * in place: it never takes mail at that rate.
 */
import { Worker } from 'node:worker_threads';
import type { ParsedMessage } from './ingest.ts';

export interface ParsePool {
  parse(raw: Buffer): Promise<ParsedMessage>;
  close(): Promise<void>;
}

export function startParsePool(): ParsePool {
  // Its young generation is bounded (V8's default grows it further), since all of it is resident.
  // Beside this module: the TypeScript source, or the build (npm run server runs out/server).
  const entry = new URL(import.meta.url.endsWith('.ts') ? './parse-worker.ts' : './parse-worker.js', import.meta.url);
  const worker = new Worker(entry, { resourceLimits: { maxYoungGenerationSizeMb: 16 } });
  worker.unref();
  const waiting = new Map<number, { resolve: (parsed: ParsedMessage) => void; reject: (error: Error) => void }>();
  let next = 0;
  worker.on('message', ({ id, parsed, error }: { id: number; parsed?: ParsedMessage; error?: string }) => {
    const entry = waiting.get(id);
    waiting.delete(id);
    if (!entry) return;
    if (error !== undefined || !parsed) return entry.reject(new Error(error ?? 'parse failed'));
    // Buffers cross the thread as plain bytes.
    for (const attachment of parsed.attachments) {
      const bytes = attachment.content as Uint8Array;
      attachment.content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    entry.resolve(parsed);
  });
  worker.on('error', (error: Error) => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  });
  return {
    parse(raw) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, raw });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
