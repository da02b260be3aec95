import { join } from 'node:path';
import { randomToken, startReferenceService, type RunningService } from '../server/index.ts';
import type { Connection } from './api/client.ts';

/**
 * Demo mode: with no account configured, the bundled reference service runs
 * in-process on a random loopback port with the demo corpus and a fresh token.
 */
export function demoStarter(resourcesDir: string): { start: () => Promise<Connection>; stop: () => Promise<void> } {
  let running: Promise<RunningService> | null = null;
  return {
    start: async () => {
      running ??= startReferenceService({
        teams: [{ id: 'demo', token: randomToken() }],
        seedDir: join(resourcesDir, 'demo', 'mail'),
      });
      const service = await running;
      const team = service.teams[0]!;
      return { baseUrl: service.baseUrl, teamId: team.id, token: team.token };
    },
    stop: async () => {
      if (running) await (await running).close();
    },
  };
}
