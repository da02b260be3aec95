/**
 * A rule's webhook for one email, built as the service builds it (the shared
 * buildPayload), from the server's own record of the email and its raw
 * message: the preview and "Send test" carry what the service would post.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { PayloadPreview } from '../../shared/contract.ts';
import type { AutomationInput } from '../../shared/domain/automation.ts';
import { buildPayload, type WebhookPayload } from '../../shared/domain/webhook-payload.ts';
import type { ServiceClient } from './client.ts';

export async function payloadFor(
  client: ServiceClient,
  emailId: string,
  input: Required<AutomationInput>,
): Promise<{ payload: WebhookPayload; preview: PayloadPreview }> {
  // Previewing must not mark mail read: the list's record serves when there is one.
  const email = client.knownEmail(emailId) ?? (await client.getEmail(emailId));
  const record = client.serverRecord(emailId);
  const raw = new TextEncoder().encode((await client.getEmailBody(emailId, 'raw')).content);
  const withBodies = input.payload_format === 'json_with_bodies';
  const html = withBodies && email.has_html ? (await client.getEmailBody(emailId, 'html')).content : null;
  const text = withBodies && email.has_text ? (await client.getEmailBody(emailId, 'text')).content : null;
  // The regex engine (re2js) is loaded on first use, not at start-up.
  const { matchAutomation } = await import('../../shared/domain/automation-match.ts');
  const hits = matchAutomation(input, { subject: email.subject, sender: email.sender.email, inbox: email.inbox.email, attachmentCount: email.attachments.length });
  const payload = buildPayload(
    {
      flavor: client.flavor.traits.name,
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
      bodyText: new TextDecoder().decode(payload.body),
      bytes: payload.body.length,
      matches: hits !== null,
      exact: record !== null,
    },
  };
}

/** POSTs a payload to a rule's URL (http/https only); answers what came back. */
export async function sendPayload(url: string, payload: WebhookPayload, timeoutMs = 10_000) {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    return { status: 0, ms: 0, responseStart: '', error: 'The webhook URL must be http or https.' };
  }
  const began = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: payload.headers,
      body: Buffer.from(payload.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, ms: Math.round(performance.now() - began), responseStart: text.slice(0, 500) };
  } catch (error) {
    const name = (error as { name?: string }).name;
    return {
      status: 0,
      ms: Math.round(performance.now() - began),
      responseStart: '',
      error: name === 'TimeoutError' ? `No answer within ${timeoutMs / 1000} s.` : `Could not reach ${new URL(url).host}.`,
    };
  }
}
