/**
 * A rule's webhook for one email, built as the service builds it (the shared
 * buildPayload), from the server's own record of the email and its raw
 * message: the preview and "Send test" carry what the service would post.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { PayloadPreview } from '../../shared/contract.ts';
import type { AutomationInput } from '../../shared/domain/automation.ts';
import { buildPayload, type WebhookPayload } from '../../shared/domain/webhook-payload.ts';
import { postToTarget, resolveWebhookTarget } from '../../server/webhook-target.ts';
import type { ServiceClient } from './client.ts';
import { displayRaw } from '../../shared/domain/raw-message.ts';

export async function payloadFor(
  client: ServiceClient,
  emailId: string,
  input: Required<AutomationInput>,
): Promise<{ payload: WebhookPayload; preview: PayloadPreview }> {
  // Previewing must not mark mail read: the list's record serves when there is one.
  const email = client.knownEmail(emailId) ?? (await client.getEmail(emailId));
  const record = client.serverRecord(emailId);
  // The stored bytes, not a decoding of them: what the service posts is what is signed and shown.
  const raw = await client.rawMessage(emailId);
  const withBodies = input.payload_format === 'json_with_bodies';
  const html = withBodies && email.has_html ? (await client.getEmailBody(emailId, 'html')).content : null;
  const text = withBodies && email.has_text ? (await client.getEmailBody(emailId, 'text')).content : null;
  // The regex engine (re2js) is loaded on first use, not at start-up.
  const { matchAutomation } = await import('../../shared/domain/automation-match.ts');
  const hits = matchAutomation(input, { subject: email.subject, sender: email.sender.email, inbox: email.inbox.email, attachmentCount: email.attachments.length }, client.flavor.record.addressCriteria);
  const payload = buildPayload(
    {
      flavor: client.flavor.record.name,
      title: input.title,
      payloadFormat: input.payload_format,
      secretToken: input.action_secret_token,
      hits: hits ?? [],
      record: record ?? email,
      raw,
      html,
      text,
    },
    { sign: (body, secret) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`, deliveryId: randomUUID() },
  );
  return {
    payload,
    preview: {
      contentType: payload.contentType,
      headers: payload.headers,
      bodyText: payload.contentType.startsWith('message/') ? displayRaw(payload.body) : new TextDecoder().decode(payload.body),
      bodyBase64: Buffer.from(payload.body).toString('base64'),
      bytes: payload.body.length,
      matches: hits !== null,
      exact: record !== null,
    },
  };
}

/**
 * POSTs a payload to a rule's URL (http/https only) and answers what came back.
 * The renderer has no network of its own (connect-src 'none'): this must not
 * become one. So a target on this machine or a private network is reached only
 * when `allowPrivate` says main's user agreed, and the connection goes to the
 * very address that was checked.
 */
export async function sendPayload(
  url: string,
  payload: WebhookPayload,
  options: { timeoutMs?: number; allowPrivate: (origin: string) => Promise<boolean> },
) {
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    return { status: 0, ms: 0, responseStart: '', error: 'The webhook URL must be http or https.' };
  }
  const host = new URL(url).host;
  const began = performance.now();
  const elapsed = () => Math.round(performance.now() - began);
  let target;
  try {
    target = await resolveWebhookTarget(url, { allowPrivate: true });
  } catch {
    return { status: 0, ms: elapsed(), responseStart: '', error: `Could not find ${host}.` };
  }
  if (target.private && !(await options.allowPrivate(target.url.origin))) {
    return { status: 0, ms: 0, responseStart: '', error: `Not sent: ${host} is on this machine or a private network, and sending there was not allowed.` };
  }
  try {
    const { status, start } = await postToTarget(target, payload.headers, payload.body, { timeoutMs, keep: 500 });
    return { status, ms: elapsed(), responseStart: start };
  } catch (error) {
    const name = (error as { name?: string }).name;
    return {
      status: 0,
      ms: elapsed(),
      responseStart: '',
      error: name === 'TimeoutError' || name === 'AbortError' ? `No answer within ${timeoutMs / 1000} s.` : `Could not reach ${host}.`,
    };
  }
}
