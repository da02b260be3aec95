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
  /** Webhooks carry X-…-Event/Delivery and an HMAC signature of the body. */
  signs: boolean;
  /** Prefix of the webhook headers. */
  headerPrefix: string;
  /** The title header percent-encoded (the API document's service), or as it is (MailCare). */
  titleHeader: 'percent-encoded' | 'as-is';
  /** How webhook JSON is written: JSON.stringify's bytes, or PHP's json_encode (escaped slashes, \uXXXX). */
  jsonBytes: 'javascript' | 'php';
  /** The server's regular-expression engine: RE2 (linear; no lookaround, no backreferences) or PCRE (wrapped as `#…#i`). */
  patternEngine: 're2' | 'pcre';
  /** What the payload choice is called on the wire, for the form's label. */
  payloadLabel: string;
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
    signs: true,
    headerPrefix: 'X-Service',
    titleHeader: 'percent-encoded',
    jsonBytes: 'javascript',
    patternEngine: 're2',
    payloadLabel: 'Payload format',
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
    signs: false,
    headerPrefix: 'X-MailCare',
    titleHeader: 'as-is',
    jsonBytes: 'php',
    patternEngine: 'pcre',
    payloadLabel: 'What the webhook receives (post_raw)',
  },
};

/** Where nothing says otherwise (files from before flavors, a call that names none): the API document's service. */
export const DEFAULT_FLAVOR: FlavorName = 'service-v1';

/** The kind of server an address most likely is: one that names a team is the API document's; else MailCare's kind. */
export function likelyFlavor(teamId: string | undefined): FlavorName {
  return FLAVORS.find((name) => FLAVOR_TRAITS[name].teams === Boolean(teamId)) ?? DEFAULT_FLAVOR;
}

/** The order "Test connection" tries the kinds in: the likely one first. */
export function detectionOrder(teamId: string | undefined): FlavorName[] {
  const first = likelyFlavor(teamId);
  return [first, ...FLAVORS.filter((name) => name !== first)];
}

export function isFlavor(value: unknown): value is FlavorName {
  return typeof value === 'string' && (FLAVORS as readonly string[]).includes(value);
}
