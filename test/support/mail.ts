/** Builds small raw RFC 822 messages for tests. */
export interface TestMail {
  from?: string;
  to?: string;
  cc?: string;
  subject?: string;
  date?: string;
  text?: string;
  html?: string;
  attachment?: { name: string; type: string; content: string };
}

export function rawMail(mail: TestMail = {}): string {
  const headers = [
    `From: ${mail.from ?? 'Alice <alice@example.test>'}`,
    `To: ${mail.to ?? 'Support <support@acme.test>'}`,
    ...(mail.cc ? [`Cc: ${mail.cc}`] : []),
    `Subject: ${mail.subject ?? 'Hello'}`,
    `Date: ${mail.date ?? 'Mon, 02 Nov 2026 10:00:00 +0000'}`,
    'MIME-Version: 1.0',
  ];
  const parts: string[] = [];
  if (mail.text !== undefined || (mail.html === undefined && !mail.attachment))
    parts.push(`Content-Type: text/plain; charset=utf-8\r\n\r\n${mail.text ?? 'Body'}`);
  if (mail.html !== undefined) parts.push(`Content-Type: text/html; charset=utf-8\r\n\r\n${mail.html}`);
  if (mail.attachment) {
    parts.push(
      `Content-Type: ${mail.attachment.type}; name="${mail.attachment.name}"\r\n` +
        `Content-Disposition: attachment; filename="${mail.attachment.name}"\r\n` +
        `Content-Transfer-Encoding: base64\r\n\r\n${Buffer.from(mail.attachment.content).toString('base64')}`,
    );
  }
  if (parts.length === 1 && !mail.attachment) return `${headers.join('\r\n')}\r\n${parts[0]}\r\n`;
  const boundary = 'b-test-boundary';
  const type = mail.attachment ? 'multipart/mixed' : 'multipart/alternative';
  return (
    `${headers.join('\r\n')}\r\nContent-Type: ${type}; boundary="${boundary}"\r\n\r\n` +
    parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('') +
    `--${boundary}--\r\n`
  );
}
