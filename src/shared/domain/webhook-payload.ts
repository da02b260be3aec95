/**
 * What an automation posts for an email: body, Content-Type and headers, as
 * each flavor sends them. One builder for the reference service (which
 * posts it) and for main's preview and "Send test" (which show and send it),
 * so the preview is what the service sends. Runs anywhere: the caller hands
 * in the HMAC.
 */
import type { Criterion, PayloadFormat } from './automation.ts';
import type { FlavorName } from './flavor.ts';

export interface PayloadParts {
  flavor: FlavorName;
  title: string;
  payloadFormat: PayloadFormat;
  secretToken: string | null;
  hits: Criterion[];
  /** The Email resource exactly as the service serializes it (not the client's normalised copy). */
  record: unknown;
  /** The raw RFC 822 message, as stored. */
  raw: Uint8Array;
  html: string | null;
  text: string | null;
}

export interface WebhookPayload {
  contentType: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

const CRITERION_HEADERS: Record<Criterion, string> = {
  subject: 'Subject',
  sender: 'Sender',
  inbox: 'Inbox',
  has_attachments: 'Has-Attachments',
};

export function buildPayload(
  parts: PayloadParts,
  options: { sign: (body: Uint8Array, secret: string) => string; deliveryId: string },
): WebhookPayload {
  const signs = parts.flavor === 'service-v1';
  const prefix = signs ? 'X-Service' : 'X-MailCare';
  let body: Uint8Array;
  let contentType: string;
  switch (parts.payloadFormat) {
    case 'raw':
      body = parts.raw;
      contentType = 'message/rfc2822';
      break;
    case 'json_with_bodies':
      body = new TextEncoder().encode(JSON.stringify({ data: { ...(parts.record as object), html: parts.html, text: parts.text } }));
      contentType = 'application/json';
      break;
    default:
      body = new TextEncoder().encode(JSON.stringify({ data: parts.record }));
      contentType = 'application/json';
  }
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'User-Agent': 'InboxDesk-ReferenceService/1',
    [`${prefix}-Title`]: encodeURIComponent(parts.title),
  };
  if (signs) {
    headers[`${prefix}-Event`] = 'email.received';
    headers[`${prefix}-Delivery`] = options.deliveryId;
  }
  for (const hit of parts.hits) headers[`${prefix}-${CRITERION_HEADERS[hit]}`] = 'HIT';
  if (parts.secretToken) {
    headers[`${prefix}-Secret-Token`] = parts.secretToken;
    if (signs) headers[`${prefix}-Signature`] = options.sign(body, parts.secretToken);
  }
  return { contentType, headers, body };
}

/** A shell command that sends the same request (for testing a receiver by hand). Pure. */
export function curlCommand(url: string, payload: { headers: Record<string, string>; bodyText: string }): string {
  const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  const headers = Object.entries(payload.headers).map(([name, value]) => `  -H ${quote(`${name}: ${value}`)}`);
  return [`curl -sS -X POST ${quote(url)}`, ...headers, `  --data-binary @- <<'INBOX_DESK_PAYLOAD'`].join(' \\\n') + `\n${payload.bodyText}\nINBOX_DESK_PAYLOAD`;
}
