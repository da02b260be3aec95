import { describe, expect, it } from 'vitest';
import { parseMessage } from '../../src/server/ingest.ts';
import { startParsePool } from '../../src/server/parse-pool.ts';
import { rawMail } from '../support/mail.ts';

describe('parsing on a thread of its own (npm run server)', () => {
  it('gives what parsing in place gives, attachments as Buffers, in order under load', async () => {
    const pool = startParsePool();
    try {
      const raw = Buffer.from(
        rawMail({ subject: '=?UTF-8?B?w4ljaMOpYW5jZQ==?=', html: '<p>hi</p>', attachment: { name: 'a.csv', type: 'text/csv', content: 'x,y\n' } }),
      );
      const [threaded, inPlace] = await Promise.all([pool.parse(raw), parseMessage(raw)]);
      expect(threaded).toEqual(inPlace);
      expect(threaded.subject).toBe('Échéance');
      expect(Buffer.isBuffer(threaded.attachments[0]!.content)).toBe(true);
      expect(threaded.date).toBeInstanceOf(Date);
      const many = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.parse(Buffer.from(rawMail({ subject: `n${i}` })))));
      expect(many.map((m) => m.subject)).toEqual(Array.from({ length: 20 }, (_, i) => `n${i}`));
    } finally {
      await pool.close();
    }
  });
});
