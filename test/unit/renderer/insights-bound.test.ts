/** The code and main link on top of the reader are read from the first 200 KB of a body: bounded work on a 2 MB newsletter. */
import { describe, expect, it } from 'vitest';
import { INSIGHT_CHARS, insightsOf } from '../../../src/shared/domain/mail-insights.ts';

const filler = (chars: number) => `<p>${'Offer details and terms apply. '.repeat(Math.ceil(chars / 31))}</p>`;

describe('the code and the main link on a big body', () => {
  it('are found at the top of a 2 MB newsletter', () => {
    const html = `<p>Your verification code is <b>482913</b>.</p><p><a href="https://acme.test/verify?t=1">Confirm my email</a></p>${filler(2_000_000)}`;
    const found = insightsOf('Verify your email', { format: 'html', content: html });
    expect(found.code?.code).toBe('482913');
    expect(found.link?.url).toBe('https://acme.test/verify?t=1');
  });

  it('are not looked for past the first 200 KB', () => {
    const late = `${filler(INSIGHT_CHARS + 10_000)}<p>Your verification code is <b>482913</b>.</p>`;
    expect(insightsOf('Verify your email', { format: 'html', content: late }).code).toBeNull();
    expect(insightsOf('Hello', { format: 'text', content: `${'x '.repeat(INSIGHT_CHARS)}\nYour code is 482913` }).code).toBeNull();
  });
});
