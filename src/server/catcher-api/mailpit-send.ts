/**
 * Mailpit's POST /api/v1/send: a message given as JSON (From, To, Cc, Bcc,
 * Reply-To, Subject, Text, HTML, Headers, Tags, Attachments in base64) is
 * composed into RFC 822 and taken in as if it came over SMTP, so a suite that
 * seeds its inbox through `mailpit-api`'s sendMessage or cypress-mailpit's
 * mailpitSendMail moves over unchanged. Checked as Mailpit checks it (its
 * send.go and enmime's builder): a sender, a subject and one recipient at
 * least, valid addresses, no header the fields already set, valid base64.
 * nodemailer's composer writes the MIME (its own encodings and line folding).
 */
import MailComposer from 'nodemailer/lib/mail-composer';

interface AddressField {
  Email?: unknown;
  Name?: unknown;
}

/** What a send composes to: the bytes, and the envelope's recipients (To, Cc and Bcc). */
export interface ComposedSend {
  raw: Buffer;
  recipients: string[];
}

/** One address, as Go's net/mail takes one bare: local@domain, nothing around it. */
const ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+$/;

/** The headers the fields set: Mailpit refuses them in Headers (X-Tags too when Tags are given). */
const SET_BY_FIELDS = ['to', 'from', 'cc', 'bcc', 'reply-to', 'date', 'subject', 'content-type', 'mime-version'];

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function addresses(field: unknown, label: string): { name: string; address: string }[] | string {
  if (field === undefined || field === null) return [];
  if (!Array.isArray(field)) return `${label} must be a list of {"Email": …, "Name": …}`;
  const result: { name: string; address: string }[] = [];
  for (const entry of field as AddressField[]) {
    const address = text(entry?.Email);
    if (!ADDRESS.test(address)) return `invalid ${label} address: ${address}`;
    result.push({ name: text(entry?.Name), address });
  }
  return result;
}

/** The message a send asks for, or what is wrong with the request (Mailpit's wording where it has one). */
export async function composeSend(body: unknown): Promise<ComposedSend | string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the request body must be a JSON object, such as {"From": {"Email": "app@example.test"}, "To": [{"Email": "you@example.test"}], "Subject": "Hello"}';
  const request = body as Record<string, unknown>;
  const fromField = (request.From ?? {}) as AddressField;
  const from = text(fromField.Email);
  if (from === '') return 'error building message: from not set';
  if (!ADDRESS.test(from)) return `invalid From address: ${from}`;
  const to = addresses(request.To, 'To');
  if (typeof to === 'string') return to;
  const cc = addresses(request.Cc, 'Cc');
  if (typeof cc === 'string') return cc;
  const replyTo = addresses(request.ReplyTo, 'Reply-To');
  if (typeof replyTo === 'string') return replyTo;
  const bccField = request.Bcc ?? [];
  if (!Array.isArray(bccField)) return 'Bcc must be a list of addresses';
  const bcc = bccField.map(text);
  const badBcc = bcc.find((address) => !ADDRESS.test(address));
  if (badBcc !== undefined) return `invalid Bcc address: ${badBcc}`;
  const subject = text(request.Subject);
  if (subject === '') return 'error building message: subject not set';
  const recipients = [...to.map((a) => a.address), ...cc.map((a) => a.address), ...bcc];
  if (recipients.length === 0) return 'error building message: no recipients (to, cc, bcc) set';

  const tags = Array.isArray(request.Tags) ? request.Tags.map(text).filter(Boolean) : [];
  const refused = tags.length > 0 ? [...SET_BY_FIELDS, 'x-tags'] : SET_BY_FIELDS;
  const headers: Record<string, string> = tags.length > 0 ? { 'X-Tags': tags.join(', ') } : {};
  const given = request.Headers ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return 'Headers must be an object of names and values';
  for (const [name, value] of Object.entries(given)) {
    if (refused.includes(name.toLowerCase())) return `cannot overwrite header: "${name}"`;
    headers[name] = text(value);
  }

  const attachments: { filename: string; content: Buffer; contentType?: string; cid?: string }[] = [];
  const attachmentField = request.Attachments ?? [];
  if (!Array.isArray(attachmentField)) return 'Attachments must be a list of {"Content": base64, "Filename": …}';
  for (const entry of attachmentField as Record<string, unknown>[]) {
    const filename = text(entry?.Filename);
    // A data URL's payload is what follows its comma, as Mailpit reads it.
    const encoded = text(entry?.Content).split(',').at(-1)!.replace(/[\r\n]/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return `error decoding base64 attachment "${filename}": the content is not base64`;
    const contentType = text(entry?.ContentType);
    const cid = text(entry?.ContentID);
    attachments.push({ filename, content: Buffer.from(encoded, 'base64'), ...(contentType ? { contentType } : {}), ...(cid ? { cid } : {}) });
  }

  const html = text(request.HTML);
  const composer = new MailComposer({
    from: { name: text(fromField.Name), address: from },
    ...(to.length > 0 ? { to } : {}),
    ...(cc.length > 0 ? { cc } : {}),
    ...(replyTo.length > 0 ? { replyTo } : {}),
    subject,
    text: text(request.Text),
    ...(html ? { html } : {}),
    headers,
    attachments,
  });
  const raw = await new Promise<Buffer>((resolve, reject) => composer.compile().build((error, message) => (error ? reject(error) : resolve(message))));
  return { raw, recipients };
}
