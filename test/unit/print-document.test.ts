/** The printed document (issue 23): main's header, the body as shown, a policy where remote images wait for the user's yes. */
import { describe, expect, it } from 'vitest';
import { printDocument, printPolicy } from '../../src/main/qa/print-document.ts';
import type { Email } from '../../src/shared/domain/email.ts';

const email = {
  id: 'e1',
  subject: 'Your <b>invoice</b> & receipt',
  sender: { id: 's', display_name: 'Acme "Billing"', email: 'billing@acme.test', created_at: null, updated_at: null },
  inbox: { id: 'i', display_name: '', email: 'qa@inbox.test', created_at: null, updated_at: null },
  carbon_copies: [],
  created_at: '2026-11-02T07:00:00.000Z',
} as unknown as Email;

describe('the document main prints', () => {
  it('escapes the header fields, so a subject cannot add markup', () => {
    const doc = printDocument({ email, body: { html: '<p>Total</p>' }, remote: false, date: 'Mon, 02 Nov 2026 07:00:00 GMT' });
    expect(doc).toContain('<h1>Your &#60;b&#62;invoice&#60;/b&#62; &#38; receipt</h1>');
    expect(doc).toContain('Acme &#34;Billing&#34; &#60;billing@acme.test&#62;');
    expect(doc).toContain('<main class="print-body"><p>Total</p></main>');
  });

  it('prints a text body as text', () => {
    const doc = printDocument({ email, body: { text: 'a < b\n<script>' }, remote: false, date: 'd' });
    expect(doc).toContain('<pre class="text-body">a &#60; b\n&#60;script&#62;</pre>');
  });

  it('lets images come from the web only when remote content was allowed, and never scripts', () => {
    expect(printPolicy(false)).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'");
    expect(printPolicy(true)).toContain('img-src data: https: http:');
    expect(printPolicy(true)).not.toContain('script-src');
  });
});
