import { describe, expect, it } from 'vitest';
import { parseMessage } from '../../src/server/ingest.ts';
import { PARSE_IN_PLACE_BYTES, startParsePool } from '../../src/server/parse-pool.ts';
import { rawMail } from '../support/mail.ts';

/** Past the size parsed in place: these go to the thread. */
const LARGE = 'x,y\n'.repeat(PARSE_IN_PLACE_BYTES / 3);

describe('parsing on a thread of its own (npm run server)', () => {
  it('gives what parsing in place gives, attachments as Buffers, in order under load', async () => {
    const pool = startParsePool();
    try {
      const raw = Buffer.from(
        rawMail({ subject: '=?UTF-8?B?w4ljaMOpYW5jZQ==?=', html: '<p>hi</p>', attachment: { name: 'a.csv', type: 'text/csv', content: LARGE } }),
      );
      expect(raw.length).toBeGreaterThan(PARSE_IN_PLACE_BYTES);
      const [threaded, inPlace] = await Promise.all([pool.parse(raw), parseMessage(raw)]);
      expect(threaded).toEqual(inPlace);
      expect(threaded.subject).toBe('Échéance');
      expect(Buffer.isBuffer(threaded.attachments[0]!.content)).toBe(true);
      expect(threaded.date).toBeInstanceOf(Date);
      // Large and small mixed: each answer is its own message's, whichever way it was parsed.
      const many = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.parse(Buffer.from(rawMail({ subject: `n${i}`, text: i % 2 ? 'small' : LARGE })))));
      expect(many.map((m) => m.subject)).toEqual(Array.from({ length: 20 }, (_, i) => `n${i}`));
    } finally {
      await pool.close();
    }
  });
});
