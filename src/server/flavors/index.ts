/** The reference service's wires by flavor (base.ts says what a wire is). */
import { DEFAULT_FLAVOR, type FlavorName } from '../../shared/flavors/index.ts';
import { MAILCARE } from '../../shared/flavors/mailcare.ts';
import { SERVICE_V1 } from '../../shared/flavors/service-v1.ts';
import type { ServerWire } from './base.ts';
import { mailcareWire } from './mailcare.ts';
import { serviceV1Wire } from './service-v1.ts';

export type { Answer, ListPage, ServerWire } from './base.ts';
export { ColumnCannotBeNull } from './mailcare.ts';

export const SERVER_WIRES: Record<FlavorName, ServerWire> = { [SERVICE_V1.name]: serviceV1Wire, [MAILCARE.name]: mailcareWire };

export function serverWire(name: FlavorName | undefined): ServerWire {
  return SERVER_WIRES[name ?? DEFAULT_FLAVOR];
}
