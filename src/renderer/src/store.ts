import { create, type StateCreator } from 'zustand';
import type { BridgeError } from '../../shared/contract.ts';
import { createAutomationsSlice, type AutomationsSlice } from './features/automations/slice.ts';
import { createInboxSlice, type InboxSlice } from './features/inbox/slice.ts';
import { preferredFormat } from '../../shared/domain/email.ts';
import { presanitize } from './features/message/sanitize.ts';
import { createMessageSlice, isPrepared, keepPrepared, type MessageSlice } from './features/message/slice.ts';
import { createSettingsSlice, type SettingsSlice } from './features/settings/slice.ts';
import { canPrefetch } from '../../shared/domain/rate-budget.ts';
import { call } from './bridge.ts';
import { OUTAGE_KINDS, outageDelayMs, type Outage } from './outage.ts';

export type View = 'inbox' | 'automations' | 'settings';

export interface Notice {
  id: number;
  tone: 'error' | 'info';
  text: string;
  /** A button on the notice, such as Undo. */
  action?: { label: string; run: () => void };
}

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
  setView: (view: View) => void;
  notify: (error: BridgeError, tone?: Notice['tone'], options?: { action?: Notice['action']; ms?: number }) => number;
  dismiss: (id: number) => void;
  toggleShortcuts: (open?: boolean) => void;
  prefetchNext: () => void;
}

export type AppState = InboxSlice & MessageSlice & AutomationsSlice & SettingsSlice & UiSlice;

let noticeId = 0;
let outageTimer: ReturnType<typeof setTimeout> | undefined;
const outageRetries = new Map<string, () => void>();

const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set, get) => ({
  view: 'inbox',
  notices: [],
  shortcutsOpen: false,
  paletteOpen: false,
  outage: null,
  reportOutage: (error, key, retry) => {
    outageRetries.set(key, retry);
    // Failures during one wait share it: the countdown does not restart for each.
    if (get().outage && Date.now() < get().outage!.retryAt) return;
    const attempt = (get().outage?.attempt ?? 0) + 1;
    const delay = outageDelayMs(attempt, error.details.retryAfterSeconds);
    clearTimeout(outageTimer);
    set({ outage: { error, retryAt: Date.now() + delay, attempt } });
    outageTimer = setTimeout(() => {
      const retries = [...outageRetries.values()];
      outageRetries.clear();
      for (const run of retries) run();
    }, delay);
  },
  clearOutage: () => {
    if (get().outage === null) return;
    clearTimeout(outageTimer);
    // What failed during the outage is asked again now that the server answers.
    const retries = [...outageRetries.values()];
    outageRetries.clear();
    set({ outage: null });
    for (const run of retries) run();
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
  notify: (error, tone = 'error', options = {}) => {
    // A connection failure is already told by the one outage banner.
    if (tone === 'error' && OUTAGE_KINDS.has(error.kind) && get().outage !== null) return 0;
    const notice: Notice = { id: ++noticeId, tone, text: error.message, ...(options.action ? { action: options.action } : {}) };
    // One message per failure: the same text is not stacked twice.
    set({ notices: [...get().notices.filter((n) => n.text !== notice.text).slice(-3), notice] });
    setTimeout(() => get().dismiss(notice.id), options.ms ?? (tone === 'error' ? 8000 : 3000));
    return notice.id;
  },
  dismiss: (id) => set({ notices: get().notices.filter((n) => n.id !== id) }),
  toggleShortcuts: (open) => set({ shortcutsOpen: open ?? !get().shortcutsOpen }),
  /**
   * Fetches the bodies of the emails either side of the open one, and sanitizes
   * their HTML while the app is idle, so j or k opens them in one update.
   * Only while the rate budget allows.
   */
  prefetchNext: () => {
    const { list, openId, rateLimit } = get();
    if (!canPrefetch(rateLimit)) return;
    const rows = list?.data ?? [];
    const at = rows.findIndex((e) => e.id === openId);
    for (const neighbour of [rows[at + 1], rows[at - 1]]) {
      if (!neighbour || isPrepared(neighbour.id)) continue;
      void call('getEmailBody', { id: neighbour.id, format: preferredFormat(neighbour) }).then(
        (body) => {
          keepPrepared(neighbour.id, body);
          if (body.format === 'html') presanitize(body.content);
        },
        () => undefined,
      );
    }
  },
});

export const useStore = create<AppState>()((...args) => ({
  ...createInboxSlice(...args),
  ...createMessageSlice(...args),
  ...createAutomationsSlice(...args),
  ...createSettingsSlice(...args),
  ...createUiSlice(...args),
}));
