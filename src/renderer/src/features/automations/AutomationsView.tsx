import type { FormEvent } from 'react';
import { PAYLOAD_FORMATS } from '../../../../shared/domain/automation.ts';
import { ErrorBanner } from '../../ErrorBanner.tsx';
import { useStore } from '../../store.ts';
import type { AutomationDraft } from './slice.ts';

type TextField = 'title' | 'sender' | 'inbox' | 'subject' | 'action_url' | 'action_secret_token';

const TEXT_FIELDS: { field: TextField; label: string; placeholder: string; type?: string }[] = [
  { field: 'title', label: 'Title', placeholder: 'Forward invoices' },
  { field: 'sender', label: 'Sender (email)', placeholder: 'billing@vendor.test' },
  { field: 'inbox', label: 'Inbox (email)', placeholder: 'support@acme.test' },
  { field: 'subject', label: 'Subject (regular expression)', placeholder: '^Invoice' },
  { field: 'action_url', label: 'Webhook URL', placeholder: 'https://hooks.example/inbox' },
  { field: 'action_secret_token', label: 'Secret token', placeholder: 'shared secret', type: 'password' },
];

function AutomationForm() {
  const draft = useStore((s) => s.draft);
  const errors = useStore((s) => s.fieldErrors);
  const saveError = useStore((s) => s.saveError);
  const saving = useStore((s) => s.saving);
  const editingId = useStore((s) => s.editingId);
  const { changeDraft, saveDraft, cancelEdit } = useStore.getState();

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
    <form className="automation-form" onSubmit={submit} aria-label={editingId === 'new' ? 'New automation' : 'Edit automation'}>
      <h3>{editingId === 'new' ? 'New automation' : 'Edit automation'}</h3>
      {saveError && <ErrorBanner error={saveError} />}
      {TEXT_FIELDS.map(({ field, label, placeholder, type }) => (
        <label key={field}>
          {label}
          <input
            id={`automation-${field.replace(/_/g, '-')}`}
            autoFocus={field === 'title'}
            type={type ?? 'text'}
            value={draft[field]}
            placeholder={placeholder}
            aria-invalid={Boolean(errors[field])}
            aria-describedby={errors[field] ? `${field}-error` : undefined}
            onChange={(e) => changeDraft({ [field]: e.target.value } as Partial<AutomationDraft>)}
          />
          {fieldError(field)}
        </label>
      ))}
      <label>
        Payload format
        <select value={draft.payload_format} onChange={(e) => changeDraft({ payload_format: e.target.value as AutomationDraft['payload_format'] })}>
          {PAYLOAD_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f}
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
        Delete the email after the webhook succeeds
      </label>
      <div className="form-actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : 'Save (Enter)'}
        </button>
        <button type="button" onClick={cancelEdit}>
          Cancel (Esc)
        </button>
      </div>
    </form>
  );
}

export function AutomationsView() {
  const automations = useStore((s) => s.automations);
  const error = useStore((s) => s.automationsError);
  const editingId = useStore((s) => s.editingId);
  const { loadAutomations, editAutomation, removeAutomation } = useStore.getState();
  return (
    <div className="automations">
      <section aria-label="Automations">
        <div className="section-head">
          <h2>Automations</h2>
          <button type="button" onClick={() => editAutomation('new')}>
            New (c)
          </button>
        </div>
        {error && <ErrorBanner error={error} onRetry={() => void loadAutomations()} />}
        {automations === null && !error && <p className="empty">Loading…</p>}
        {automations?.length === 0 && <p className="empty">No automations yet.</p>}
        <ul className="automation-list">
          {automations?.map((a) => (
            <li key={a.id}>
              <div>
                <strong>{a.title}</strong> {a.in_error && <span className="badge error">last delivery failed</span>}
                <div className="criteria">
                  {[a.sender && `from ${a.sender}`, a.inbox && `to ${a.inbox}`, a.subject && `subject /${a.subject}/`, a.has_attachments && 'with attachments']
                    .filter(Boolean)
                    .join(' · ') || 'every email'}
                  {' → '}
                  {a.action_url ?? 'no webhook'} ({a.payload_format}) · {a.emails_received} matched
                </div>
              </div>
              <button type="button" onClick={() => editAutomation(a.id)}>
                Edit
              </button>
              <button type="button" onClick={() => window.confirm(`Delete "${a.title}"?`) && void removeAutomation(a.id)}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      </section>
      {editingId && <AutomationForm />}
    </div>
  );
}
