import { create, type StateCreator } from 'zustand';
import type { BridgeError } from '../../shared/contract.ts';
import { createAutomationsSlice, type AutomationsSlice } from './features/automations/slice.ts';
import { createInboxSlice, type InboxSlice } from './features/inbox/slice.ts';
import { createMessageSlice, preferredFormat, type MessageSlice } from './features/message/slice.ts';
import { createSettingsSlice, type SettingsSlice } from './features/settings/slice.ts';
import { canPrefetch } from '../../shared/domain/rate-budget.ts';
import { call } from './bridge.ts';

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
  setView: (view: View) => void;
  notify: (error: BridgeError, tone?: Notice['tone'], options?: { action?: Notice['action']; ms?: number }) => number;
  dismiss: (id: number) => void;
  toggleShortcuts: (open?: boolean) => void;
  prefetchNext: () => void;
}

export type AppState = InboxSlice & MessageSlice & AutomationsSlice & SettingsSlice & UiSlice;

let noticeId = 0;

const createUiSlice: StateCreator<AppState, [], [], UiSlice> = (set, get) => ({
  view: 'inbox',
  notices: [],
  shortcutsOpen: false,
  paletteOpen: false,
  setView: (view) => {
    set({ view });
    if (view === 'automations' && get().automations === null) void get().loadAutomations();
  },
  notify: (error, tone = 'error', options = {}) => {
    const notice: Notice = { id: ++noticeId, tone, text: error.message, ...(options.action ? { action: options.action } : {}) };
    // One message per failure: the same text is not stacked twice.
    set({ notices: [...get().notices.filter((n) => n.text !== notice.text).slice(-3), notice] });
    setTimeout(() => get().dismiss(notice.id), options.ms ?? (tone === 'error' ? 8000 : 3000));
    return notice.id;
  },
  dismiss: (id) => set({ notices: get().notices.filter((n) => n.id !== id) }),
  toggleShortcuts: (open) => set({ shortcutsOpen: open ?? !get().shortcutsOpen }),
  /** Warms main's cache with the next email's body, only while the rate budget allows. */
  prefetchNext: () => {
    const { list, openId, rateLimit } = get();
    if (!canPrefetch(rateLimit)) return;
    const ids = list?.data ?? [];
    const next = ids[ids.findIndex((e) => e.id === openId) + 1];
    if (next) void call('getEmailBody', { id: next.id, format: preferredFormat(next) }).catch(() => undefined);
  },
});

export const useStore = create<AppState>()((...args) => ({
  ...createInboxSlice(...args),
  ...createMessageSlice(...args),
  ...createAutomationsSlice(...args),
  ...createSettingsSlice(...args),
  ...createUiSlice(...args),
}));
