import { createHmac, randomUUID } from 'node:crypto';
import type { Criterion } from '../shared/domain/automation.ts';
import { buildPayload } from '../shared/domain/webhook-payload.ts';
import { matchAutomation } from '../shared/domain/automation-match.ts';
import { serverWire, type ServerWire } from './flavors/index.ts';
import type { StoredAutomation, StoredContent, StoredEmail } from './team-store.ts';
import { postToTarget, resolveWebhookTarget } from './webhook-target.ts';

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
  wire: ServerWire = serverWire(undefined),
): WebhookRequest {
  const payload = buildPayload(
    {
      flavor: wire.record.name,
      title: automation.title,
      payloadFormat: automation.payload_format,
      secretToken: automation.action_secret_token,
      hits,
      record: wire.emailResource(email),
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
  try {
    const target = await resolveWebhookTarget(request.url, { allowPrivate: options.allowPrivate });
    const { status } = await postToTarget(target, request.headers, request.body, { timeoutMs: options.timeoutMs });
    return status >= 200 && status < 300;
  } catch {
    return false;
  }
}

/**
 * Matching runs in turns of at most TURN_MS, with the event loop free between
 * them: a burst of mail (50 recipients a message) against costly rules never
 * holds the service, and every request waits at most one match (about 20 ms,
 * pattern.ts) plus a turn.
 */
const TURN_MS = 8;
const waiting: (() => void)[] = [];
let turnScheduled = false;

function inTurn<T>(work: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    waiting.push(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error);
      }
    });
    scheduleTurn();
  });
}

function scheduleTurn(): void {
  if (turnScheduled) return;
  turnScheduled = true;
  setImmediate(() => {
    turnScheduled = false;
    const began = performance.now();
    while (waiting.length > 0 && performance.now() - began < TURN_MS) waiting.shift()!();
    if (waiting.length > 0) scheduleTurn();
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
  options: DeliveryOptions & { flavor?: ServerWire; onChange: (automation: StoredAutomation) => void; deleteEmail: (id: string) => void },
): Promise<AutomationOutcome[]> {
  const target = {
    subject: email.subject,
    sender: email.sender.email,
    inbox: email.inbox.email,
    attachmentCount: email.attachments.length,
  };
  const runs: Promise<AutomationOutcome>[] = [];
  for (const automation of [...automations]) {
    const hits = await inTurn(() => matchAutomation(automation, target, (options.flavor ?? serverWire(undefined)).record.addressCriteria));
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
  const regardless = options.flavor?.record.deletesOnFailedDelivery === true;
  if (wantDelete.length > 0 && (regardless || wantDelete.every((o) => o.delivered !== false))) options.deleteEmail(email.id);
  return outcomes;
}
