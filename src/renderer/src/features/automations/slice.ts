import type { BridgeError, PayloadPreview } from '../../../../shared/contract.ts';
import {
  PATTERN_LIMIT,
  TITLE_MAX,
  validateAutomationInput,
  type Automation,
  type AutomationInput,
  type FieldErrors,
  type PayloadFormat,
} from '../../../../shared/domain/automation.ts';
import type { Email } from '../../../../shared/domain/email.ts';
import { FLAVOR_RECORDS } from '../../../../shared/flavors/index.ts';
import { canPrefetch } from '../../../../shared/domain/rate-budget.ts';
import { asBridgeError } from '../../bridge.ts';
import type { Effects } from '../../effects.ts';
import type { AppState, Slice } from '../../store.ts';
import { nextSelection } from '../list-cursor.ts';
import { activeFlavor } from '../settings/slice.ts';
import { undoableRemoval } from '../undoable-removal.ts';

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
  /** The draft as it was when editing began: what "unsaved changes" is measured against. */
  draftOrigin: AutomationDraft | null;
  /** Leaving a changed draft: the question on screen, and what to do after it. */
  leaveGuard: { title: string; proceed: () => void } | null;
  /** Runs `proceed` now, or after asking when the draft has unsaved changes. */
  guardDraft: (proceed: () => void) => void;
  resolveGuard: (choice: 'save' | 'discard' | 'keep') => Promise<void>;
  /** Deletes with Undo (z, 5 s; undoable-removal.ts): the rule leaves the list now, the server after the window. */
  removeAutomation: (id: string) => Promise<void>;
  /** Asks first when settings say so, then deletes the rule. */
  askRemoveAutomation: (id: string) => void;
  /** Undoes the newest rule delete still in its window. */
  undoRemoveAutomation: () => Promise<void>;
  /** A rule's DELETE failed once sent: it comes back, and an unsupported delete hides the buttons. */
  restoreRule: (id: string, error: BridgeError) => void;
  /** Main sent a rule's waiting DELETE and the server took it. */
  ruleDeleteSettled: (id: string) => void;
  /** The rule under the keyboard cursor in the list. */
  selectedAutomationId: string | null;
  moveAutomationSelection: (delta: number) => void;
  /** Typed into the list's filter (/). */
  automationFilter: string;
  /** Recent mail to try a rule on: the pages already loaded plus up to 200 more. */
  previewPool: Email[] | null;
  loadPreviewPool: () => Promise<void>;
  /** How much of the pool the rule being edited catches (for the delete-everything warning). */
  previewCount: { matches: number; total: number } | null;
  /** Operations this server turned out not to have (405/501): their buttons go. */
  automationsLack: { create?: boolean; delete?: boolean };
  /** Emails to preview the payload for: the matches first. */
  previewMatches: { id: string; subject: string }[];
  /** A new rule prefilled from an email: its sender, inbox and subject. */
  ruleFromEmail: (email: Email) => void;
  /** The exact body and headers the service would post for this rule and email (main builds them). */
  previewPayload: (emailId: string, input: Required<AutomationInput>) => Promise<PayloadPreview>;
  /** Posts the payload to the rule's URL from main; answers what happened, in words. */
  sendTestPayload: (emailId: string, input: Required<AutomationInput>) => Promise<string>;
  /** Puts text on the system clipboard (main's). */
  copyText: (text: string) => Promise<void>;
}

const PREVIEW_MAX = 200;
const DRAFT_KEY = 'inbox-desk:rule-draft';

const accountKey = (accounts: AppState['accounts']) => accounts?.activeId ?? 'demo';

/** Two drafts say the same thing. Pure. */
export function sameDraft(a: AutomationDraft, b: AutomationDraft): boolean {
  return (Object.keys(a) as (keyof AutomationDraft)[]).every((key) => a[key] === b[key]);
}

/**
 * What is kept on disk of a draft, so that a crash or a quit loses none of it:
 * every field but the webhook secret, which localStorage would hold in clear.
 * Of the secret, only whether it was changed is kept; it is asked for again.
 */
interface KeptDraft {
  account: string;
  editingId: string;
  draft: Omit<AutomationDraft, 'action_secret_token'>;
  secretChanged: boolean;
}

function keepDraft(storage: Effects['storage'], account: string, editingId: string | null, draft: AutomationDraft, origin: AutomationDraft | null): void {
  if (editingId === null) return;
  const { action_secret_token: secret, ...rest } = draft;
  const kept: KeptDraft = { account, editingId, draft: rest, secretChanged: secret !== (origin?.action_secret_token ?? '') };
  try {
    storage.setItem(DRAFT_KEY, JSON.stringify(kept));
  } catch {
    // No storage: the draft lives as long as the window.
  }
}

function keptDraft(storage: Effects['storage'], account: string): Omit<KeptDraft, 'account'> | null {
  try {
    const kept = JSON.parse(storage.getItem(DRAFT_KEY) ?? 'null') as KeptDraft | null;
    if (!kept || kept.account !== account || typeof kept.editingId !== 'string') return null;
    // A draft kept by an older version may still hold a secret: it is not taken from there.
    const { action_secret_token: _dropped, ...draft } = { ...EMPTY_DRAFT, ...kept.draft } as AutomationDraft;
    return { editingId: kept.editingId, draft, secretChanged: kept.secretChanged === true || Boolean(_dropped) };
  } catch {
    return null;
  }
}

/** The rules the list shows for its filter: title, criteria and actions are searched. Pure. */
export function visibleAutomations(automations: Automation[] | null, filter: string): Automation[] {
  const needle = filter.trim().toLowerCase();
  if (!automations) return [];
  if (!needle) return automations;
  return automations.filter((a) =>
    [a.title, a.sender, a.inbox, a.subject, a.action_url, a.action_email].some((v) => v?.toLowerCase().includes(needle)),
  );
}

/** Cuts fall between what a reader sees as characters, never inside one (a letter and its accent, an emoji). */
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The first whole characters of `text` whose `shown` form fits in `room` code units. */
function startWithin(text: string, room: number, shown: (char: string) => string = (char) => char): string {
  let kept = '';
  for (const { segment } of graphemes.segment(text)) {
    const next = shown(segment);
    if (kept.length + next.length > room) break;
    kept += next;
  }
  return kept;
}

/**
 * The text as a pattern the form accepts: matched whole, every metacharacter escaped (and #, MailCare's
 * delimiter); a text too long for the service's limit is matched by its start, cut between whole characters. Pure.
 */
export function exactPattern(text: string, limit = PATTERN_LIMIT): string {
  const escape = (part: string) => part.replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');
  const whole = `^${escape(text)}$`;
  return whole.length <= limit ? whole : `^${startWithin(text, limit - 1, escape)}`;
}

/** "From <name>", within the title's limit (a sender's name may be any length). Pure. */
export function titleFrom(name: string): string {
  const title = `From ${name}`;
  return title.length <= TITLE_MAX ? title : `${startWithin(title, TITLE_MAX - 1)}…`;
}

export const createAutomationsSlice: Slice<AutomationsSlice> = (effects) => (set, get) => {
  const { call, storage } = effects;
  let reported: string | null = null;
  /** Tells main whether a rule has unsaved changes (only when that changes). */
  const reportUnsaved = (state: Pick<AutomationsSlice, 'editingId' | 'draft' | 'draftOrigin'>): void => {
    const dirty = state.editingId !== null && state.draftOrigin !== null && !sameDraft(state.draft, state.draftOrigin);
    const title = dirty ? state.draft.title.trim() || 'A new rule' : null;
    if (title === reported) return;
    reported = title;
    void call('reportUnsaved', { title }).catch(() => undefined);
  };
  const forgetDraft = (): void => {
    try {
      storage.removeItem(DRAFT_KEY);
    } catch {
      // Nothing kept.
    }
    reported = null;
    void call('reportUnsaved', { title: null }).catch(() => undefined);
  };
  /** A rule DELETE that failed: an unsupported one hides the delete buttons and says so plainly. */
  const explain = (error: BridgeError): BridgeError => {
    if (error.kind !== 'unsupported') return error;
    set({ automationsLack: { ...get().automationsLack, delete: true } });
    return { ...error, message: 'This server does not offer deleting rules; the rule is still there.' };
  };
  const removal = undoableRemoval<Automation>(effects, {
    kind: 'automation',
    noun: { one: 'rule', many: 'rules' },
    items: () => get().automations ?? [],
    show: (automations) => set({ automations }),
    restored: ({ item }) => set({ selectedAutomationId: item.id }),
    notify: (what, options) => get().notify(typeof what === 'string' ? what : explain(what), options),
    dismiss: (id) => get().dismiss(id),
    failed: (automation, error) => {
      const said = explain(error);
      if (said !== error) return { text: said.message, again: null };
      return { text: `The rule “${automation.title}” was not deleted: ${error.message}`, again: `Deleted the rule “${automation.title}” again.` };
    },
  });
  return {
    automations: null,
    automationsError: null,
    editingId: null,
    draft: EMPTY_DRAFT,
    fieldErrors: {},
    saveError: null,
    saving: false,
    previewPool: null,
    previewCount: null,
    previewMatches: [],
    automationsLack: {},
    selectedAutomationId: null,
    automationFilter: '',

    moveAutomationSelection: (delta) => {
      const ids = visibleAutomations(get().automations, get().automationFilter).map((a) => a.id);
      const next = nextSelection(ids, get().selectedAutomationId, delta);
      if (next !== null) set({ selectedAutomationId: next });
    },

    restoreRule: (id, error) => {
      if (removal.restore(id, error)) return;
      // Not waiting here any more (the window closed): the list is asked again.
      void get().loadAutomations();
      get().notify(explain(error));
    },

    ruleDeleteSettled: (id) => removal.settle(id),

    undoRemoveAutomation: () => removal.undo(),

    loadPreviewPool: async () => {
      const seen = new Map<string, Email>();
      for (const email of get().list?.data ?? []) seen.set(email.id, email);
      set({ previewPool: [...seen.values()] });
      // More only while the rate budget allows: the preview never costs the user a 429.
      for (const page of [1, 2]) {
        if (seen.size >= PREVIEW_MAX || !canPrefetch(get().rateLimit)) break;
        try {
          const more = await call('listEmails', { page, limit: 100 });
          for (const email of more.data) seen.set(email.id, email);
          set({ previewPool: [...seen.values()].slice(0, PREVIEW_MAX) });
          if (more.meta.current_page >= more.meta.last_page) break;
        } catch {
          break;
        }
      }
    },

    previewPayload: (emailId, input) => call('automationPayload', { emailId, input }),
    sendTestPayload: async (emailId, input) => {
      try {
        const result = await call('sendTestPayload', { emailId, input });
        return result.error
          ? `Test not delivered: ${result.error}`
          : `Test sent: ${result.status} in ${result.ms} ms${result.responseStart ? ` — “${result.responseStart.slice(0, 120)}”` : ''}`;
      } catch (error) {
        return asBridgeError(error).message;
      }
    },
    copyText: async (text) => {
      try {
        await call('copyText', { text });
      } catch (error) {
        get().notify(asBridgeError(error));
      }
    },

    ruleFromEmail: (email) => {
      const regexAddresses = FLAVOR_RECORDS[activeFlavor(get().accounts)].addressCriteria === 'regex';
      get().setView('automations');
      set({
        draftOrigin: EMPTY_DRAFT,
        editingId: 'new',
        draft: {
          ...EMPTY_DRAFT,
          title: titleFrom(email.sender.display_name || email.sender.email),
          sender: regexAddresses ? exactPattern(email.sender.email) : email.sender.email,
          inbox: regexAddresses ? exactPattern(email.inbox.email) : email.inbox.email,
          subject: email.subject ? exactPattern(email.subject) : '',
          action_url: '',
        },
        fieldErrors: {},
        saveError: null,
      });
    },

    loadAutomations: async () => {
      try {
        const automations = await call('listAutomations', undefined);
        set({ automations, automationsError: null });
        // A draft left unsaved (a quit, a crash) comes back where it was.
        const kept = keptDraft(storage, accountKey(get().accounts));
        if (kept && get().editingId === null) {
          const existing = automations.find((a) => a.id === kept.editingId);
          if (kept.editingId === 'new' || existing) {
            const origin = existing ? draftFrom(existing) : EMPTY_DRAFT;
            // The secret as the rule has it; one typed into the draft was not kept, and is asked for again.
            set({
              editingId: kept.editingId,
              draft: { ...kept.draft, action_secret_token: origin.action_secret_token },
              draftOrigin: origin,
              fieldErrors: kept.secretChanged ? { action_secret_token: ['Type the new secret again: secrets are not kept on disk.'] } : {},
            });
            const title = kept.draft.title || 'a new rule';
            get().notify(
              kept.secretChanged
                ? `Your unsaved changes to “${title}” are back, but for the webhook secret you typed: secrets are not kept on disk, so type it again.`
                : `Your unsaved changes to “${title}” are back.`,
            );
            // Written again as this version keeps it: an older version's copy may hold the secret itself.
            keepDraft(storage, accountKey(get().accounts), kept.editingId, get().draft, origin);
          }
        }
      } catch (error) {
        set({ automationsError: asBridgeError(error) });
      }
    },

    editAutomation: (id) => {
      if (get().editingId === id) return;
      get().guardDraft(() => {
        const existing = get().automations?.find((a) => a.id === id);
        const draft = existing ? draftFrom(existing) : EMPTY_DRAFT;
        set({ editingId: id, draft, draftOrigin: draft, fieldErrors: {}, saveError: null });
        forgetDraft();
      });
    },

    changeDraft: (patch) => {
      const fieldErrors = { ...get().fieldErrors };
      for (const key of Object.keys(patch)) delete fieldErrors[key];
      set({ draft: { ...get().draft, ...patch }, fieldErrors });
      // Kept on disk as typed, so neither a crash nor a quit loses it; main asks before closing.
      keepDraft(storage, accountKey(get().accounts), get().editingId, get().draft, get().draftOrigin);
      reportUnsaved(get());
    },

    draftOrigin: null,
    leaveGuard: null,

    guardDraft: (proceed) => {
      const { editingId, draft, draftOrigin } = get();
      if (editingId === null || draftOrigin === null || sameDraft(draft, draftOrigin)) {
        proceed();
        return;
      }
      set({ leaveGuard: { title: draft.title.trim() || 'the new rule', proceed } });
    },

    resolveGuard: async (choice) => {
      const guard = get().leaveGuard;
      set({ leaveGuard: null });
      if (!guard || choice === 'keep') return;
      if (choice === 'save') {
        await get().saveDraft();
        // A draft that did not save (field errors) stays open: nothing is lost.
        if (get().editingId !== null) return;
      } else {
        set({ editingId: null, draft: EMPTY_DRAFT, draftOrigin: null, fieldErrors: {}, saveError: null });
        forgetDraft();
      }
      guard.proceed();
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
      // A rule that deletes what it matches, and matches everything or most mail, says so first.
      const value = checked.value;
      const noCriteria = !value.subject && !value.sender && !value.inbox && !value.has_attachments;
      const count = get().previewCount;
      const most = count !== null && count.total > 0 && count.matches > count.total / 2;
      if (value.action_delete_email && (noCriteria || most)) {
        const reach = noCriteria ? 'every incoming email (it has no criteria)' : `${count!.matches} of the last ${count!.total} emails`;
        if (!effects.confirm(`“${value.title}” deletes the mail it matches, and it matches ${reach}. Save it anyway?`)) return;
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
          draftOrigin: null,
        });
        forgetDraft();
        get().notify(`Saved "${saved.title}".`);
      } catch (error) {
        const bridgeError = asBridgeError(error);
        if (bridgeError.kind === 'unsupported' && editingId === 'new') {
          set({ automationsLack: { ...get().automationsLack, create: true } });
          bridgeError.message = 'This server does not offer creating rules: edit the ones it has.';
        }
        // The draft stays exactly as typed; the server's field errors land on the fields.
        set({ saving: false, saveError: bridgeError, fieldErrors: bridgeError.details.fields ?? {} });
      }
    },

    cancelEdit: () =>
      get().guardDraft(() => {
        set({ editingId: null, draft: EMPTY_DRAFT, draftOrigin: null, fieldErrors: {}, saveError: null });
        forgetDraft();
      }),

    removeAutomation: async (id) => {
      const list = get().automations ?? [];
      const index = list.findIndex((a) => a.id === id);
      const automation = list[index];
      if (!automation) return;
      const rest = list.filter((a) => a.id !== id);
      set({ selectedAutomationId: rest[Math.min(index, rest.length - 1)]?.id ?? null });
      // The DELETE itself goes after the undo window; main reports a failure then through deleteFailed.
      await removal.remove([{ item: automation, index, wasOpen: false }], `Deleted the rule “${automation.title}”.`);
    },

    askRemoveAutomation: (id) => {
      const rule = get().automations?.find((a) => a.id === id);
      if (rule && !get().automationsLack.delete && get().confirmDelete(`Delete the rule “${rule.title}”?`)) void get().removeAutomation(id);
    },
  };
};
