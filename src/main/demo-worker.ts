/**
 * The demo's reference service, in its own thread: whatever a request makes
 * it do (parse a seed, match a pattern, post a webhook), main's event loop
 * only routes the app's calls and never waits on it.
 */
import { join } from 'node:path';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { randomToken, startReferenceService } from '../server/index.ts';

const { resourcesDir, smtp } = workerData as { resourcesDir: string; smtp?: boolean };
const team = { id: 'demo', token: randomToken() };
// SMTP on loopback only where a test asks for it (mail arriving in the demo as it would in the app).
const running = await startReferenceService({ teams: [team], seedDir: join(resourcesDir, 'demo', 'mail'), ...(smtp ? { smtpPort: 0 } : {}) });
parentPort!.postMessage({ type: 'ready', baseUrl: running.baseUrl, teamId: team.id, token: team.token, threadId, smtpPort: running.smtpPort });
parentPort!.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  void running.close().finally(() => parentPort!.close());
});
