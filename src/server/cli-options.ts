/**
 * The reference service's command line as data: each option with its default
 * and its line of help, so `--help`, the parser and its errors cannot
 * disagree. Pure: argv in, options or one line of error out.
 */
import { accessSync, constants, mkdirSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkRelaySettings, type RelayConfig } from '../shared/domain/relay.ts';
import { DEFAULT_FLAVOR, FLAVOR_RECORDS, FLAVORS, isFlavor, type FlavorName } from '../shared/flavors/index.ts';

interface OptionSpec {
  type: 'string' | 'boolean';
  /** The value's name in the help, for string options. */
  value?: string;
  default?: string | boolean;
  help: string;
}

export const CLI_OPTIONS = {
  port: { type: 'string', value: 'N', default: '8025', help: 'HTTP port (0 picks a free one)' },
  host: { type: 'string', value: 'ADDRESS', default: '127.0.0.1', help: 'where HTTP listens; loopback unless you say otherwise' },
  team: { type: 'string', value: 'ID', default: 'demo', help: 'the team in /api/teams/{team}' },
  token: { type: 'string', value: 'TOKEN', help: 'the bearer token (default: a new random one, printed)' },
  seed: { type: 'string', value: 'DIR', help: 'a folder of .eml files (and automations.json) to start from' },
  data: { type: 'string', value: 'DIR', help: 'keep the mail in DIR/<team>/mail.sqlite (default: in memory)' },
  'smtp-port': { type: 'string', value: 'N', help: 'accept mail over SMTP on port N (STARTTLS offered)' },
  'smtp-host': { type: 'string', value: 'ADDRESS', default: '127.0.0.1', help: 'where SMTP listens; another interface than loopback lets other computers send' },
  'smtps-port': { type: 'string', value: 'N', help: 'also take SMTP over TLS from the first byte on port N' },
  'smtp-auth': { type: 'string', value: 'any|off|USER:PASS', default: 'any', help: 'AUTH PLAIN/LOGIN: any credentials, none offered, or only this pair' },
  'smtp-require-auth': { type: 'boolean', help: 'refuse mail from a client that has not logged in (530)' },
  'smtp-max-recipients': { type: 'string', value: 'N', default: '100', help: 'recipients taken per message (at least 100, RFC 5321); the rest are answered 452' },
  'tls-cert': { type: 'string', value: 'FILE', help: 'PEM certificate for STARTTLS and --smtps-port (default: a self-signed one, kept in --data)' },
  'tls-key': { type: 'string', value: 'FILE', help: 'its PEM private key' },
  keep: { type: 'string', value: 'N', help: 'keep only the newest N emails (older ones are deleted as mail arrives)' },
  'keep-days': { type: 'string', value: 'N', help: 'delete emails older than N days' },
  'rate-limit': { type: 'string', value: 'N', default: '60', help: 'requests a minute per client, as the real service (0: off)' },
  flavor: { type: 'string', value: 'NAME', default: DEFAULT_FLAVOR, help: `the wire to speak: ${FLAVORS.join(' or ')} (MailCare's own API)` },
  basic: { type: 'string', value: 'EMAIL:PASSWORD', help: 'mailcare: ask for this HTTP Basic login' },
  'no-automations': { type: 'boolean', help: 'mailcare: automation routes answer 403 (MAILCARE_AUTOMATIONS=false)' },
  forward: { type: 'boolean', help: 'mailcare: rules may forward by mail (MAILCARE_FORWARD=true; nothing is sent)' },
  spamd: { type: 'string', value: 'HOST:PORT', help: 'SpamAssassin\'s spamd, for Mailpit\'s sa-check (GET /api/v1/message/{ID}/sa-check)' },
  'allow-private-webhooks': { type: 'boolean', help: 'let webhooks and the link check reach loopback, private and link-local addresses' },
  'relay-host': { type: 'string', value: 'HOST', help: 'release (POST /api/v1/message/{ID}/release) through this SMTP server; its password from INBOX_DESK_RELAY_PASSWORD' },
  'relay-port': { type: 'string', value: 'N', default: '587', help: 'the relay\'s port' },
  'relay-security': { type: 'string', value: 'starttls|tls|none', default: 'starttls', help: 'STARTTLS, TLS from the first byte, or none' },
  'relay-user': { type: 'string', value: 'USER', help: 'the relay\'s login' },
  'relay-allow': { type: 'string', value: 'LIST', help: 'who may receive released mail: addresses or @domains, comma-separated (required with --relay-host)' },
  'relay-from': { type: 'string', value: 'ADDRESS', help: 'the envelope sender the relay demands (default: the email\'s own sender)' },
  catch: { type: 'boolean', help: 'a mail catcher for tests and CI (npm run catch): SMTP on 1025, HTTP on 8025 with Mailpit\'s API, the wait and /mcp, the newest 500 kept, the team this-computer, no rate limit, the mail and the token kept in --data (default: a folder in the temp directory)' },
  help: { type: 'boolean', help: 'print this and exit' },
} as const satisfies Record<string, OptionSpec>;

export interface CliOptions {
  port: number;
  host: string;
  team: string;
  token?: string;
  seed?: string;
  data?: string;
  smtpPort?: number;
  smtpHost: string;
  smtpsPort?: number;
  smtpAuth: 'any' | 'off' | { user: string; password: string };
  smtpRequireAuth: boolean;
  smtpMaxRecipients: number;
  tlsCert?: string;
  tlsKey?: string;
  keep?: number;
  keepDays?: number;
  rateLimit: number;
  flavor: FlavorName;
  basic?: { user: string; password: string };
  automations: boolean;
  forward: boolean;
  allowPrivateWebhooks: boolean;
  /** SpamAssassin's spamd (--spamd), for Mailpit's sa-check. */
  spamd?: string;
  /** The catcher's API for tests and agents (--catch). */
  catcher: boolean;
  /** Release's relay (--relay-*), its password from the environment. */
  relay?: RelayConfig;
}

/** Where `npm run catch` keeps its mail when no --data is given. */
export const CATCH_DATA_DIR = join(tmpdir(), 'inbox-desk-catch');

export type CliParse = { kind: 'help' } | { kind: 'run'; options: CliOptions } | { kind: 'error'; message: string };

export function usage(command = 'npm run server --'): string {
  const rows = Object.entries(CLI_OPTIONS as Record<string, OptionSpec>).map(([name, spec]) => {
    const left = `  --${name}${spec.value ? ` ${spec.value}` : ''}`;
    const fallback = spec.default !== undefined && spec.type === 'string' ? ` (default ${spec.default})` : '';
    return `${left.padEnd(34)}${spec.help}${fallback}`;
  });
  return [`Usage: ${command} [options]`, '', 'The reference inbox service: the HTTP API, SMTP in, automations.', '', 'Options:', ...rows].join('\n');
}

function port(text: string, name: string): number | string {
  return /^\d{1,5}$/.test(text) && Number(text) <= 65535 ? Number(text) : `--${name} must be a port number from 0 to 65535, not "${text}"`;
}

/** The relay the --relay-* options describe, or the line that says what is wrong; none without --relay-host. */
function relayOf(values: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv): RelayConfig | string | undefined {
  if (values['relay-host'] === undefined) {
    const stray = ['relay-user', 'relay-allow', 'relay-from'].find((name) => values[name] !== undefined);
    return stray ? `--${stray} goes with --relay-host` : undefined;
  }
  const port = Number(values['relay-port']);
  if (!/^\d{1,5}$/.test(String(values['relay-port'])) || port < 1 || port > 65535) return `--relay-port must be a port number from 1 to 65535, not "${String(values['relay-port'])}"`;
  if (values['relay-allow'] === undefined) return '--relay-host needs --relay-allow: the addresses or @domains released mail may go to';
  const checked = checkRelaySettings({
    host: String(values['relay-host']),
    port,
    security: String(values['relay-security']),
    user: String(values['relay-user'] ?? ''),
    allowlist: String(values['relay-allow']).split(','),
    envelopeFrom: String(values['relay-from'] ?? ''),
  });
  if (typeof checked === 'string') return `--relay-*: ${checked}`;
  return { ...checked, password: env.INBOX_DESK_RELAY_PASSWORD ?? '' };
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliParse {
  const options = Object.fromEntries(
    Object.entries(CLI_OPTIONS as Record<string, OptionSpec>).map(([name, spec]) => [name, { type: spec.type, ...(spec.default !== undefined ? { default: spec.default } : {}) }]),
  ) as Parameters<typeof parseArgs>[0] extends infer C ? (C extends { options?: infer O } ? O : never) : never;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }) as { values: Record<string, string | boolean | undefined> });
  } catch (error) {
    const text = (error as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(text);
    if (unknown) return { kind: 'error', message: `unknown option ${unknown[1]}` };
    const missing = /Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(text);
    if (missing) return { kind: 'error', message: `${missing[1]} needs a value` };
    const positional = /Unexpected argument '([^']+)'/.exec(text);
    if (positional) return { kind: 'error', message: `unexpected argument "${positional[1]}" (options start with --)` };
    return { kind: 'error', message: text.split('\n')[0]! };
  }
  if (values.help) return { kind: 'help' };
  if (values.catch) {
    // The catcher's defaults, where the command line left the service's own.
    values['smtp-port'] ??= '1025';
    values.keep ??= '500';
    values.data ??= CATCH_DATA_DIR;
    if (values.team === CLI_OPTIONS.team.default) values.team = 'this-computer';
    if (values['rate-limit'] === CLI_OPTIONS['rate-limit'].default) values['rate-limit'] = '0';
  }

  const httpPort = port(String(values.port), 'port');
  if (typeof httpPort === 'string') return { kind: 'error', message: httpPort };
  let smtpPort: number | undefined;
  if (values['smtp-port'] !== undefined) {
    const parsed = port(String(values['smtp-port']), 'smtp-port');
    if (typeof parsed === 'string') return { kind: 'error', message: parsed };
    smtpPort = parsed;
  }
  let smtpsPort: number | undefined;
  if (values['smtps-port'] !== undefined) {
    const parsed = port(String(values['smtps-port']), 'smtps-port');
    if (typeof parsed === 'string') return { kind: 'error', message: parsed };
    smtpsPort = parsed;
  }
  const authText = String(values['smtp-auth']);
  const colonAt = authText.indexOf(':');
  if (authText !== 'any' && authText !== 'off' && colonAt <= 0) return { kind: 'error', message: `--smtp-auth must be any, off or USER:PASS, not "${authText}"` };
  const smtpAuth = authText === 'any' || authText === 'off' ? authText : { user: authText.slice(0, colonAt), password: authText.slice(colonAt + 1) };
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) return { kind: 'error', message: '--tls-cert and --tls-key go together' };
  const counts: Record<'keep' | 'keep-days', number | undefined> = { keep: undefined, 'keep-days': undefined };
  for (const name of ['keep', 'keep-days'] as const) {
    if (values[name] === undefined) continue;
    const text = String(values[name]);
    if (!/^[1-9]\d{0,8}$/.test(text)) return { kind: 'error', message: `--${name} must be a whole number from 1, not "${text}"` };
    counts[name] = Number(text);
  }
  const recipients = String(values['smtp-max-recipients']);
  if (!/^\d{3,6}$/.test(recipients) || Number(recipients) < 100) return { kind: 'error', message: `--smtp-max-recipients must be a whole number from 100 (RFC 5321 asks at least that), not "${recipients}"` };
  const rate = String(values['rate-limit']);
  if (!/^\d{1,6}$/.test(rate)) return { kind: 'error', message: `--rate-limit must be a whole number of requests a minute (0: off), not "${rate}"` };
  const flavor = String(values.flavor);
  if (!isFlavor(flavor)) return { kind: 'error', message: `--flavor must be one of ${FLAVORS.join(', ')}, not "${flavor}"` };
  const team = String(values.team);
  if (!/^[\w.-]{1,64}$/.test(team)) return { kind: 'error', message: `--team must be letters, digits, ".", "_" or "-" (at most 64), not "${team}"` };
  const relay = relayOf(values, env);
  if (typeof relay === 'string') return { kind: 'error', message: relay };
  let basic: CliOptions['basic'];
  if (values.basic !== undefined) {
    const text = String(values.basic);
    const colon = text.indexOf(':');
    if (colon <= 0) return { kind: 'error', message: '--basic must be EMAIL:PASSWORD' };
    if (!FLAVOR_RECORDS[flavor].serverSwitches.includes('basic')) return { kind: 'error', message: `--basic is for a server that asks for a login (--flavor mailcare); ${FLAVOR_RECORDS[flavor].label} takes a bearer token: --token` };
    basic = { user: text.slice(0, colon), password: text.slice(colon + 1) };
  }
  for (const mailcareOnly of ['no-automations', 'forward'] as const) {
    // MailCare's own switches (MAILCARE_AUTOMATIONS, MAILCARE_FORWARD), as its record lists them.
    if (values[mailcareOnly] && !FLAVOR_RECORDS[flavor].serverSwitches.includes(mailcareOnly)) return { kind: 'error', message: `--${mailcareOnly} is for --flavor mailcare` };
  }
  return {
    kind: 'run',
    options: {
      port: httpPort,
      host: String(values.host),
      team,
      ...(values.token !== undefined ? { token: String(values.token) } : {}),
      ...(values.seed !== undefined ? { seed: String(values.seed) } : {}),
      ...(values.data !== undefined ? { data: String(values.data) } : {}),
      ...(smtpPort !== undefined ? { smtpPort } : {}),
      smtpHost: String(values['smtp-host']),
      ...(smtpsPort !== undefined ? { smtpsPort } : {}),
      smtpAuth,
      smtpRequireAuth: Boolean(values['smtp-require-auth']),
      smtpMaxRecipients: Number(recipients),
      ...(values['tls-cert'] !== undefined ? { tlsCert: String(values['tls-cert']), tlsKey: String(values['tls-key']) } : {}),
      ...(counts.keep !== undefined ? { keep: counts.keep } : {}),
      ...(counts['keep-days'] !== undefined ? { keepDays: counts['keep-days'] } : {}),
      rateLimit: Number(rate),
      flavor,
      ...(basic ? { basic } : {}),
      automations: !values['no-automations'],
      forward: Boolean(values.forward),
      allowPrivateWebhooks: Boolean(values['allow-private-webhooks']),
      ...(values.spamd !== undefined ? { spamd: String(values.spamd) } : {}),
      catcher: Boolean(values.catch),
      ...(relay ? { relay } : {}),
    },
  };
}

/** One line for an error at start, from what Node threw. */
export function startError(error: unknown, options: CliOptions): string {
  const err = error as NodeJS.ErrnoException & { address?: string; port?: number };
  const flag = err.port === undefined ? '--port' : err.port === options.smtpPort ? '--smtp-port' : err.port === options.smtpsPort ? '--smtps-port' : '--port';
  switch (err.code) {
    case 'EADDRINUSE':
      return `port ${err.port} on ${err.address ?? options.host} is in use by another program: pick another with ${flag} (0 picks a free one)`;
    case 'EACCES':
      return err.syscall === 'listen' ? `port ${err.port} needs more rights than this user has: pick one above 1023 with ${flag}` : `no permission for ${err.path ?? 'a file'}: check --data and --seed`;
    case 'EADDRNOTAVAIL':
      return `${err.address ?? options.host} is not an address of this computer: check --host`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${options.host} does not name an address of this computer: check --host`;
    default:
      return err.message.split('\n')[0]!;
  }
}

/** Checks the folders before anything starts, so that each problem is one line, not a stack. */
export function folderProblem(kind: 'seed' | 'data', path: string): string | null {
  try {
    if (kind === 'seed') {
      if (!statSync(path).isDirectory()) return `--seed ${path} is not a folder (it takes a folder of .eml files)`;
      readdirSync(path);
    } else {
      mkdirSync(path, { recursive: true });
      accessSync(path, constants.W_OK | constants.R_OK);
    }
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ENOTDIR' || code === 'EEXIST' ? 'a file is in the way' : (error as Error).message;
    return kind === 'seed' ? `cannot read --seed ${path}: ${why}` : `cannot write to --data ${path}: ${why}`;
  }
}
