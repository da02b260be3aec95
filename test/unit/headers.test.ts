import { describe, expect, it } from 'vitest';
import { parseHeaders } from '../../src/shared/domain/headers.ts';

describe('the headers view', () => {
  it('unfolds continuation lines, keeps order and repeats, stops at the body', () => {
    const raw = 'Received: from a\r\n  by b\r\nReceived: from c\r\nSubject: Hi: there\r\nX-Empty:\r\n\r\nBody: not a header\r\n';
    expect(parseHeaders(raw)).toEqual([
      { name: 'Received', value: 'from a by b' },
      { name: 'Received', value: 'from c' },
      { name: 'Subject', value: 'Hi: there' },
      { name: 'X-Empty', value: '' },
    ]);
    expect(parseHeaders('No-Body: yes')).toEqual([{ name: 'No-Body', value: 'yes' }]);
  });
});
