/** The flavors by name (see base.ts for what a flavor is). */
import { DEFAULT_FLAVOR, type FlavorName } from '../../../shared/flavors/index.ts';
import type { ClientFlavor } from './base.ts';
import { MAILCARE } from '../../../shared/flavors/mailcare.ts';
import { SERVICE_V1 } from '../../../shared/flavors/service-v1.ts';
import { mailcare } from './mailcare.ts';
import { serviceV1 } from './service-v1.ts';

export type { ClientFlavor, Operation } from './base.ts';

export const CLIENT_FLAVORS: Record<FlavorName, ClientFlavor> = { [SERVICE_V1.name]: serviceV1, [MAILCARE.name]: mailcare };

export function clientFlavor(name: FlavorName | undefined): ClientFlavor {
  return CLIENT_FLAVORS[name ?? DEFAULT_FLAVOR];
}
