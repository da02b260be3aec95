/**
 * The spam score of an email, from SpamAssassin's own spamd: the SPAMC
 * protocol (REPORT) over TCP, the raw message as it is stored. SpamAssassin
 * decides; this module only asks and reads its answer. Main's spam score (S)
 * and the catcher's Mailpit sa-check both ask through it.
 *
 *   REPORT SPAMC/1.5 / Content-length: N / (blank) / message
 *   → SPAMD/1.1 0 EX_OK / Spam: True ; 1000.0 / 5.0 / (blank) / report text
 */
import { connect } from 'node:net';
import type { ErrorKind, SpamReport } from '../shared/contract.ts';
import { spamdAddress } from '../shared/domain/spamd-address.ts';

export { spamdAddress };

export const DEFAULT_SPAMD = '127.0.0.1:783';

/** What went wrong asking spamd, sorted into the app's error kinds (main hands them on as they are). */
export class SpamdError extends Error {
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string) {
    super(message);
    this.name = 'SpamdError';
    this.kind = kind;
  }
}
/** spamd compiles nothing per message, but a big one takes it a while. */
export const SPAMD_TIMEOUT_MS = 20_000;
/** spamd's own default cap (spamc -s): larger mail is not scored. */
export const SPAMD_MAX_BYTES = 500 * 1024;

/** Reads spamd's answer to REPORT: its status line, its Spam header, and the report's rule table. */
export function parseSpamdAnswer(answer: Buffer): SpamReport {
  const text = answer.toString('utf8');
  const headerEnd = text.indexOf('\r\n\r\n');
  const head = headerEnd === -1 ? text : text.slice(0, headerEnd);
  const body = headerEnd === -1 ? '' : text.slice(headerEnd + 4);
  const [status = '', ...headers] = head.split('\r\n');
  const statusMatch = /^SPAMD\/[\d.]+\s+(\d+)\s+(.*)$/.exec(status);
  if (!statusMatch) throw new SpamdError('bad-response', `spamd answered something other than SPAMD: “${status.slice(0, 80)}”.`);
  if (statusMatch[1] !== '0') throw new SpamdError('server', `spamd could not score this email: ${statusMatch[2]} (code ${statusMatch[1]}).`);
  const spamHeader = headers.find((line) => /^Spam:/i.test(line)) ?? '';
  const spam = /^Spam:\s*(True|False|Yes|No)\s*;\s*(-?[\d.]+)\s*\/\s*(-?[\d.]+)/i.exec(spamHeader);
  if (!spam) throw new SpamdError('bad-response', 'spamd gave no score for this email.');
  return {
    isSpam: /^(true|yes)$/i.test(spam[1]!),
    score: Number(spam[2]),
    threshold: Number(spam[3]),
    rules: reportRules(body),
  };
}

/**
 * The rule table of SpamAssassin's report ("pts rule name description"),
 * descriptions that wrap onto further lines joined, highest points first.
 */
export function reportRules(report: string): SpamReport['rules'] {
  const rules: SpamReport['rules'] = [];
  const lines = report.split(/\r?\n/);
  const start = lines.findIndex((line) => /^-{3,}\s+-{3,}/.test(line.trim()));
  for (const line of start === -1 ? [] : lines.slice(start + 1)) {
    const row = /^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s*(.*)$/.exec(line);
    if (row) rules.push({ name: row[2]!, points: Number(row[1]), description: row[3]!.trim() });
    else if (/^\s{4,}\S/.test(line) && rules.length > 0) rules.at(-1)!.description += ` ${line.trim()}`;
    else if (line.trim() === '') continue;
    else break;
  }
  return rules.sort((a, b) => b.points - a.points || a.name.localeCompare(b.name));
}

/** Asks spamd at `address` to score `raw`; a plain sentence when nobody answers there. */
export function spamReport(raw: Buffer, address: string, timeoutMs = SPAMD_TIMEOUT_MS): Promise<SpamReport> {
  const target = spamdAddress(address);
  if (!target) return Promise.reject(new SpamdError('validation', `“${address}” is not an address spamd can listen on: write host:port, such as ${DEFAULT_SPAMD}.`));
  if (raw.length > SPAMD_MAX_BYTES) {
    return Promise.reject(new SpamdError('unsupported', `This email is ${Math.round(raw.length / 1024)} KB; spamd scores mail up to ${SPAMD_MAX_BYTES / 1024} KB.`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(target);
    const fail = (error: SpamdError) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(timeoutMs, () => fail(new SpamdError('timeout', `spamd at ${address} did not answer within ${timeoutMs / 1000} s.`)));
    socket.on('connect', () => {
      socket.write(`REPORT SPAMC/1.5\r\nContent-length: ${raw.length}\r\n\r\n`);
      socket.end(raw);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      fail(
        new SpamdError(
          'network',
          error.code === 'ECONNREFUSED' || error.code === 'ENOTFOUND' || error.code === 'EHOSTUNREACH'
            ? `No spamd answers at ${address}. Install SpamAssassin’s spamd and start it (Debian: apt install spamd), or give its address (Settings in the app; --spamd for npm run catch).`
            : `spamd at ${address} could not be reached: ${error.message}.`,
        ),
      ),
    );
    socket.on('end', () => {
      socket.destroy();
      try {
        resolve(parseSpamdAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
}
