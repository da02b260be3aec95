/**
 * A plain model of main as the renderer's store sees it through the bridge,
 * for driving the real store (createAppStore) in Node with a fake clock.
 * It is written from the contract, not from the store: a page is the newest
 * first slice of what is left, a DELETE waits `undoMs` on this clock for an
 * undoDelete and then happens, and every call is logged as main received it.
 */
import type { Args, BridgeError, Method, Results } from '../../../src/shared/contract.ts';
import type { Automation } from '../../../src/shared/domain/automation.ts';
import type { Email } from '../../../src/shared/domain/email.ts';
import { BridgeFailure } from '../../../src/renderer/src/bridge.ts';
import type { Clock, Effects } from '../../../src/renderer/src/effects.ts';

export interface FakeClock extends Clock {
  /** Runs every timer due within `ms`, in time order, letting promises settle between them. */
  advance: (ms: number) => Promise<void>;
}

/** Lets every pending promise chain run (the store's awaits), without moving the fake clock. */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function fakeClock(start = Date.parse('2026-11-26T12:00:00Z')): FakeClock {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout: (run, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), run });
      return id;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    advance: async (ms) => {
      const end = now + ms;
      await settle();
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
        await settle();
      }
      now = end;
      await settle();
    },
  };
}

export function email(n: number, extra: Partial<Email> = {}): Email {
  const at = new Date(Date.parse('2026-11-20T00:00:00Z') + n * 60_000).toISOString();
  const address = (name: string) => ({ id: name, display_name: '', email: `${name}@example.test`, created_at: null, updated_at: null });
  return {
    id: `e${String(n).padStart(4, '0')}`,
    sender: address(`sender${n % 3}`),
    inbox: address('team'),
    carbon_copies: [],
    subject: `Email ${n}`,
    created_at: at,
    read: null,
    favorite: false,
    has_html: false,
    has_text: true,
    size_in_bytes: 100,
    attachments: [],
    ...extra,
  } as Email;
}

export function rule(n: number): Automation {
  return {
    id: `r${n}`,
    title: `Rule ${n}`,
    sender: null,
    inbox: null,
    subject: `subject ${n}`,
    has_attachments: false,
    action_url: 'https://hooks.example.test/in',
    action_email: null,
    action_secret_token: null,
    action_delete_email: false,
    payload_format: 'json',
    emails_received: 0,
    in_error: false,
    created_at: null,
    updated_at: null,
  };
}

export interface FakeMain {
  effects: Effects;
  clock: FakeClock;
  /** Every call main received, in order: method and argument. */
  log: { method: Method; arg: unknown }[];
  /** What the server has now (DELETEs that went through are gone). */
  emails: Email[];
  automations: Automation[];
  /** The questions confirm() was asked; `answer` is what the user says. */
  questions: string[];
  answer: boolean;
  /** The next call to `method` waits until the returned function is called. */
  hold: (method: Method) => () => void;
  /** The next call to `method` is answered as the server stood when it was asked, but delivered only when released (a slow answer). */
  holdAnswer: (method: Method) => () => void;
  /** Calls to `method` fail with this error until cleared. */
  failing: Partial<Record<Method, BridgeError>>;
  /** Server-side writes only (DELETE after its window, favorites), as the server log would show them. */
  writes: string[];
  /** Main's events to the renderer (deleteSettled, deleteFailed), as App.tsx subscribes them. */
  listen: (listener: (event: 'deleteSettled' | 'deleteFailed', payload: { id: string; kind: 'email' | 'automation' | 'all'; error?: BridgeError }) => void) => void;
  /** The next waiting DELETE (or delete-all) sent after its window hangs until the returned function answers it: with an error, it fails. */
  hangNextDelete: () => (error?: BridgeError) => void;
  /** The account shown ('a' unless switched); each account its own server's mail (`accounts` option). */
  active: () => string;
  /** As main's before-quit: every delete still in its window is sent now. */
  quit: () => void;
  /** The account whose service is killed (null: every one runs): every call that reaches it fails meanwhile, a DELETE sent then too. */
  down: string | null;
}

const bridgeError = (kind: BridgeError['kind'], message: string): BridgeError => ({ kind, message, details: {} });

export function fakeMain(options: { emails?: Email[]; automations?: Automation[]; accounts?: Record<string, Email[]> } = {}): FakeMain {
  const clock = fakeClock();
  // Each account's server: 'a' holds `emails`; the others their own.
  const servers = new Map<string, Email[]>([['a', [...(options.emails ?? [])]], ...Object.entries(options.accounts ?? {}).map(([id, mail]) => [id, [...mail]] as [string, Email[]])]);
  let active = 'a';
  const mailOf = () => servers.get(active)!;
  const automations = [...(options.automations ?? [])];
  const log: FakeMain['log'] = [];
  const writes: string[] = [];
  const held = new Map<Method, Promise<void>>();
  const heldAnswers = new Map<Method, Promise<void>>();
  const listeners: Parameters<FakeMain['listen']>[0][] = [];
  const emit: Parameters<FakeMain['listen']>[0] = (event, payload) => listeners.forEach((listener) => listener(event, payload));
  let hang: ((answer: (error?: BridgeError) => void) => void) | null = null;
  /** Deletes in their window: the timer, the account they belong to, and the send itself (fired early by a switch or a quit). */
  const deferred = new Map<string, { timer: unknown; account: string; send: () => void }>();
  const unreachable = () => bridgeError('network', 'The service is not answering (it was stopped).');
  const storage = new Map<string, string>();

  /** As main's deleteSoon: the DELETE reaches the server once `undoMs` pass on this clock, unless undone. */
  const deleteLater = (kind: 'email' | 'automation' | 'all', id: string, undoMs: number | undefined, from: { id: string }[], write: string): null => {
    const key = `${kind}:${id}`;
    const mail = mailOf();
    const account = active;
    const send = () => {
      if (!deferred.has(key)) return;
      clock.clearTimeout(deferred.get(key)!.timer);
      deferred.delete(key);
      // As main: the DELETE goes, and when the server answers, the renderer is told how it went.
      const done = (error?: BridgeError) => {
        if (error) return emit('deleteFailed', { id, kind, error });
        if (main.down === account) return emit('deleteFailed', { id, kind, error: unreachable() });
        if (kind === 'all') {
          // Every email that arrived by then; what came after stays.
          for (let i = mail.length - 1; i >= 0; i--) if (Date.parse(mail[i]!.created_at) <= Date.parse(id)) mail.splice(i, 1);
        } else {
          const at = from.findIndex((item) => item.id === id);
          if (at >= 0) from.splice(at, 1);
        }
        writes.push(write);
        emit('deleteSettled', { id, kind });
      };
      if (hang) {
        const take = hang;
        hang = null;
        take(done);
      } else done();
    };
    deferred.set(key, { timer: clock.setTimeout(send, undoMs ?? 0), account: active, send });
    return null;
  };
  /** Sends the waiting deletes now (of one account, or all): main's flush before a switch or a quit. */
  const flush = (account?: string) => {
    for (const entry of [...deferred.values()]) if (account === undefined || entry.account === account) entry.send();
  };
  const newestFirst = () => [...mailOf()].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  const handlers: { [M in Method]?: (arg: Args[M]) => Results[M] } = {
    listEmails: (query) => {
      const all = newestFirst();
      const per = query.limit ?? 25;
      const page = query.page ?? 1;
      const data = all.slice((page - 1) * per, page * per);
      return {
        data,
        links: { first: null, last: null, prev: null, next: null },
        meta: { current_page: page, from: data.length ? (page - 1) * per + 1 : null, last_page: Math.max(1, Math.ceil(all.length / per)), path: '/emails', per_page: per, to: data.length ? (page - 1) * per + data.length : null, total: all.length },
      };
    },
    watchList: () => null,
    openEmail: ({ id }) => {
      const found = mailOf().find((e) => e.id === id);
      if (!found) throw new BridgeFailure(bridgeError('not-found', 'That email is gone.'));
      found.read ??= new Date(clock.now()).toISOString();
      // An HTML email opens in HTML; one past 100 KB comes clipped, as main clips it.
      const html = `<p>Body of ${found.subject}</p>`;
      const body = found.has_html
        ? { format: 'html', content: found.size_in_bytes > 100_000 ? html.slice(0, 10) : html, ...(found.size_in_bytes > 100_000 ? { total: found.size_in_bytes } : {}) }
        : { format: 'text', content: `Body of ${found.subject}` };
      return { email: { ...found }, body: body as Results['openEmail']['body'] };
    },
    getEmail: ({ id }) => ({ ...mailOf().find((e) => e.id === id)! }),
    getEmailBody: ({ id }) => ({ format: 'text', content: `Body of ${id}` }) as Results['getEmailBody'],
    setFavorite: ({ id, favorite }) => {
      const found = mailOf().find((e) => e.id === id);
      if (found) found.favorite = favorite;
      writes.push(`${favorite ? 'star' : 'unstar'} ${id}`);
      return null;
    },
    deleteEmail: ({ id, undoMs }) => deleteLater('email', id, undoMs, mailOf(), `delete ${id}`),
    deleteAutomation: ({ id, undoMs }) => deleteLater('automation', id, undoMs, automations, `delete rule ${id}`),
    deleteAllEmails: ({ undoMs }) => {
      // Main's clock, to the millisecond: the newest email so far arrived by then.
      const through = new Date(Math.max(clock.now(), ...mailOf().map((e) => Date.parse(e.created_at)))).toISOString();
      deleteLater('all', through, undoMs, mailOf(), 'delete all');
      return { through };
    },
    undoDelete: ({ id, kind }) => {
      const key = `${kind ?? 'email'}:${id}`;
      if (!deferred.has(key)) return { undone: false };
      clock.clearTimeout(deferred.get(key)!.timer);
      deferred.delete(key);
      return { undone: true };
    },
    printEmail: ({ pdf }) => ({ printed: !pdf, savedTo: pdf ? '/home/qa/Downloads/email.pdf' : null }),
    listAutomations: () => automations.map((a) => ({ ...a })),
    getAccounts: () => accountsState(),
    switchAccount: ({ id }) => {
      // As main: the deletes waiting in the account left are sent first; then the other opens.
      flush(active);
      if (id !== null && servers.has(id)) active = id;
      return accountsState();
    },
    reportUnsaved: () => null,
  };

  const accountsState = (): Results['switchAccount'] => ({
    accounts: [...servers.keys()].map((id) => ({ id, name: `Account ${id}`, baseUrl: `https://${id}.example.test`, teamId: 't', flavor: 'service-v1', addressPattern: null }) as never),
    activeId: active,
    demo: false,
    encryptionAvailable: true,
    settingsRecovered: false,
    catcher: { settings: {} as never, status: 'off', smtp: null, error: null, hasPassword: false },
  });
  /** Calls that reach the service (a killed one answers none); the rest are main's own. */
  const reachesService = new Set<Method>(['listEmails', 'openEmail', 'getEmail', 'getEmailBody', 'setFavorite', 'listAutomations']);

  const main: FakeMain = {
    active: () => active,
    quit: () => flush(),
    down: null,
    listen: (listener) => void listeners.push(listener),
    hangNextDelete: () => {
      let answer: ((error?: BridgeError) => void) | null = null;
      let early: { error?: BridgeError } | null = null;
      hang = (done) => {
        answer = done;
        if (early) done(early.error);
      };
      return (error) => (answer ? answer(error) : (early = { error }));
    },
    clock,
    log,
    get emails() {
      return mailOf();
    },
    automations,
    writes,
    questions: [],
    answer: true,
    failing: {},
    hold: (method) => {
      let release!: () => void;
      held.set(method, new Promise<void>((resolve) => (release = resolve)));
      return () => release();
    },
    holdAnswer: (method) => {
      let release!: () => void;
      heldAnswers.set(method, new Promise<void>((resolve) => (release = resolve)));
      return () => release();
    },
    effects: {
      call: async (method, arg) => {
        log.push({ method, arg });
        const wait = held.get(method);
        if (wait) {
          held.delete(method);
          await wait;
        }
        const failure = main.failing[method] ?? (main.down === active && reachesService.has(method) ? unreachable() : undefined);
        if (failure) throw new BridgeFailure(failure);
        const handler = handlers[method] as ((a: typeof arg) => unknown) | undefined;
        if (!handler) throw new BridgeFailure(bridgeError('unsupported', `The fake main has no ${method}.`));
        const answer = structuredClone(handler(arg));
        const late = heldAnswers.get(method);
        if (late) {
          heldAnswers.delete(method);
          await late;
        }
        return answer as never;
      },
      confirm: (question) => {
        main.questions.push(question);
        return main.answer;
      },
      storage: {
        getItem: (key) => storage.get(key) ?? null,
        setItem: (key, value) => void storage.set(key, value),
        removeItem: (key) => void storage.delete(key),
      },
      clock,
      visible: () => true,
      prepareHtml: () => undefined,
      sanitizeHtml: async (html) => html,
    },
  };
  return main;
}
