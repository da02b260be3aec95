/** The flavors by name (see base.ts for what a flavor is). */
import type { FlavorName } from '../../../shared/domain/flavor.ts';
import type { ClientFlavor } from './base.ts';
import { mailcare } from './mailcare.ts';
import { serviceV1 } from './service-v1.ts';

export type { ClientFlavor, Operation } from './base.ts';

export const CLIENT_FLAVORS: Record<FlavorName, ClientFlavor> = { 'service-v1': serviceV1, mailcare };

export function clientFlavor(name: FlavorName | undefined): ClientFlavor {
  return CLIENT_FLAVORS[name ?? 'service-v1'];
}
