/**
 * "Test connection": which kind of server answers at an address, and with
 * what. Asks each candidate flavor for one email; a route that is not there
 * (404 on the collection, an HTML page) means "not this flavor", anything
 * else (401, 403, a timeout) is the answer and is reported as it is.
 */
import type { FlavorName } from '../../shared/flavors/index.ts';
import { ServiceClient } from './client.ts';
import { ServiceError } from './errors.ts';
import type { HttpOptions } from './http.ts';

export interface Probe {
  baseUrl: string;
  teamId: string;
  secret: string | null;
  /** Only these, in this order. */
  candidates: FlavorName[];
  http?: Partial<HttpOptions>;
}

export async function detectServer(probe: Probe): Promise<{ flavor: FlavorName; total: number }> {
  let lastMiss: ServiceError | null = null;
  for (const flavor of probe.candidates) {
    const client = new ServiceClient(
      { baseUrl: probe.baseUrl, teamId: probe.teamId, token: probe.secret, flavor },
      { ...probe.http, maxRetries: 0 },
    );
    try {
      const page = await client.listEmails({ limit: 1 }, { fresh: true });
      return { flavor, total: page.meta.total };
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      const notThisKind = error.status === 404 || error.status === 405 || error.kind === 'bad-response';
      if (!notThisKind) throw error;
      lastMiss = error;
    }
  }
  throw new ServiceError(
    'not-found',
    'No inbox service answers at this address. Check it: it is the server’s own address, such as https://mail.example.com, or the one the service prints.',
    { status: lastMiss?.status },
  );
}
