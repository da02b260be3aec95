import { z } from 'zod';
import type { Automation, AutomationInput } from '../../shared/domain/automation.ts';
import { AutomationSchema } from '../../shared/domain/automation-schema.ts';
import { parseJson } from './answers.ts';
import { ServiceError } from './errors.ts';
import type { Transport } from './transport.ts';

/**
 * The account's automations. Servers differ in what a write answers: the
 * reference echoes the rule, MailCare an empty 200. An echo is used; without
 * one the rule is found in a fresh list, or (an update) merged locally.
 */
export class AutomationsClient {
  /** The last list read, to tell a new rule from the ones before it. */
  private known: Automation[] | null = null;

  private readonly transport: Transport;

  constructor(transport: Transport) {
    this.transport = transport;
  }

  async list(): Promise<Automation[]> {
    const response = await this.transport.request({ operation: 'listAutomations', method: 'GET', path: 'automations' });
    this.known = parseJson(response.bytes, z.object({ data: z.array(AutomationSchema) })).data;
    return this.known;
  }

  /** POST is never retried: a 2xx, empty or not, means it is stored. */
  async create(input: Required<AutomationInput>): Promise<Automation> {
    const before = new Set((this.known ?? []).map((a) => a.id));
    const response = await this.transport.request({
      operation: 'createAutomation',
      method: 'POST',
      path: 'automations',
      body: this.transport.flavor.automationToWire(input),
    });
    this.known = null;
    const echoed = echoedAutomation(response.bytes);
    if (echoed) return echoed;
    // Stored, but not echoed: find it in a fresh list (the newest one not seen before with this title).
    const fresh = await this.list();
    const created = [...fresh].reverse().find((a) => !before.has(a.id) && a.title === input.title);
    if (created) return created;
    throw new ServiceError('bad-response', 'The server stored the automation but did not say how; refresh the list to see it.');
  }

  /**
   * PUT is never retried, and sends the whole automation as the user sees it
   * (MailCare replaces every column). The success body is open: an answer
   * with the automation is used; an empty one is re-read, or merged locally.
   */
  async update(id: string, input: Required<AutomationInput>): Promise<Automation> {
    const response = await this.transport.request({
      operation: 'updateAutomation',
      method: 'PUT',
      path: `automations/${encodeURIComponent(id)}`,
      body: this.transport.flavor.automationToWire(input),
    });
    const before = this.known?.find((a) => a.id === id);
    const echoed = echoedAutomation(response.bytes);
    if (echoed) return echoed;
    if (!this.transport.isUnsupported('listAutomations')) {
      try {
        const fresh = (await this.list()).find((a) => a.id === id);
        if (fresh) return fresh;
      } catch {
        // Merge locally below.
      }
    }
    const now = new Date().toISOString();
    return AutomationSchema.parse({ ...(before ?? { emails_received: 0, in_error: false, created_at: now }), ...input, id, updated_at: now });
  }

  async delete(id: string): Promise<void> {
    await this.transport.request({ operation: 'deleteAutomation', method: 'DELETE', path: `automations/${encodeURIComponent(id)}` });
    this.known = this.known?.filter((a) => a.id !== id) ?? null;
  }
}

/** The answer's automation, when the server sent one (MailCare answers writes with an empty 200). */
function echoedAutomation(bytes: Buffer): Automation | null {
  if (bytes.toString('utf8').trim() === '') return null;
  try {
    return parseJson(bytes, z.object({ data: AutomationSchema })).data;
  } catch {
    return null;
  }
}
