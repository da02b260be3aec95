#!/usr/bin/env node
/**
 * npm run server -- --port 8025 --team demo --token <t> --seed <folder of .eml>
 *   [--data <dir>] [--smtp-port 2525] [--rate-limit 60] [--host 127.0.0.1]
 *   [--allow-private-webhooks]   (webhooks to loopback/private/link-local addresses)
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { randomToken, startReferenceService } from './index.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8025' },
    host: { type: 'string', default: '127.0.0.1' },
    team: { type: 'string', default: 'demo' },
    token: { type: 'string' },
    seed: { type: 'string' },
    data: { type: 'string' },
    'smtp-port': { type: 'string' },
    'rate-limit': { type: 'string' },
    'allow-private-webhooks': { type: 'boolean', default: false },
  },
});

const started = Date.now();
const token = values.token ?? randomToken();
const running = await startReferenceService({
  port: Number(values.port),
  host: values.host,
  teams: [{ id: values.team, token }],
  seedDir: values.seed ? resolve(values.seed) : undefined,
  dataDir: values.data ? resolve(values.data) : undefined,
  smtpPort: values['smtp-port'] === undefined ? undefined : Number(values['smtp-port']),
  rateLimit: values['rate-limit'] === undefined ? undefined : Number(values['rate-limit']),
  allowPrivateWebhooks: values['allow-private-webhooks'],
});
const emails = running.service.team(values.team).emails.size;
console.log(`Reference service up in ${Date.now() - started} ms with ${emails} emails`);
console.log(`Base URL: ${running.baseUrl}/api/teams/${values.team}`);
console.log(`Token:    ${token}`);
if (running.smtpPort !== null) console.log(`SMTP:     ${running.smtpHost}:${running.smtpPort} (loopback only)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
