/**
 * Everything the store does to the world outside it: main's bridge, a yes/no
 * question, the window's storage, the clock, and the idle-time HTML preparation.
 * The app passes the browser's; a Node test passes fakes and drives the very
 * same slices (test/unit/renderer/store-*.test.ts).
 */
import type { Args, Method, Results } from '../../shared/contract.ts';
import { call } from './bridge.ts';
import type { SanitizeOptions } from './features/message/sanitize.ts';

// The sanitizer (DOMPurify, the entity tables) loads with the reader, not with the first screen.
const sanitizer = () => import('./features/message/sanitize.ts');

export interface Clock {
  now: () => number;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface Effects {
  /** One bridge call; rejects with a BridgeFailure. */
  call: <M extends Method>(method: M, arg: Args[M]) => Promise<Results[M]>;
  /** A yes/no question the user answers before something destructive. */
  confirm: (question: string) => boolean;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  clock: Clock;
  /** Whether the window can be seen (polling slows down when it cannot). */
  visible: () => boolean;
  /** Sanitizes an HTML body ahead, while the app is idle, so opening it is one update. */
  prepareHtml: (html: string) => void;
  /** An HTML body as the reader shows it (sanitized; remote content as allowed); null when it is too complex to show. */
  sanitizeHtml: (html: string, options: SanitizeOptions) => Promise<string | null>;
}

/** The running app's effects: window.api, window.confirm, localStorage, the real clock. */
export function browserEffects(): Effects {
  return {
    call,
    confirm: (question) => window.confirm(question),
    storage: {
      getItem: (key) => localStorage.getItem(key),
      setItem: (key, value) => localStorage.setItem(key, value),
      removeItem: (key) => localStorage.removeItem(key),
    },
    clock: {
      now: () => Date.now(),
      setTimeout: (run, ms) => setTimeout(run, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    visible: () => document.visibilityState !== 'hidden',
    prepareHtml: (html) => void sanitizer().then(({ presanitize }) => presanitize(html)),
    sanitizeHtml: async (html, options) => {
      const outcome = await (await sanitizer()).sanitizeInSlicesCached(html, options);
      return outcome.ok ? outcome.html : null;
    },
  };
}
