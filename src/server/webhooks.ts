import { createHmac, randomUUID } from 'node:crypto';
import { matchAutomation, type Criterion } from '../shared/domain/automation.ts';
import { emailResource, type StoredAutomation, type StoredEmail } from './team-store.ts';

/**
 * Webhook delivery for automations. Headers (documented in the README):
 *   X-Service-Event: email.received      X-Service-Delivery: <uuid>
 *   X-Service-Title: <automation title>
 *   X-Service-Subject|Sender|Inbox|Has-Attachments: HIT   (criteria that matched)
 *   X-Service-Secret-Token: <token>                      (when a token is set)
 *   X-Service-Signature: sha256=<hex HMAC-SHA256 of the exact body, keyed by the token>
 */

const CRITERION_HEADERS: Record<Criterion, string> = {
  subject: 'X-Service-Subject',
  sender: 'X-Service-Sender',
  inbox: 'X-Service-Inbox',
  has_attachments: 'X-Service-Has-Attachments',
};

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export function signPayload(body: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export function buildWebhook(automation: StoredAutomation, email: StoredEmail, hits: Criterion[]): WebhookRequest {
  let body: Buffer;
  let contentType: string;
  switch (automation.payload_format) {
    case 'raw':
      body = email.raw;
      contentType = 'message/rfc2822';
      break;
    case 'json_with_bodies':
      body = Buffer.from(JSON.stringify({ data: { ...emailResource(email), html: email.html, text: email.text } }));
      contentType = 'application/json';
      break;
    default:
      body = Buffer.from(JSON.stringify({ data: emailResource(email) }));
      contentType = 'application/json';
  }
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'User-Agent': 'InboxDesk-ReferenceService/1',
    'X-Service-Event': 'email.received',
    'X-Service-Delivery': randomUUID(),
    'X-Service-Title': encodeURIComponent(automation.title),
  };
  for (const hit of hits) headers[CRITERION_HEADERS[hit]] = 'HIT';
  if (automation.action_secret_token) {
    headers['X-Service-Secret-Token'] = automation.action_secret_token;
    headers['X-Service-Signature'] = signPayload(body, automation.action_secret_token);
  }
  return { url: automation.action_url ?? '', headers, body };
}

export async function deliver(request: WebhookRequest, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: new Uint8Array(request.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

export interface AutomationOutcome {
  automationId: string;
  delivered: boolean | null;
  deleteEmail: boolean;
}

/**
 * Runs every automation of a team on one new email. Counts matches at once;
 * deliveries run concurrently and never throw. The email is deleted only when
 * every matching automation that asks for it delivered: mail whose webhook
 * failed is kept rather than lost.
 */
export async function runAutomations(
  automations: Iterable<StoredAutomation>,
  email: StoredEmail,
  options: { timeoutMs: number; onChange: () => void; deleteEmail: (id: string) => void },
): Promise<AutomationOutcome[]> {
  const target = {
    subject: email.subject,
    sender: email.sender.email,
    inbox: email.inbox.email,
    attachmentCount: email.attachments.length,
  };
  const runs: Promise<AutomationOutcome>[] = [];
  for (const automation of automations) {
    const hits = matchAutomation(automation, target);
    if (hits === null) continue;
    automation.emails_received += 1;
    runs.push(
      (async () => {
        let delivered: boolean | null = null;
        if (automation.action_url) {
          delivered = await deliver(buildWebhook(automation, email, hits), options.timeoutMs);
          automation.in_error = !delivered;
          options.onChange();
        }
        return { automationId: automation.id, delivered, deleteEmail: automation.action_delete_email };
      })(),
    );
  }
  if (runs.length > 0) options.onChange();
  const outcomes = await Promise.all(runs);
  const wantDelete = outcomes.filter((o) => o.deleteEmail);
  if (wantDelete.length > 0 && wantDelete.every((o) => o.delivered !== false)) options.deleteEmail(email.id);
  return outcomes;
}
