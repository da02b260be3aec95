/**
 * The document main prints or saves as PDF (P, Ctrl+P): the email's header as
 * main knows it, then its body as the reader shows it (the renderer's
 * sanitized HTML, or the text). It is shown in a window where nothing runs,
 * and its policy lets images come from the web only when the user allowed
 * remote content for this email. Pure.
 */
import type { Email } from '../../shared/domain/email.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function printPolicy(remote: boolean): string {
  const web = remote ? ' https: http:' : '';
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:${web}; font-src data:${remote ? ' https:' : ''}; base-uri 'none'; form-action 'none'`;
}

export function printDocument(options: { email: Email; body: { html: string } | { text: string }; remote: boolean; date: string }): string {
  const { email } = options;
  const who = (a: { display_name: string; email: string }) => (a.display_name ? `${a.display_name} <${a.email}>` : a.email);
  const rows: [string, string][] = [
    ['From', who(email.sender)],
    ['To', who(email.inbox)],
    ...(email.carbon_copies.length > 0 ? [['Cc', email.carbon_copies.map(who).join(', ')] as [string, string]] : []),
    ['Date', options.date],
  ];
  const body = 'html' in options.body ? options.body.html : `<pre class="text-body">${escapeHtml(options.body.text)}</pre>`;
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${printPolicy(options.remote)}">`,
    `<title>${escapeHtml(email.subject || '(no subject)')}</title>`,
    '<style>',
    '  .print-header { font: 13px/1.4 system-ui, sans-serif; border-bottom: 1px solid #999; margin: 0 0 12px; padding: 0 0 8px; }',
    '  .print-header h1 { font-size: 18px; margin: 0 0 6px; }',
    '  .print-header th { text-align: left; padding-right: 12px; color: #555; font-weight: normal; }',
    '  .text-body { white-space: pre-wrap; font: 13px/1.45 ui-monospace, monospace; }',
    '</style></head><body>',
    '<header class="print-header">',
    `<h1>${escapeHtml(email.subject || '(no subject)')}</h1>`,
    `<table>${rows.map(([name, value]) => `<tr><th>${name}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`,
    '</header>',
    `<main class="print-body">${body}</main>`,
    '</body></html>',
  ].join('\n');
}
