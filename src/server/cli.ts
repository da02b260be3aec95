#!/usr/bin/env node
/**
 * npm run server -- --port 8025 --team demo --token <t> --seed <folder of .eml>
 *   [--data <dir>] [--smtp-port 2525] [--rate-limit 60] [--host 127.0.0.1]
 *   [--allow-private-webhooks]   (webhooks to loopback/private/link-local addresses)
 *   [--flavor mailcare [--basic user:password] [--no-automations]]   (MailCare's own API)
 * The rate limit is 60 requests a minute per client unless --rate-limit 0, like the real service.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { DEFAULT_FLAVOR, FLAVOR_TRAITS, FLAVORS, isFlavor } from '../shared/domain/flavor.ts';
import { randomToken, startReferenceService } from './index.ts';
import { startParsePool } from './parse-pool.ts';

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
    flavor: { type: 'string', default: DEFAULT_FLAVOR },
    basic: { type: 'string' },
    automations: { type: 'boolean', default: true },
    forward: { type: 'boolean', default: false },
  },
  allowNegative: true,
});

if (!isFlavor(values.flavor)) {
  console.error(`--flavor must be one of: ${FLAVORS.join(', ')}`);
  process.exit(2);
}
const flavor = values.flavor;
const [basicUser, ...basicRest] = (values.basic ?? '').split(':');

const started = Date.now();
const token = values.token ?? randomToken();
const parsePool = startParsePool();
const running = await startReferenceService({
  port: Number(values.port),
  host: values.host,
  teams: [{ id: values.team, token }],
  seedDir: values.seed ? resolve(values.seed) : undefined,
  dataDir: values.data ? resolve(values.data) : undefined,
  smtpPort: values['smtp-port'] === undefined ? undefined : Number(values['smtp-port']),
  rateLimit: values['rate-limit'] === undefined ? 60 : Number(values['rate-limit']),
  allowPrivateWebhooks: values['allow-private-webhooks'],
  flavor,
  basic: values.basic ? { user: basicUser ?? '', password: basicRest.join(':') } : undefined,
  automations: values.automations,
  forward: values.forward,
  parse: (raw) => parsePool.parse(raw),
});
const emails = running.service.team(values.team).count();
console.log(`Reference service up in ${Date.now() - started} ms with ${emails} emails`);
if (!FLAVOR_TRAITS[flavor].teams) {
  console.log(`Base URL: ${running.baseUrl}/api (MailCare)${values.basic ? `, login ${basicUser}` : ', no login'}`);
} else {
  console.log(`Base URL: ${running.baseUrl}/api/teams/${values.team}`);
  console.log(`Token:    ${token}`);
}
if (running.smtpPort !== null) console.log(`SMTP:     ${running.smtpHost}:${running.smtpPort} (loopback only)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running
      .close()
      .then(() => parsePool.close())
      .then(() => process.exit(0));
  });
}
