import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Criterion } from '../shared/domain/automation.ts';
import { buildPayload } from '../shared/domain/webhook-payload.ts';
import { matchAutomation } from '../shared/domain/automation-match.ts';
import { SERVICE_V1, type ServerFlavor } from './flavors.ts';
import type { StoredAutomation, StoredContent, StoredEmail } from './team-store.ts';
import { resolveWebhookTarget } from './webhook-target.ts';

/**
 * Webhook delivery for automations. Headers (documented in the README):
 *   X-Service-Event: email.received      X-Service-Delivery: <uuid>
 *   X-Service-Title: <automation title>
 *   X-Service-Subject|Sender|Inbox|Has-Attachments: HIT   (criteria that matched)
 *   X-Service-Secret-Token: <token>                      (when a token is set)
 *   X-Service-Signature: sha256=<hex HMAC-SHA256 of the exact body, keyed by the token>
 */

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export function signPayload(body: Uint8Array | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The request an automation sends for an email, built by the one shared builder (webhook-payload.ts). */
export function buildWebhook(
  automation: StoredAutomation,
  email: StoredEmail,
  content: StoredContent,
  hits: Criterion[],
  flavor: ServerFlavor = SERVICE_V1,
): WebhookRequest {
  const payload = buildPayload(
    {
      flavor: flavor.name,
      title: automation.title,
      payloadFormat: automation.payload_format,
      secretToken: automation.action_secret_token,
      hits,
      record: flavor.emailResource(email),
      raw: content.raw,
      html: content.html,
      text: content.text,
    },
    { sign: signPayload, deliveryId: randomUUID() },
  );
  return { url: automation.action_url ?? '', headers: payload.headers, body: Buffer.from(payload.body) };
}

export interface DeliveryOptions {
  timeoutMs: number;
  /** Loopback, private and link-local targets are refused unless this is set (tests, a private network). */
  allowPrivate: boolean;
}

/**
 * POSTs a webhook; true on a 2xx answer. The target is resolved and checked
 * first, and the connection goes to exactly the address that was checked.
 * Redirects are not followed. Never throws.
 */
export async function deliver(request: WebhookRequest, options: DeliveryOptions): Promise<boolean> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let target;
  try {
    target = await resolveWebhookTarget(request.url, { allowPrivate: options.allowPrivate });
  } catch {
    return false;
  }
  const pinned: RequestOptions['lookup'] = (_host, lookupOptions, callback) => {
    const answer = callback as (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;
    if (lookupOptions.all) answer(null, [{ address: target.address, family: target.family }]);
    else answer(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const outgoing = send(
      target.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': String(request.body.length) },
        lookup: pinned,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        response.on('end', () => resolve(status >= 200 && status < 300));
        response.on('error', () => resolve(false));
      },
    );
    outgoing.on('error', () => resolve(false));
    outgoing.end(request.body);
  });
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
  content: StoredContent,
  options: DeliveryOptions & { flavor?: ServerFlavor; onChange: (automation: StoredAutomation) => void; deleteEmail: (id: string) => void },
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
    options.onChange(automation);
    runs.push(
      (async () => {
        let delivered: boolean | null = null;
        if (automation.action_url) {
          delivered = await deliver(buildWebhook(automation, email, content, hits, options.flavor), options);
          automation.in_error = !delivered;
          options.onChange(automation);
        }
        return { automationId: automation.id, delivered, deleteEmail: automation.action_delete_email };
      })(),
    );
  }
  const outcomes = await Promise.all(runs);
  const wantDelete = outcomes.filter((o) => o.deleteEmail);
  const regardless = options.flavor?.deleteRegardless === true;
  if (wantDelete.length > 0 && (regardless || wantDelete.every((o) => o.delivered !== false))) options.deleteEmail(email.id);
  return outcomes;
}
