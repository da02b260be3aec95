import { useEffect, useLayoutEffect, useMemo, useRef, type FormEvent } from 'react';
import { keepFocus } from '../commands/focus.ts';
import { checkPattern } from '../../../../shared/domain/pattern-check.ts';
import type { PayloadFormat } from '../../../../shared/domain/automation.ts';
import { FLAVOR_RECORDS, type FlavorName, type FlavorRecord } from '../../../../shared/flavors/index.ts';
import { ErrorBanner } from '../../ErrorBanner.tsx';
import { useStore } from '../../store.ts';
import { activeFlavor } from '../settings/slice.ts';
import { PayloadPreview } from './PayloadPreview.tsx';
import { RulePreview } from './RulePreview.tsx';
import { visibleAutomations } from './slice.ts';
import type { AutomationDraft } from './slice.ts';
import { useKeyHints } from '../commands/use-hints.ts';

type TextField = 'title' | 'sender' | 'inbox' | 'subject' | 'action_url' | 'action_email' | 'action_secret_token';

interface FieldSpec {
  field: TextField;
  label: string;
  hint: string;
  type?: string;
}

/** The form's fields as this kind of server understands them. Pure. */
export function automationFields(traits: FlavorRecord): FieldSpec[] {
  const regex = traits.addressCriteria === 'regex';
  const fields: FieldSpec[] = [
    { field: 'title', label: 'Title', hint: 'A name for the rule.' },
    regex
      ? { field: 'sender', label: 'Sender (regular expression)', hint: 'Matched anywhere in the sender’s address, case-insensitive: @vendor\\.test$ catches one domain. Empty: any sender.' }
      : { field: 'sender', label: 'Sender (email address)', hint: 'Only mail from this address. Empty: any sender.' },
    regex
      ? { field: 'inbox', label: 'Inbox (regular expression)', hint: 'Matched anywhere in the receiving address: ^support@ catches one inbox. Empty: every inbox.' }
      : { field: 'inbox', label: 'Inbox (email address)', hint: 'Only mail to this inbox. Empty: every inbox.' },
    { field: 'subject', label: 'Subject (regular expression)', hint: 'Matched anywhere in the subject, case-insensitive: ^Invoice means “starts with Invoice”. Empty: any subject.' },
    { field: 'action_url', label: 'Webhook URL', hint: 'The service POSTs each matching email here (http or https).' },
  ];
  if (traits.forwarding) {
    fields.push({ field: 'action_email', label: 'Forward to (email address)', hint: 'The service forwards each matching email here, if it is allowed to forward (MAILCARE_FORWARD).' });
  }
  fields.push({
    field: 'action_secret_token',
    label: 'Secret token',
    hint: traits.signs
      ? `Sent in ${traits.headerPrefix}-Secret-Token, and used to sign each payload (${traits.headerPrefix}-Signature, HMAC-SHA256): verify the signature.`
      : `Sent as is in ${traits.headerPrefix}-Secret-Token, so the receiver knows the call is genuine.`,
    type: 'password',
  });
  return fields;
}

const FORMAT_LABELS: Record<PayloadFormat, string> = {
  json: 'JSON: the email record',
  raw: 'Raw: the whole message (RFC 822)',
  json_with_bodies: 'JSON with the HTML and text bodies',
};

const isPattern = (field: TextField, traits: FlavorRecord) =>
  field === 'subject' || ((field === 'sender' || field === 'inbox') && traits.addressCriteria === 'regex');

/** The pattern's error, pointed at, and its risks, as it is typed. */
function PatternCheck({ source, flavor }: { source: string; flavor: FlavorName }) {
  const report = useMemo(() => checkPattern(source, flavor), [source, flavor]);
  if (!report.error && report.warnings.length === 0) return null;
  return (
    <span className="pattern-check" role={report.error ? 'alert' : 'status'}>
      {report.error && (
        <>
          <code>
            {source.slice(0, report.error.at)}
            <mark>{source.slice(report.error.at, report.error.at + 1) || ' '}</mark>
            {source.slice(report.error.at + 1)}
          </code>{' '}
          {report.error.message}
        </>
      )}
      {report.warnings.map((warning) => (
        <span key={warning} className="warning">
          {' '}
          ⚠ {warning}
        </span>
      ))}
    </span>
  );
}

function AutomationForm() {
  const { withKey } = useKeyHints();
  const draft = useStore((s) => s.draft);
  const errors = useStore((s) => s.fieldErrors);
  const saveError = useStore((s) => s.saveError);
  const saving = useStore((s) => s.saving);
  const editingId = useStore((s) => s.editingId);
  const traits = useStore((s) => FLAVOR_RECORDS[activeFlavor(s.accounts)]);
  const { changeDraft, saveDraft, cancelEdit } = useStore.getState();
  const titleField = useRef<HTMLInputElement>(null);
  // The title takes the keys at once, as autoFocus would, but without scrolling it into view: that
  // forces the whole view's layout inside the key's task, on top of the frame that lays it out anyway.
  useLayoutEffect(() => titleField.current?.focus({ preventScroll: true }), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void saveDraft();
  };
  const fieldError = (field: string) =>
    errors[field]?.length ? (
      <span className="field-error" id={`${field}-error`} role="alert">
        {errors[field]!.join(' ')}
      </span>
    ) : null;

  return (
    <form className="automation-form" id="automation-form" tabIndex={-1} onSubmit={submit} aria-label={editingId === 'new' ? 'New automation' : 'Edit automation'}>
      <h3>{editingId === 'new' ? 'New automation' : 'Edit automation'}</h3>
      {saveError && <ErrorBanner error={saveError} />}
      {automationFields(traits).map(({ field, label, hint, type }) => (
        <label key={field}>
          {label}
          <input
            id={`automation-${field.replace(/_/g, '-')}`}
            ref={field === 'title' ? titleField : undefined}
            type={type ?? 'text'}
            value={draft[field]}
            aria-invalid={Boolean(errors[field])}
            aria-describedby={`${field}-hint${errors[field] ? ` ${field}-error` : ''}`}
            onChange={(e) => changeDraft({ [field]: e.target.value } as Partial<AutomationDraft>)}
          />
          <small className="hint" id={`${field}-hint`}>
            {hint}
          </small>
          {isPattern(field, traits) && <PatternCheck source={draft[field]} flavor={traits.name} />}
          {fieldError(field)}
        </label>
      ))}
      <label>
        {traits.payloadLabel}
        <select value={draft.payload_format} onChange={(e) => changeDraft({ payload_format: e.target.value as AutomationDraft['payload_format'] })}>
          {traits.payloadFormats.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
        {fieldError('payload_format')}
      </label>
      <label className="check">
        <input type="checkbox" checked={draft.has_attachments} onChange={(e) => changeDraft({ has_attachments: e.target.checked })} />
        Only emails with attachments
      </label>
      <label className="check">
        <input type="checkbox" checked={draft.action_delete_email} onChange={(e) => changeDraft({ action_delete_email: e.target.checked })} />
        {traits.deletesOnFailedDelivery
          ? 'Delete the email after processing (this server deletes it even when the webhook fails)'
          : 'Delete the email once the webhook succeeds'}
      </label>
      <RulePreview draft={draft} />
      <PayloadPreview draft={draft} />
      <div className="form-actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save (Enter)'}
        </button>
        <button type="button" onClick={cancelEdit}>
          {withKey('Cancel', 'app.close')}
        </button>
      </div>
    </form>
  );
}

export function AutomationsView() {
  const { withKey } = useKeyHints();
  // Loaded when first opened (App.tsx): once here, the focus comes to the view, never <body>.
  useEffect(() => keepFocus(), []);
  const automations = useStore((s) => s.automations);
  const error = useStore((s) => s.automationsError);
  const editingId = useStore((s) => s.editingId);
  const filter = useStore((s) => s.automationFilter);
  const selected = useStore((s) => s.selectedAutomationId);
  const lack = useStore((s) => s.automationsLack);
  const turnedOff = error?.kind === 'forbidden';
  const shown = visibleAutomations(automations, filter);
  const { loadAutomations, editAutomation, askRemoveAutomation } = useStore.getState();
  return (
    <div className="automations">
      <section aria-label="Automations">
        <div className="section-head">
          <h2>Automations</h2>
          <input
            id="automation-filter"
            type="search"
            aria-label="Filter rules"
            placeholder="Filter  ( / )"
            value={filter}
            onChange={(e) => useStore.setState({ automationFilter: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === 'ArrowDown') {
                // Back to the list's keys (j/k, Enter, #).
                e.preventDefault();
                e.currentTarget.blur();
              }
            }}
          />
          {!lack.create && !turnedOff && (
            <button type="button" onClick={() => editAutomation('new')}>
              {withKey('New', 'rules.new')}
            </button>
          )}
        </div>
        {/* Turned off on the server (403): a fact to state, not an error to retry. */}
        {turnedOff && (
          <p className="hint" role="status">
            {error?.message}
          </p>
        )}
        {lack.create && <p className="hint">This server does not offer creating rules: edit the ones it has.</p>}
        {lack.delete && <p className="hint">This server does not offer deleting rules.</p>}
        {error && !turnedOff && <ErrorBanner error={error} onRetry={() => void loadAutomations()} />}
        {automations === null && !error && <p className="empty">Loading…</p>}
        {automations?.length === 0 && <p className="empty">No automations yet.</p>}
        {automations && automations.length > 0 && shown.length === 0 && <p className="empty">No rule matches “{filter}”.</p>}
        {/* A list, not a listbox: each rule has its own buttons. The keys move aria-current. */}
        <ul id="automation-list" className="automation-list" aria-label="Rules" tabIndex={0}>
          {shown.map((a) => (
            <li key={a.id} id={`rule-${a.id}`} aria-current={a.id === selected ? 'true' : undefined}>
              <div>
                <strong>{a.title}</strong> {a.in_error && <span className="badge error">last delivery failed</span>}
                <div className="criteria">
                  {[a.sender && `from ${a.sender}`, a.inbox && `to ${a.inbox}`, a.subject && `subject /${a.subject}/`, a.has_attachments && 'with attachments']
                    .filter(Boolean)
                    .join(' · ') || 'every email'}
                  {' → '}
                  {[a.action_url && `${a.action_url} (${a.payload_format})`, a.action_email && `forward to ${a.action_email}`].filter(Boolean).join(' and ') || 'no action'}
                  {' · '}
                  {a.emails_received} matched{a.action_delete_email ? ' · deletes the email' : ''}
                </div>
              </div>
              <button type="button" onClick={() => editAutomation(a.id)}>
                Edit
              </button>
              {!lack.delete && (
                <button
                  type="button"
                  onClick={() => askRemoveAutomation(a.id)}
                >
                  Delete
                </button>
              )}
            </li>
          ))}
        </ul>
      </section>
      {editingId && <AutomationForm />}
    </div>
  );
}
