/** The kinds of server Inbox Desk speaks, one record each (record.ts). Runs anywhere. */
import { MAILCARE } from './mailcare.ts';
import type { FlavorRecord } from './record.ts';
import { SERVICE_V1 } from './service-v1.ts';

export type { FlavorRecord } from './record.ts';

export const FLAVORS = [SERVICE_V1.name, MAILCARE.name] as const;
export type FlavorName = (typeof FLAVORS)[number];

export const FLAVOR_RECORDS: Record<FlavorName, FlavorRecord & { name: FlavorName }> = { [SERVICE_V1.name]: SERVICE_V1, [MAILCARE.name]: MAILCARE };

/** Where nothing says otherwise (files from before flavors, a call that names none): the API document's service. */
export const DEFAULT_FLAVOR: FlavorName = SERVICE_V1.name;

/** The kind of server an address most likely is: one that names a team is the API document's; else MailCare's kind. */
export function likelyFlavor(teamId: string | undefined): FlavorName {
  return FLAVORS.find((name) => FLAVOR_RECORDS[name].teams === Boolean(teamId)) ?? DEFAULT_FLAVOR;
}

/** The order "Test connection" tries the kinds in: the likely one first. */
export function detectionOrder(teamId: string | undefined): FlavorName[] {
  const first = likelyFlavor(teamId);
  return [first, ...FLAVORS.filter((name) => name !== first)];
}

export function isFlavor(value: unknown): value is FlavorName {
  return typeof value === 'string' && (FLAVORS as readonly string[]).includes(value);
}
