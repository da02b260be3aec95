/**
 * THE bridge between the renderer and main. Every call main answers is named
 * here with the schema of its argument and the type of its result; preload,
 * main's IPC registration and the test host are all built from this table.
 * Runs anywhere: no electron, node or DOM imports.
 */
import { z } from 'zod';
import type { Automation, FieldErrors } from './domain/automation.ts';
import type { BodyFormat, Email, EmailBody, EmailPage } from './domain/email.ts';
import { FLAVORS, type FlavorName } from './flavors/index.ts';
import { ListQuerySchema, type ListQuery } from './domain/list-query.ts';
import type { CatcherState } from './domain/catcher.ts';
import { AFTER_DELETE, DEFAULT_SETTINGS, DENSITIES, THEMES, type Settings } from './domain/settings.ts';
import type { UpdateStatus } from './domain/update.ts';
import type { LoopState, WatchCaught } from './domain/tester-loop.ts';
import type { EventName, Method } from './bridge-spec.ts';

export { BRIDGE_SPEC, EVENTS, METHODS, eventChannel, invokeChannel } from './bridge-spec.ts';
export type { BridgeSpec, EventName, Method } from './bridge-spec.ts';

export const ERROR_KINDS = [
  'auth',
  'forbidden',
  'not-found',
  'not-acceptable',
  'validation',
  'rate-limited',
  'timeout',
  'network',
  'server',
  'unsupported',
  'bad-response',
  'bad-request',
  /** Replaced by a newer request (or an account switch): no failure, nothing to tell the user. */
  'cancelled',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** The one error shape that crosses the bridge. */
export interface BridgeError {
  kind: ErrorKind;
  /** A sentence a person can act on. */
  message: string;
  details: {
    status?: number;
    retryAfterSeconds?: number;
    fields?: FieldErrors;
  };
}

/** Every call answers an envelope: thrown errors lose their fields crossing IPC. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

/** Ids go into URL paths: no slashes, no dot segments. */
/** What the application menu asks the renderer for. */
export const MENU_COMMANDS = ['refresh', 'open-settings', 'open-automations', 'show-shortcuts', 'new-address'] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];
/** The key shown beside each menu item, as the renderer's registry and the user's keymap have it (null: none). */
export type MenuKeys = Partial<Record<MenuCommand, string | null>>;

const Id = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_:.-]+$/, 'unexpected characters in an id')
  .refine((v) => !/^\.+$/.test(v), 'an id cannot be dots only');

const AutomationBody = z.record(z.string(), z.unknown());
const None = z.undefined().or(z.null()).transform(() => undefined);

const SettingsFields = z
  .object({
    pageSize: z.number().int().min(5).max(100),
    confirmDelete: z.boolean(),
    theme: z.enum(THEMES),
    density: z.enum(DENSITIES),
    notifyNewMail: z.boolean(),
    afterDelete: z.enum(AFTER_DELETE),
    copyCodeShortcut: z.string().trim().max(60),
    spamd: z.string().trim().max(300),
    keymap: z
      .record(z.string().regex(/^[a-z]+\.[a-z-]+$/), z.array(z.string().min(1).max(40)).max(4))
      .refine((keymap) => Object.keys(keymap).length <= 200, 'too many keys rebound'),
  })
  .strict();

/** Settings as stored: files from before a field existed load with its default. */
export const SettingsSchema = SettingsFields.extend({
  density: SettingsFields.shape.density.default(DEFAULT_SETTINGS.density),
  notifyNewMail: SettingsFields.shape.notifyNewMail.default(DEFAULT_SETTINGS.notifyNewMail),
  afterDelete: SettingsFields.shape.afterDelete.default(DEFAULT_SETTINGS.afterDelete),
  keymap: SettingsFields.shape.keymap.default(DEFAULT_SETTINGS.keymap),
  copyCodeShortcut: SettingsFields.shape.copyCodeShortcut.default(DEFAULT_SETTINGS.copyCodeShortcut),
  spamd: SettingsFields.shape.spamd.default(DEFAULT_SETTINGS.spamd),
}).strict() satisfies z.ZodType<Settings, unknown>;

/** A change to some settings: no defaults here, or a change to one would reset the others. */
export const SettingsPatchSchema = SettingsFields.partial().strict();
export { THEMES, type Settings };

/** `auto`: main finds out by asking the server (testConnection). */
const FlavorChoice = z.enum(['auto', ...FLAVORS]);

// Empty fields pass the schema: main answers them with messages a person can act on.
export const AccountInputSchema = z
  .object({
    /** Absent: a new account. */
    id: Id.optional(),
    name: z.string().trim().max(100),
    /** Any form people paste: a base, a base with /api, or …/api/teams/{team}. */
    baseUrl: z.string().trim().max(2000),
    teamId: z.string().trim().max(200).optional(),
    flavor: FlavorChoice.optional(),
    /** Absent: keep the stored token. */
    token: z.string().min(1).max(10_000).optional(),
    /** Fresh addresses (N) at this server: `qa+{random}@myapp.test` or a domain; empty learns it from the mail. */
    addressPattern: z.string().trim().max(200).optional(),
    /**
     * The user asks to keep the token unencrypted where no keyring exists.
     * Only a request: main asks for consent in its own dialog.
     */
    allowPlaintextToken: z.boolean().optional(),
  })
  .strict();
export type AccountInput = z.infer<typeof AccountInputSchema>;

export const ConnectionTestSchema = z
  .object({
    baseUrl: z.string().trim().max(2000),
    teamId: z.string().trim().max(200).optional(),
    flavor: FlavorChoice.optional(),
    token: z.string().min(1).max(10_000).optional(),
    /** Test with the token already stored for this account. */
    accountId: Id.optional(),
  })
  .strict();

/** The argument each call takes, checked in main before anything runs. */
export const contract = {
  /** `fresh` skips main's short-lived page cache (an explicit refresh). */
  listEmails: ListQuerySchema.extend({ fresh: z.boolean().optional() }),
  /** The list the user looks at (null: none), and whether the window is visible: main polls it. */
  watchList: z.object({ query: ListQuerySchema.nullable(), visible: z.boolean() }).strict(),
  getEmail: z.object({ id: Id }).strict(),
  /** Clipped past 100 KB (clip.ts) unless `whole`. */
  /** `sourceLines`: each start tag of an HTML body carries the line it is on (source-lines.ts), for the accessibility check. */
  getEmailBody: z.object({ id: Id, format: z.enum(['html', 'text', 'raw']), whole: z.boolean().optional(), sourceLines: z.boolean().optional() }).strict(),
  /** The record (a first read marks it read) and its body in the format a reader wants first: one call per open. */
  openEmail: z.object({ id: Id }).strict(),
  /** `undoMs`: the DELETE waits this long for an undoDelete (main flushes it on quit). */
  deleteEmail: z.object({ id: Id, undoMs: z.number().int().min(0).max(60_000).optional() }).strict(),
  /** `id` is the email's or the rule's, or a delete-all's `through`. */
  undoDelete: z.object({ id: z.string().min(1).max(200), kind: z.enum(['email', 'automation', 'all']).optional() }).strict(),
  setFavorite: z.object({ id: Id, favorite: z.boolean() }).strict(),
  saveAttachment: z.object({ emailId: Id, attachmentId: Id }).strict(),
  saveRawMessage: z.object({ id: Id }).strict(),
  checkLinks: z.object({ id: Id }).strict(),
  /** The open email's HTML against caniemail.com's data (qa/compat.ts, in a worker thread). */
  checkCompatibility: z.object({ id: Id }).strict(),
  /** The email's raw message scored by the spamd the user named (SPAMC), SpamAssassin's rules and points. */
  checkSpam: z.object({ id: Id }).strict(),
  /**
   * axe-core on the email as the reader shows it, light and in a client's dark mode: each a whole
   * document the renderer built from the sanitized HTML, its elements carrying their source lines.
   */
  checkAccessibility: z.object({ id: Id, light: z.string().max(60_000_000), dark: z.string().max(60_000_000) }).strict(),
  /** The email of the same kind before this one (same sender, subject alike), or null. */
  previousOfKind: z.object({ id: Id }).strict(),
  /**
   * Two emails side by side: their text, headers, links and codes compared by main, and each shown
   * as the reader shows it (`documents`, sanitized, built by the renderer) rendered and diffed pixel by pixel.
   */
  compareEmails: z
    .object({
      id: Id,
      baseId: Id,
      documents: z.object({ base: z.string().max(60_000_000), current: z.string().max(60_000_000) }).strict().nullable(),
      width: z.number().int().min(200).max(2000),
    })
    .strict(),
  /** Prints the email as the reader shows it (`html`: its sanitized HTML, else its text), or saves it as PDF. */
  printEmail: z
    .object({ id: Id, html: z.string().max(60_000_000).nullable(), text: z.string().max(60_000_000).nullable(), remote: z.boolean(), pdf: z.boolean() })
    .strict(),
  /** The email's own inline images (cid:), as data: URLs. */
  getInlineImages: z.object({ id: Id }).strict(),
  /** The open account's first screen as it last stood (rows only), painted before the server answers. */
  getSnapshot: None,
  listAutomations: None,
  createAutomation: z.object({ input: AutomationBody }).strict(),
  updateAutomation: z.object({ id: Id, input: AutomationBody }).strict(),
  /** What a rule as drafted would post for one email: built as the service builds it. */
  automationPayload: z.object({ emailId: Id, input: AutomationBody }).strict(),
  /** Posts that payload to the rule's URL (http/https), on the user's word. */
  sendTestPayload: z.object({ emailId: Id, input: AutomationBody }).strict(),
  copyText: z.object({ text: z.string().max(2_000_000) }).strict(),
  /** The rule with unsaved changes (null: none), so quitting can ask first. */
  reportUnsaved: z.object({ title: z.string().max(300).nullable() }).strict(),
  deleteAutomation: z.object({ id: Id, undoMs: z.number().int().min(0).max(60_000).optional() }).strict(),
  getAccounts: None,
  saveAccount: AccountInputSchema,
  testConnection: ConnectionTestSchema,
  /** `id: null` goes back to the bundled demo. */
  switchAccount: z.object({ id: Id.nullable() }).strict(),
  removeAccount: z.object({ id: Id }).strict(),
  getSettings: None,
  updateSettings: SettingsPatchSchema,
  /** "This computer": its settings (and its AUTH user's password, which main seals and never sends back). */
  updateCatcher: z
    .object({
      enabled: z.boolean().optional(),
      host: z.string().min(1).max(255).optional(),
      port: z.number().int().min(1).max(65535).optional(),
      tlsPort: z.number().int().min(1).max(65535).nullable().optional(),
      auth: z.union([z.enum(['any', 'off']), z.object({ user: z.string().min(1).max(200) }).strict()]).optional(),
      password: z.string().min(1).max(500).optional(),
      requireAuth: z.boolean().optional(),
      keep: z.number().int().min(1).max(10_000_000).nullable().optional(),
      keepDays: z.number().int().min(1).max(36_500).nullable().optional(),
      addressPattern: z.string().min(3).max(200).optional(),
      apiPort: z.number().int().min(1).max(65535).nullable().optional(),
      maxRecipients: z.number().int().min(100).max(100_000).optional(),
    })
    .strict(),
  /**
   * Every email of the open account that arrived by now (main's clock, to the millisecond: the app's own
   * services share it): sent once the undo window has passed; mail arriving meanwhile stays.
   */
  deleteAllEmails: z.object({ undoMs: z.number().int().min(0).max(60_000).optional() }).strict(),
  openExternal: z.object({ url: z.string().max(8000) }).strict(),
  getAppInfo: None,
  /** The tester's loop: a fresh address at the open account's server, copied and watched (its first email opens, its code copied). */
  newAddress: None,
  stopWatch: z.object({ address: z.string().min(3).max(320) }).strict(),
  /** The newest email's code (else its main link) to the clipboard, as the global shortcut does. */
  copyNewestCode: None,
  /** This computer's API token to the clipboard, by main: the renderer never holds it. */
  copyCatcherToken: None,
  /** What This computer's SMTP answers "no" with (chaos.ts checks it again in main). */
  setChaos: z.object({ chaos: z.unknown() }).strict(),
  /** Release's relay (relay.ts checks it again in main); a password given is sealed there, never sent back. */
  updateRelay: z.object({ settings: z.unknown(), password: z.string().max(1000).optional() }).strict(),
  /** A caught email of This computer sent on to a real inbox: allowlisted recipients only, after main's consent. */
  releaseEmail: z.object({ id: Id, to: z.array(z.string().min(3).max(320)).min(1).max(50) }).strict(),
  getLoopState: None,
  /** Restart into a downloaded update: only ever on the user's word. */
  installUpdate: None,
  /** The keys the renderer's registry has for the menu's commands (the user's keymap): main shows them in the menu. */
  setMenuKeys: z.object({ keys: z.partialRecord(z.enum(MENU_COMMANDS), z.string().max(40).nullable()) }).strict(),
} as const satisfies Record<Method, z.ZodType>; // exactly the methods bridge-spec names

export interface AccountSummary {
  id: string;
  name: string;
  baseUrl: string;
  teamId: string;
  flavor: FlavorName;
  /** Fresh addresses (N) are made from this; empty: at the domain of the server's newest email. */
  addressPattern: string;
  /** The renderer learns only whether a token is stored, never the token. */
  hasToken: boolean;
  /** Where the token lives: never the token itself. */
  tokenStorage: 'encrypted' | 'plaintext' | 'session-only' | null;
  /** How the token travels: TLS, loopback, or in clear (http:// beyond this machine, by consent). */
  transport: 'encrypted' | 'loopback' | 'clear';
}

/** SpamAssassin's verdict on an email, as its spamd said it (server/spamc.ts). */
export interface SpamReport {
  isSpam: boolean;
  score: number;
  threshold: number;
  /** Each rule that fired, highest points first. */
  rules: { name: string; points: number; description: string }[];
}

/** One link or image of an email, as main found it when asked (server/link-check.ts). */
export interface LinkCheck {
  url: string;
  kind: 'link' | 'image';
  /** The link's text (images have none). */
  text: string;
  /** The last answer's status; 0 when there was none (error says why). */
  status: number;
  /** Each redirect followed, as "301 → where". */
  redirects: string[];
  finalUrl: string;
  ms: number;
  error?: string;
}

/** One HTML or CSS feature of an email that some major client lacks (caniemail.com's title for it). */
export interface CompatFinding {
  feature: string;
  /** Clients (caniemail's names, as "gmail.ios") without it, and with it only in part. */
  unsupported: string[];
  partial: string[];
  /** Clients caniemail.com has no data for on this feature: neither counted for nor against them. */
  noData: string[];
  /** Lines of the HTML source it is used on (the first few), and on how many lines in all. */
  lines: number[];
  occurrences: number;
  notes: string[];
}

/** A client family's support for the features some client lacks: 100 is all of them. */
export interface CompatFamily {
  family: string;
  label: string;
  clients: string[];
  score: number;
  unsupported: number;
  partial: number;
}

export interface CompatReport {
  clients: string[];
  findings: CompatFinding[];
  families: CompatFamily[];
}

/** One accessibility rule some elements of an email break (axe-core's rule, or one of ours for email). */
export interface AccessibilityFinding {
  rule: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  /** What the rule asks, in a sentence (axe's help text). */
  help: string;
  helpUrl: string;
  /** Where it shows: light, a client's dark mode (contrast differs), or both. */
  modes: ('light' | 'dark')[];
  /** Lines of the HTML source the elements are on (the first few), and how many elements in all. */
  lines: number[];
  occurrences: number;
  /** The first element, as the reader's document has it. */
  example: string;
}

export interface AccessibilityReport {
  findings: AccessibilityFinding[];
  /** The rules run. */
  rules: string[];
  /** Of a very long email, the first `checked` of its `total` elements are checked. */
  elements: { checked: number; total: number };
}

/** One side of a comparison of two emails. */
export interface CompareSide {
  id: string;
  subject: string;
  date: string;
  /** The rendering, half size, as the app serves it (shown/<id>.png, relative to the app's page; null: no HTML to render). */
  image: string | null;
}

export interface CompareReport {
  base: CompareSide;
  current: CompareSide;
  /** The text's changed lines with a little context, line by line: kept, added (in current), removed (from base), or a gap left out. */
  text: { kind: 'same' | 'added' | 'removed' | 'gap'; text: string }[];
  /** How many lines changed in all (the report carries the first few hundred). */
  changedLines: number;
  /** Said when the text was cut or too different to diff. */
  textNote: string | null;
  headers: { name: string; base: string | null; current: string | null }[];
  links: { added: string[]; removed: string[] };
  code: { base: string | null; current: string | null };
  /** The pixel diff: the share of pixels that differ, and the changed regions (px, in the current rendering). */
  pixels: { width: number; height: number; changed: number; total: number; regions: { x: number; y: number; width: number; height: number }[] } | null;
}

/** A webhook as the service would send it, for showing. */
export interface PayloadPreview {
  contentType: string;
  headers: Record<string, string>;
  /** The body as text for the eye (a raw message line by line in its parts' charsets), and its exact size. */
  bodyText: string;
  /** The body's exact bytes: what Copy as curl replays and the signature covers. */
  bodyBase64: string;
  bytes: number;
  /** Whether the rule matches this email (a payload is shown either way). */
  matches: boolean;
  /** False when the record is the client's normalised copy, not the server's bytes. */
  exact: boolean;
}

/** What "Test connection" found: the server's kind and where it really is. */
export interface ConnectionFound {
  ok: true;
  total: number;
  flavor: FlavorName;
  /** The address as Inbox Desk will use it (scheme added, /api… taken off). */
  baseUrl: string;
  teamId: string;
}

export interface AccountsState {
  accounts: AccountSummary[];
  activeId: string | null;
  /** True when the app shows the bundled demo service, not a real account. */
  demo: boolean;
  /** False where the OS has no keyring (e.g. Linux with basic_text). */
  encryptionAvailable: boolean;
  /** The settings file was damaged at start: a backup or the defaults were used. */
  settingsRecovered: boolean;
  /** "This computer", the catcher: its settings and whether it listens. */
  catcher: CatcherState;
}

export interface RateLimitState {
  limit: number | null;
  remaining: number | null;
  /** Epoch ms until which requests are held back after a 429. */
  blockedUntil: number | null;
}

export interface AppInfo {
  name: string;
  version: string;
  platform: string;
  demo: boolean;
}

export interface Results {
  /** `unknownAddress`: the filter names an inbox or sender with no mail yet (an empty page, not an error). */
  listEmails: EmailPage & { unknownAddress?: { field: 'inbox' | 'sender'; value: string } };
  watchList: null;
  getEmail: Email;
  getEmailBody: EmailBody;
  openEmail: { email: Email; body: EmailBody };
  deleteEmail: null;
  /** True when the delete was stopped in time. */
  undoDelete: { undone: boolean };
  setFavorite: null;
  saveAttachment: { savedTo: string | null };
  /** The raw message's exact bytes, saved as a .eml file where the user chose. */
  saveRawMessage: { savedTo: string | null };
  checkLinks: { links: LinkCheck[] };
  checkCompatibility: CompatReport;
  checkSpam: SpamReport;
  checkAccessibility: AccessibilityReport;
  previousOfKind: { id: string; subject: string; date: string } | null;
  compareEmails: CompareReport;
  printEmail: { printed: boolean; savedTo: string | null };
  /** Content-ID → data: URL. */
  getInlineImages: Record<string, string>;
  /** `at`: when the page was read from the server. */
  getSnapshot: { at: string; page: EmailPage } | null;
  listAutomations: Automation[];
  createAutomation: Automation;
  updateAutomation: Automation;
  deleteAutomation: null;
  automationPayload: PayloadPreview;
  sendTestPayload: { status: number; ms: number; responseStart: string; error?: string };
  copyText: null;
  reportUnsaved: null;
  getAccounts: AccountsState;
  saveAccount: AccountsState;
  testConnection: ConnectionFound;
  switchAccount: AccountsState;
  removeAccount: AccountsState;
  getSettings: Settings;
  updateSettings: Settings;
  updateCatcher: AccountsState;
  /** The moment it reaches to: what arrives after stays, on the server and on screen. */
  deleteAllEmails: { through: string };
  openExternal: null;
  getAppInfo: AppInfo;
  newAddress: { address: string; until: number };
  stopWatch: LoopState;
  copyNewestCode: { copied: { kind: 'code' | 'link'; text: string } | null };
  copyCatcherToken: { copied: boolean };
  setChaos: AccountsState;
  updateRelay: AccountsState;
  /** The relay's answer in one sentence (sent, or why not). */
  releaseEmail: { ok: boolean; message: string };
  getLoopState: LoopState;
  installUpdate: null;
  setMenuKeys: null;
}

export type Args = { [M in Method]: z.input<(typeof contract)[M]> };
export type ParsedArgs = { [M in Method]: z.output<(typeof contract)[M]> };

/** Events main pushes to the renderer. */
export interface Events {
  accountsChanged: AccountsState;
  rateLimit: RateLimitState;
  menuCommand: MenuCommand;
  updateStatus: UpdateStatus;
  /** A deferred delete failed when it was finally sent: the email (or rule) is back. */
  deleteFailed: { id: string; error: BridgeError; kind?: 'email' | 'automation' | 'all' };
  /** A deferred delete the server took: the screen stops holding it (and never before: a DELETE that hangs keeps its row hidden). */
  deleteSettled: { id: string; kind: 'email' | 'automation' | 'all' };
  /** Page 1 of the watched list, polled by main: new mail slides in from here. */
  listPolled: { query: ListQuery; page: Results['listEmails'] };
  /** The tester's loop: open watches, the newest code, the global shortcut. */
  loopChanged: LoopState;
  /** The first email to a watched address: the renderer opens it; its code or link is on the clipboard. */
  watchCaught: WatchCaught;
}


/**
 * What preload puts on `window.api`: one function per method answering an
 * envelope, and `on`, whose every subscription returns its own unsubscribe.
 */
export type WindowApi = {
  [M in Method]: (arg: Args[M]) => Promise<Envelope<Results[M]>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
};

export type { BodyFormat, UpdateStatus };
