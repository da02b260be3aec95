import { describe, expect, it } from 'vitest';
import { errorFromException } from '../../src/main/api/errors.ts';
import { OUTAGE_KINDS } from '../../src/renderer/src/outage.ts';

describe('a cancelled request (issue 21)', () => {
  it('is typed cancelled, which the renderer does not take for an outage', () => {
    const replaced = errorFromException(new DOMException('replaced', 'AbortError'), 'mail.example.test');
    expect(replaced.kind).toBe('cancelled');
    expect(OUTAGE_KINDS.has(replaced.kind)).toBe(false);
    // A real network failure still is one.
    const refused = errorFromException(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }), 'mail.example.test');
    expect(OUTAGE_KINDS.has(refused.kind)).toBe(true);
  });
});
