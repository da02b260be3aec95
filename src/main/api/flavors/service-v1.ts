/** The API document's service: /api/teams/{team}, Bearer, the vendor type (shared/flavors/service-v1.ts). */
import { SERVICE_V1 } from '../../../shared/flavors/service-v1.ts';
import { basePath, checkedBase, type ClientFlavor } from './base.ts';

export const serviceV1: ClientFlavor = {
  record: SERVICE_V1,
  apiRoot(baseUrl, teamId) {
    const url = checkedBase(baseUrl);
    url.pathname = `${basePath(url)}/api/teams/${encodeURIComponent(teamId)}/`;
    return url;
  },
  authorization: (secret) => (secret ? `Bearer ${secret}` : null),
  // The seed's fields (2.6), every one of them: what the user sees is what is stored.
  automationToWire: ({ action_email: _notInThisApi, ...fields }) => fields,
  explain: (error) => error,
  // Sent as stored: bytes, no charset.
  rawBytes: (sent) => sent,
};
