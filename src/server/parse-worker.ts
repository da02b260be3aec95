/** A thread that parses raw messages for the service (parse-pool.ts). */
import { parentPort } from 'node:worker_threads';
import { parseMessage } from './ingest.ts';

parentPort!.on('message', ({ id, raw }: { id: number; raw: Uint8Array }) => {
  parseMessage(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)).then(
    (parsed) => parentPort!.postMessage({ id, parsed }),
    (error: unknown) => parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});
