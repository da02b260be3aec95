/**
 * The tester's loop: the pure decisions (patterns, shortcuts, the tray), and
 * main's loop (src/main/tester-loop.ts) against the reference service over
 * HTTP with the real client, mail arriving by SMTP from nodemailer. What the
 * clipboard receives and what the service was asked (its access log) are
 * the evidence.
 */
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client.ts';
import { TesterLoop, type LoopDeps } from '../../src/main/tester-loop.ts';
import { startReferenceService, type AccessLogEntry, type RunningService } from '../../src/server/index.ts';
import { POLL_FLOOR } from '../../src/shared/domain/rate-budget.ts';
import {
  acceleratorProblem,
  displayAccelerator,
  domainOf,
  freshAddress,
  normalisePattern,
  patternProblem,
  randomPart,
  trayView,
  type LoopState,
  type WatchCaught,
} from '../../src/shared/domain/tester-loop.ts';
import { rawMail } from '../support/mail.ts';

describe('fresh addresses from a pattern', () => {
  it('takes the forms people write: a pattern, a domain, an address (plus-addressing)', () => {
    expect(freshAddress('qa+{random}@myapp.test', 'x7k2m9p4qa')).toBe('qa+x7k2m9p4qa@myapp.test');
    expect(freshAddress('myapp.test', 'abc')).toBe('abc@myapp.test');
    expect(freshAddress('@myapp.test', 'abc')).toBe('abc@myapp.test');
    expect(freshAddress('qa@myapp.test', 'abc')).toBe('qa+abc@myapp.test');
    expect(freshAddress('  {random}.signup@Example.COM ', 'abc')).toBe('abc.signup@Example.COM');
    expect(normalisePattern('inbox-desk.test')).toBe('{random}@inbox-desk.test');
  });

  it('refuses what cannot be an address, with the reason', () => {
    expect(patternProblem('{random}{random}@a.test')).toMatch(/once/);
    expect(patternProblem('qa {random}@a.test')).toMatch(/before the @/);
    expect(patternProblem('{random}@exa mple.test')).toMatch(/not a domain/);
    expect(patternProblem('{random}@-bad.test')).toMatch(/not a domain/);
    expect(freshAddress('{random}@', 'abc')).toBeNull();
    expect(patternProblem('qa+{random}@myapp.test')).toBeNull();
  });

  it('random parts are ten characters people can read back, and differ', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const part = randomPart(crypto.getRandomValues(new Uint8Array(10)));
      expect(part).toMatch(/^[a-km-np-z2-9]{10}$/);
      seen.add(part);
    }
    expect(seen.size).toBe(200);
  });

  it('learns a domain from an address', () => {
    expect(domainOf('support@Acme.TEST')).toBe('acme.test');
    expect(domainOf('no-domain')).toBeNull();
  });
});

describe('the global shortcut and the tray', () => {
  it('takes Electron accelerators with a modifier, and says why not', () => {
    expect(acceleratorProblem('Control+Alt+C')).toBeNull();
    expect(acceleratorProblem('CommandOrControl+Shift+F9')).toBeNull();
    expect(acceleratorProblem('C')).toMatch(/needs a modifier/);
    expect(acceleratorProblem('Control+Foo+C')).toMatch(/not a modifier/);
    expect(acceleratorProblem('Control+Alt+')).toMatch(/joined by \+/);
    expect(acceleratorProblem('Control+Control+C')).toMatch(/once/);
    expect(acceleratorProblem('Alt+Smile')).toMatch(/not a key/);
    expect(displayAccelerator('Control+Alt+C', true)).toBe('⌃⌥C');
    expect(displayAccelerator('Control+Alt+C', false)).toBe('Ctrl+Alt+C');
  });

  it('the tray shows the newest code first, and never a code the newest email does not have', () => {
    const state = (newest: LoopState['newest']): LoopState => ({ watches: [], newest, shortcut: { accelerator: '', status: 'off' } });
    const withCode = trayView(state({ emailId: '1', subject: 'Your code', from: 'MyApp', code: '739204', link: null }));
    expect(withCode.title).toBe('739204');
    expect(withCode.items[0]).toEqual({ id: 'copy-newest', label: 'Copy 739204', enabled: true });
    const none = trayView(state({ emailId: '2', subject: 'Newsletter', from: 'MyApp', code: null, link: null }));
    expect(none.title).toBe('');
    expect(none.items[0]).toMatchObject({ id: 'copy-newest', enabled: false });
    expect(trayView(state(null)).items[0]!.label).toBe('No email yet');
  });
});

describe('main’s loop against the reference service', () => {
  let service: RunningService | null = null;
  let loop: TesterLoop | null = null;
  afterEach(async () => {
    loop?.dispose();
    loop = null;
    await service?.close();
    service = null;
  });

  async function setUp(options: { rateLimit?: number; pollMs?: number; maxMs?: number; shortcuts?: LoopDeps['shortcuts']; local?: boolean } = {}) {
    const log: AccessLogEntry[] = [];
    service = await startReferenceService({ teams: [{ id: 'qa', token: 'qa-token' }], smtpPort: 0, rateLimit: options.rateLimit, onResponse: (entry) => log.push(entry) });
    const client = new ServiceClient({ baseUrl: service.baseUrl, teamId: 'qa', token: 'qa-token' }, { maxRetries: 0 });
    const clipboard: string[] = [];
    const caught: WatchCaught[] = [];
    const states: LoopState[] = [];
    const notes: { title: string; body: string; copy: string | null }[] = [];
    loop = new TesterLoop({
      withClient: (run) => run(client),
      isLocal: () => options.local ?? false,
      rate: () => client.rateLimit,
      addressPattern: async (c) => {
        const newest = (await c.listEmails({ limit: 1 })).data[0];
        return newest ? `{random}@${domainOf(newest.inbox.email)}` : null;
      },
      copyText: (text) => void clipboard.push(text),
      onState: (state) => void states.push(state),
      onCaught: (c) => void caught.push(c),
      notify: (note) => void notes.push(note),
      notifyWanted: () => true,
      shortcuts: options.shortcuts,
      refreshList: () => undefined,
      setTimer: (run, ms) => {
        const timer = setTimeout(run, ms);
        return () => clearTimeout(timer);
      },
      now: Date.now,
      pollMs: options.pollMs ?? 50,
      maxMs: options.maxMs,
    });
    const smtp = (to: string, subject: string, text: string) => {
      const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service!.smtpPort!, secure: false, tls: { rejectUnauthorized: false } });
      return transport.sendMail({ from: 'MyApp <no-reply@myapp.test>', to, subject, text }).finally(() => transport.close());
    };
    return { client, clipboard, caught, states, notes, log, smtp, loop, service };
  }

  it('N: an address at the server’s domain, copied; its first email by SMTP opens with its code on the clipboard', async () => {
    const { clipboard, caught, smtp, loop, states } = await setUp();
    await service!.inject(rawMail({ to: 'someone@acme-mail.test', subject: 'Earlier mail' }));
    const { address, until } = await loop.newAddress();
    expect(address).toMatch(/^[a-z2-9]{10}@acme-mail\.test$/);
    expect(clipboard).toEqual([address]);
    expect(until - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(states.at(-1)!.watches.map((w) => w.address)).toEqual([address]);
    // Mail to another address first: it answers no watch.
    await smtp('other@acme-mail.test', 'Not yours', 'Your code is 111222.');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(caught).toEqual([]);
    await smtp(address, 'Confirm your email', 'Welcome!\n\nYour verification code is 739 204.\n\nIt expires in 10 minutes.');
    await expect.poll(() => caught.length, { timeout: 5000 }).toBe(1);
    expect(caught[0]).toMatchObject({ address, subject: 'Confirm your email', copied: { kind: 'code', text: '739204' } });
    expect(clipboard.at(-1)).toBe('739204');
    expect(loop.state.watches).toEqual([]);
    expect(loop.state.newest).toMatchObject({ code: '739204', subject: 'Confirm your email' });
  });

  it('with no code the main link goes to the clipboard; with neither, nothing', async () => {
    const { clipboard, caught, loop } = await setUp();
    await service!.inject(rawMail({ to: 'seed@acme-mail.test' }));
    const first = await loop.newAddress();
    await service!.inject(rawMail({ to: first.address, subject: 'Reset your password', html: '<p>Someone asked to reset your password.</p><p><a href="https://myapp.test/reset?token=abc">Reset password</a></p>' }));
    await expect.poll(() => caught.length, { timeout: 5000 }).toBe(1);
    expect(caught[0]!.copied).toEqual({ kind: 'link', text: 'https://myapp.test/reset?token=abc' });
    const second = await loop.newAddress();
    await service!.inject(rawMail({ to: second.address, subject: 'Our newsletter', text: 'Nothing to do here. See you next month.' }));
    await expect.poll(() => caught.length, { timeout: 5000 }).toBe(2);
    expect(caught[1]!.copied).toBeNull();
    expect(clipboard).toEqual([first.address, 'https://myapp.test/reset?token=abc', second.address]);
  });

  it('a watch ends by itself when its time is up', async () => {
    const { loop, states } = await setUp({ maxMs: 150 });
    await service!.inject(rawMail({ to: 'seed@acme-mail.test' }));
    await loop.newAddress();
    await expect.poll(() => loop.state.watches.length, { timeout: 3000 }).toBe(0);
    expect(states.at(-1)!.watches).toEqual([]);
  });

  it('a remote watch polls within the rate budget: never below the floor, never a 429', async () => {
    const { loop, log } = await setUp({ rateLimit: POLL_FLOOR + 10, pollMs: 10 });
    await service!.inject(rawMail({ to: 'seed@acme-mail.test' }));
    await loop.newAddress();
    // Far more ticks than the budget has requests.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const watchPolls = log.filter((entry) => entry.url.includes('inbox=')).length;
    expect(log.some((entry) => entry.status === 429)).toBe(false);
    // The budget's last requests stay the user's: polling stopped at the floor.
    expect(watchPolls).toBeGreaterThan(3);
    expect(watchPolls).toBeLessThanOrEqual(10);
  });

  it('new mail notifies with its code and a Copy; the global shortcut copies the newest email’s code, and a taken one is said', async () => {
    const held = new Map<string, () => void>();
    const { loop, notes, clipboard, client } = await setUp({
      local: true,
      shortcuts: {
        register: (accelerator, run) => (accelerator === 'Control+Alt+X' ? false : (held.set(accelerator, run), true)),
        unregister: (accelerator) => void held.delete(accelerator),
      },
    });
    expect(loop.applyShortcut('Control+Alt+C')).toEqual({ accelerator: 'Control+Alt+C', status: 'on' });
    expect(loop.applyShortcut('Control+Alt+X')).toEqual({ accelerator: 'Control+Alt+X', status: 'taken' });
    expect(held.size).toBe(0);
    expect(loop.applyShortcut('X')).toMatchObject({ status: 'invalid' });
    expect(loop.applyShortcut('')).toMatchObject({ status: 'off' });
    loop.applyShortcut('Control+Alt+C');
    await service!.inject(rawMail({ to: 'a@acme-mail.test', subject: 'Your sign-in code', text: 'Use 482913 to sign in.' }));
    const page = await client.listEmails({ limit: 5 }, { fresh: true });
    await loop.newMail(page.data);
    expect(notes).toEqual([{ title: 'New mail from Alice', body: 'Your sign-in code\nCode: 482913', copy: '482913' }]);
    held.get('Control+Alt+C')!();
    expect(clipboard.at(-1)).toBe('482913');
    // A newer email without a code: the shortcut copies nothing rather than an older code.
    await service!.inject(rawMail({ to: 'a@acme-mail.test', subject: 'Weekly digest', text: 'Nothing new.' }));
    await loop.newMail((await client.listEmails({ limit: 5 }, { fresh: true })).data);
    expect(loop.copyNewest()).toBeNull();
    expect(clipboard).toEqual(['482913']);
  });
});
