/**
 * The app's state: one zustand store made of feature slices. `createAppStore`
 * takes the effects (bridge, confirm, storage, clock), so a Node test can build
 * the very store the app runs on fakes; `useStore` is the app's own, on the browser's.
 */
import { useStore as useZustandStore } from 'zustand';
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import type { BridgeError } from '../../shared/contract.ts';
import { asBridgeError } from './bridge.ts';
import { browserEffects, type Effects } from './effects.ts';
import { createAutomationsSlice, type AutomationsSlice } from './features/automations/slice.ts';
import { createInboxSlice, type InboxSlice } from './features/inbox/slice.ts';
import { createLoopSlice, type LoopSlice } from './features/loop/slice.ts';
import { createMessageSlice, type MessageSlice } from './features/message/slice.ts';
import { createQaSlice, type QaSlice } from './features/qa/slice.ts';
import { createSettingsSlice, type SettingsSlice } from './features/settings/slice.ts';
import type { Notice, Notify } from './notices.ts';
import { OUTAGE_KINDS, outageDelayMs, type Outage } from './outage.ts';

export type View = 'inbox' | 'automations' | 'settings';

export interface UiSlice {
  view: View;
  notices: Notice[];
  shortcutsOpen: boolean;
  paletteOpen: boolean;
  /** The server cannot be reached (or asks to wait): one banner, one countdown. */
  outage: Outage | null;
  /** Reports a connection failure; every `retry` reported (one per `key`) runs when the wait is over. */
  reportOutage: (error: BridgeError, key: string, retry: () => void) => void;
  /** A request went through: the outage is over. */
  clearOutage: () => void;
  /**
   * A failed request, told the one way: a cancellation (a newer request took its place) is
   * nothing, a connection failure goes to the outage banner and `retry` runs when it is over.
   * Returns the error the caller shows in place, or null when there is nothing to show.
   */
  failed: (error: unknown, key: string, retry: () => void) => BridgeError | null;
  setView: (view: View) => void;
  notify: Notify;
  dismiss: (id: number) => void;
  toggleShortcuts: (open?: boolean) => void;
  /** Asks the user first when settings say so: whether to go ahead with a delete. */
  confirmDelete: (question: string) => boolean;
  /** What a part of the window could not render (ErrorBoundary), newest last, the last 20. */
  problems: { area: string; message: string; at: number }[];
  recordProblem: (area: string, error: unknown, componentStack: string) => void;
}

export type AppState = InboxSlice & MessageSlice & QaSlice & LoopSlice & AutomationsSlice & SettingsSlice & UiSlice;

/** A slice of the store, given the effects it may use. */
export type Slice<T> = (effects: Effects) => StateCreator<AppState, [], [], T>;

const createUiSlice: Slice<UiSlice> = (effects) => (set, get) => {
  const { clock } = effects;
  let noticeId = 0;
  let outageTimer: unknown;
  const outageRetries = new Map<string, () => void>();
  return {
    view: 'inbox',
    notices: [],
    shortcutsOpen: false,
    paletteOpen: false,
    outage: null,
    reportOutage: (error, key, retry) => {
      outageRetries.set(key, retry);
      // Failures during one wait share it: the countdown does not restart for each.
      if (get().outage && clock.now() < get().outage!.retryAt) return;
      const attempt = (get().outage?.attempt ?? 0) + 1;
      const delay = outageDelayMs(attempt, error.details.retryAfterSeconds);
      clock.clearTimeout(outageTimer);
      set({ outage: { error, retryAt: clock.now() + delay, attempt } });
      outageTimer = clock.setTimeout(() => {
        const retries = [...outageRetries.values()];
        outageRetries.clear();
        for (const run of retries) run();
      }, delay);
    },
    clearOutage: () => {
      if (get().outage === null) return;
      clock.clearTimeout(outageTimer);
      // What failed during the outage is asked again now that the server answers.
      const retries = [...outageRetries.values()];
      outageRetries.clear();
      set({ outage: null });
      for (const run of retries) run();
    },
    failed: (error, key, retry) => {
      const bridgeError = asBridgeError(error);
      if (bridgeError.kind === 'cancelled') return null;
      if (!OUTAGE_KINDS.has(bridgeError.kind)) return bridgeError;
      get().reportOutage(bridgeError, key, retry);
      return null;
    },
    setView: (view) => {
      // Leaving the rule being edited with unsaved changes asks first.
      const go = () => {
        set({ view });
        if (view === 'automations' && get().automations === null) void get().loadAutomations();
      };
      if (get().view === 'automations' && view !== 'automations') get().guardDraft(go);
      else go();
    },
    notify: (what, options = {}) => {
      const error = typeof what === 'string' ? null : what;
      const tone = options.tone ?? (error ? 'error' : 'info');
      // A connection failure is already told by the one outage banner.
      if (tone === 'error' && error && OUTAGE_KINDS.has(error.kind) && get().outage !== null) return 0;
      const notice: Notice = { id: ++noticeId, tone, text: error ? error.message : (what as string), ...(options.action ? { action: options.action } : {}) };
      // One message per failure: the same text is not stacked twice.
      set({ notices: [...get().notices.filter((n) => n.text !== notice.text).slice(-3), notice] });
      clock.setTimeout(() => get().dismiss(notice.id), options.ms ?? (tone === 'error' ? 8000 : 3000));
      return notice.id;
    },
    dismiss: (id) => set({ notices: get().notices.filter((n) => n.id !== id) }),
    toggleShortcuts: (open) => set({ shortcutsOpen: open ?? !get().shortcutsOpen }),
    confirmDelete: (question) => !get().settings.confirmDelete || effects.confirm(question),
    problems: [],
    recordProblem: (area, error, componentStack) => {
      const message = error instanceof Error ? error.message : String(error);
      // For whoever reports the bug: the developer tools' console keeps the stack.
      console.error(`[inbox-desk] ${area} could not render: ${message}${componentStack}`);
      set({ problems: [...get().problems, { area, message, at: clock.now() }].slice(-20) });
    },
  };
};

/** The whole store, on the given effects. */
export function createAppStore(effects: Effects): StoreApi<AppState> {
  return createStore<AppState>()((...args) => ({
    ...createInboxSlice(effects)(...args),
    ...createMessageSlice(effects)(...args),
    ...createQaSlice(effects)(...args),
    ...createLoopSlice(effects)(...args),
    ...createAutomationsSlice(effects)(...args),
    ...createSettingsSlice(effects)(...args),
    ...createUiSlice(effects)(...args),
  }));
}

const appStore = createAppStore(browserEffects());

/** The app's store as a React hook (with getState, setState and subscribe, as zustand's `create` gives). */
export const useStore = Object.assign(<T>(selector: (state: AppState) => T): T => useZustandStore(appStore, selector), appStore);
