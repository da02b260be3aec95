import type { StateCreator } from 'zustand';
import type { BridgeError } from '../../../../shared/contract.ts';
import {
  validateAutomationInput,
  type Automation,
  type FieldErrors,
  type PayloadFormat,
} from '../../../../shared/domain/automation.ts';
import { asBridgeError, call } from '../../bridge.ts';
import type { AppState } from '../../store.ts';
import { activeFlavor } from '../settings/slice.ts';

/** What the form holds: strings and booleans exactly as typed. */
export interface AutomationDraft {
  title: string;
  sender: string;
  inbox: string;
  subject: string;
  has_attachments: boolean;
  action_url: string;
  action_email: string;
  action_secret_token: string;
  action_delete_email: boolean;
  payload_format: PayloadFormat;
}

export const EMPTY_DRAFT: AutomationDraft = {
  title: '',
  sender: '',
  inbox: '',
  subject: '',
  has_attachments: false,
  action_url: '',
  action_email: '',
  action_secret_token: '',
  action_delete_email: false,
  payload_format: 'json',
};

export function draftFrom(automation: Automation): AutomationDraft {
  return {
    title: automation.title,
    sender: automation.sender ?? '',
    inbox: automation.inbox ?? '',
    subject: automation.subject ?? '',
    has_attachments: automation.has_attachments,
    action_url: automation.action_url ?? '',
    action_email: automation.action_email ?? '',
    action_secret_token: automation.action_secret_token ?? '',
    action_delete_email: automation.action_delete_email,
    payload_format: automation.payload_format,
  };
}

export interface AutomationsSlice {
  automations: Automation[] | null;
  automationsError: BridgeError | null;
  /** null: nothing open; 'new': a new automation; else the id being edited. */
  editingId: string | null;
  draft: AutomationDraft;
  fieldErrors: FieldErrors;
  saveError: BridgeError | null;
  saving: boolean;
  loadAutomations: () => Promise<void>;
  editAutomation: (id: string | 'new') => void;
  changeDraft: (patch: Partial<AutomationDraft>) => void;
  saveDraft: () => Promise<void>;
  cancelEdit: () => void;
  removeAutomation: (id: string) => Promise<void>;
}

export const createAutomationsSlice: StateCreator<AppState, [], [], AutomationsSlice> = (set, get) => ({
  automations: null,
  automationsError: null,
  editingId: null,
  draft: EMPTY_DRAFT,
  fieldErrors: {},
  saveError: null,
  saving: false,

  loadAutomations: async () => {
    try {
      set({ automations: await call('listAutomations', undefined), automationsError: null });
    } catch (error) {
      set({ automationsError: asBridgeError(error) });
    }
  },

  editAutomation: (id) => {
    const existing = get().automations?.find((a) => a.id === id);
    set({ editingId: id, draft: existing ? draftFrom(existing) : EMPTY_DRAFT, fieldErrors: {}, saveError: null });
  },

  changeDraft: (patch) => {
    const fieldErrors = { ...get().fieldErrors };
    for (const key of Object.keys(patch)) delete fieldErrors[key];
    set({ draft: { ...get().draft, ...patch }, fieldErrors });
  },

  saveDraft: async () => {
    const { draft, editingId } = get();
    if (!editingId || get().saving) return;
    // The same rules main and the service apply, checked before anything is sent.
    const checked = validateAutomationInput(draft, activeFlavor(get().accounts));
    if (!checked.ok) {
      set({ fieldErrors: checked.errors, saveError: null });
      return;
    }
    set({ saving: true, saveError: null });
    try {
      const saved =
        editingId === 'new'
          ? await call('createAutomation', { input: checked.value })
          : await call('updateAutomation', { id: editingId, input: checked.value });
      const list = get().automations ?? [];
      const exists = list.some((a) => a.id === saved.id);
      set({
        automations: exists ? list.map((a) => (a.id === saved.id ? saved : a)) : [...list, saved],
        saving: false,
        editingId: null,
        draft: EMPTY_DRAFT,
      });
      get().notify({ kind: 'not-found', message: `Saved "${saved.title}".`, details: {} }, 'info');
    } catch (error) {
      const bridgeError = asBridgeError(error);
      // The draft stays exactly as typed; the server's field errors land on the fields.
      set({ saving: false, saveError: bridgeError, fieldErrors: bridgeError.details.fields ?? {} });
    }
  },

  cancelEdit: () => set({ editingId: null, draft: EMPTY_DRAFT, fieldErrors: {}, saveError: null }),

  removeAutomation: async (id) => {
    try {
      await call('deleteAutomation', { id });
      set({ automations: (get().automations ?? []).filter((a) => a.id !== id) });
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },
});
