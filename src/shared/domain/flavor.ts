/**
 * The servers Inbox Desk talks to. The API document's service and MailCare,
 * the open-source service it abstracts, differ in routes, auth, media type
 * and automation fields; these traits are what the UI and the validation
 * need to know of the difference. Runs anywhere.
 */
import type { PayloadFormat } from './automation.ts';

export const FLAVORS = ['service-v1', 'mailcare'] as const;
export type FlavorName = (typeof FLAVORS)[number];

export interface FlavorTraits {
  name: FlavorName;
  label: string;
  /** Paths sit under /api/teams/{team}. */
  teams: boolean;
  /** Bearer token, or MailCare's optional HTTP Basic login. */
  auth: 'bearer' | 'basic-or-none';
  payloadFormats: readonly PayloadFormat[];
  /** Automations can forward by mail (`action_email`). */
  forwarding: boolean;
  /** Sender and inbox criteria are addresses, or regular expressions. */
  addressCriteria: 'address' | 'regex';
  /** Every automation needs a webhook URL or a forward address. */
  requiresAction: boolean;
  /** The service deletes matched mail even when the delivery failed. */
  deletesOnFailedDelivery: boolean;
}

export const FLAVOR_TRAITS: Record<FlavorName, FlavorTraits> = {
  'service-v1': {
    name: 'service-v1',
    label: 'Inbox service (API v1)',
    teams: true,
    auth: 'bearer',
    payloadFormats: ['json', 'raw', 'json_with_bodies'],
    forwarding: false,
    addressCriteria: 'address',
    requiresAction: false,
    deletesOnFailedDelivery: false,
  },
  mailcare: {
    name: 'mailcare',
    label: 'MailCare',
    teams: false,
    auth: 'basic-or-none',
    payloadFormats: ['json', 'raw'],
    forwarding: true,
    addressCriteria: 'regex',
    requiresAction: true,
    deletesOnFailedDelivery: true,
  },
};

export function isFlavor(value: unknown): value is FlavorName {
  return typeof value === 'string' && (FLAVORS as readonly string[]).includes(value);
}
