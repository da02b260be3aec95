/**
 * What an automation posts for an email: body, Content-Type and headers, as
 * each flavor sends them. One builder for the reference service (which
 * posts it) and for main's preview and "Send test" (which show and send it),
 * so the preview is what the service sends. Runs anywhere: the caller hands
 * in the HMAC.
 */
import type { Criterion, PayloadFormat } from './automation.ts';
import { FLAVOR_RECORDS, type FlavorName } from '../flavors/index.ts';

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

/**
 * JSON as PHP's json_encode writes it with no flags (Laravel's JsonResponse,
 * which MailCare posts): slashes escaped, every character past ASCII as
 * \uXXXX (UTF-16 units, lowercase hex). Same value as JSON.stringify's, other bytes.
 */
export function phpJsonEncode(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function buildPayload(
  parts: PayloadParts,
  options: { sign: (body: Uint8Array, secret: string) => string; deliveryId: string },
): WebhookPayload {
  const traits = FLAVOR_RECORDS[parts.flavor];
  const { signs, headerPrefix: prefix } = traits;
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
      body = new TextEncoder().encode(traits.jsonBytes === 'php' ? phpJsonEncode({ data: parts.record }) : JSON.stringify({ data: parts.record }));
      contentType = 'application/json';
  }
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'User-Agent': 'InboxDesk-ReferenceService/1',
    // The API document's service percent-encodes the title; MailCare sends it as it is (AutomationListener).
    [`${prefix}-Title`]: traits.titleHeader === 'percent-encoded' ? encodeURIComponent(parts.title) : parts.title,
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

const DELIMITER = 'INBOX_DESK_PAYLOAD';

/** Whether `text` is exactly these bytes as UTF-8 and survives a quoted heredoc read by $(…) unchanged. */
function heredocSafe(text: string, base64: string): boolean {
  if (text.includes('\r') || text.includes('\0') || text.endsWith('\n') || text.split('\n').includes(DELIMITER)) return false;
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  const encoded = new TextEncoder().encode(text);
  return encoded.length === bytes.length && encoded.every((byte, i) => byte === bytes[i]);
}

/**
 * A shell command (sh, bash, zsh) that sends the same request, byte for byte,
 * so a receiver's signature check passes as it would for the service. A JSON
 * body is shown as text (a quoted heredoc, whose added newline $(…) takes off
 * again); anything else (a raw message: CRLF, 8-bit parts) goes as base64. Pure.
 */
export function curlCommand(url: string, payload: { headers: Record<string, string>; bodyText: string; bodyBase64: string }): string {
  const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  const headers = Object.entries(payload.headers).map(([name, value]) => `  -H ${quote(`${name}: ${value}`)}`);
  const curl = [`curl -sS -X POST ${quote(url)}`, ...headers, '  --data-binary @-'].join(' \\\n');
  if (heredocSafe(payload.bodyText, payload.bodyBase64)) {
    return `body=$(cat <<'${DELIMITER}'\n${payload.bodyText}\n${DELIMITER}\n)\nprintf '%s' "$body" | ${curl}`;
  }
  return `printf '%s' ${quote(payload.bodyBase64)} | base64 --decode | ${curl}`;
}
