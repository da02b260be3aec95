/**
 * The demo's reference service, in its own thread: whatever a request makes
 * it do (parse a seed, match a pattern, post a webhook), main's event loop
 * only routes the app's calls and never waits on it.
 */
import { join } from 'node:path';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { randomToken, startReferenceService } from '../server/index.ts';

const { resourcesDir } = workerData as { resourcesDir: string };
const team = { id: 'demo', token: randomToken() };
const running = await startReferenceService({ teams: [team], seedDir: join(resourcesDir, 'demo', 'mail') });
parentPort!.postMessage({ type: 'ready', baseUrl: running.baseUrl, teamId: team.id, token: team.token, threadId });
parentPort!.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  void running.close().finally(() => parentPort!.close());
});
