import { useEffect, useRef } from 'react';
import { useStore } from '../../store.ts';
import { ErrorBanner } from '../../ErrorBanner.tsx';
import { MessageView } from '../message/MessageView.tsx';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function Filters() {
  const filters = useStore((s) => s.filters);
  const setFilters = useStore((s) => s.setFilters);
  const searchRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Typing is debounced; the field itself is never reset under the user's fingers.
  const debounced = (patch: Parameters<typeof setFilters>[0]) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setFilters(patch), 250);
  };
  return (
    <div className="filters" role="search">
      <input
        id="search"
        ref={searchRef}
        type="search"
        placeholder="Search subject, sender, inbox  ( / )"
        aria-label="Search"
        defaultValue={filters.search}
        onChange={(e) => debounced({ search: e.target.value })}
      />
      <input
        aria-label="Inbox address"
        placeholder="inbox@…"
        defaultValue={filters.inbox}
        onChange={(e) => debounced({ inbox: e.target.value })}
      />
      <input
        aria-label="Sender address"
        placeholder="sender@…"
        defaultValue={filters.sender}
        onChange={(e) => debounced({ sender: e.target.value })}
      />
      <label>
        From <input type="date" aria-label="From day" value={filters.fromDay} onChange={(e) => setFilters({ fromDay: e.target.value })} />
      </label>
      <label>
        to <input type="date" aria-label="To day" value={filters.toDay} onChange={(e) => setFilters({ toDay: e.target.value })} />
      </label>
      <label>
        <input type="checkbox" checked={filters.unread} onChange={(e) => setFilters({ unread: e.target.checked })} /> Unread (u)
      </label>
      <label>
        <input type="checkbox" checked={filters.favorite} onChange={(e) => setFilters({ favorite: e.target.checked })} /> Starred (f)
      </label>
    </div>
  );
}

function EmailList() {
  const list = useStore((s) => s.list);
  const selectedId = useStore((s) => s.selectedId);
  const openId = useStore((s) => s.openId);
  const select = useStore((s) => s.select);
  const openMessage = useStore((s) => s.openMessage);
  const selectedRef = useRef<HTMLLIElement>(null);
  const listFailed = useStore((s) => s.listError !== null);
  const filtered = useStore((s) => Object.values(s.filters).some((value) => Boolean(value)));

  useEffect(() => {
    selectedRef.current?.scrollIntoView({ block: 'nearest' });
  }, [selectedId]);

  // A failed first load shows its banner above: never an endless "Loading…".
  if (!list) return <p className="empty">{listFailed ? 'The list could not be loaded.' : 'Loading…'}</p>;
  if (list.data.length === 0) {
    const message = list.unknownAddress
      ? `No mail for ${list.unknownAddress.value} yet.`
      : filtered
        ? 'No emails match these filters.'
        : 'No mail here yet. New mail shows up when you refresh (r).';
    return <p className="empty">{message}</p>;
  }
  return (
    <ul className="email-list" role="listbox" aria-label="Emails" aria-activedescendant={selectedId ? `email-${selectedId}` : undefined}>
      {list.data.map((email) => (
        <li
          key={email.id}
          id={`email-${email.id}`}
          role="option"
          aria-selected={email.id === selectedId}
          ref={email.id === selectedId ? selectedRef : undefined}
          className={[email.read === null ? 'unread' : '', email.id === openId ? 'open' : ''].join(' ')}
          onClick={() => {
            select(email.id);
            void openMessage(email.id);
          }}
        >
          <span className="star" aria-label={email.favorite ? 'Starred' : undefined}>{email.favorite ? '★' : ''}</span>
          <span className="from">{email.sender.display_name || email.sender.email}</span>
          <span className="subject">{email.subject || '(no subject)'}</span>
          <span className="meta">
            {email.attachments.length > 0 ? '📎 ' : ''}
            <time dateTime={email.created_at}>{dateFormat.format(new Date(email.created_at))}</time>
          </span>
          <span className="to">{email.inbox.email}</span>
        </li>
      ))}
    </ul>
  );
}

function Pagination() {
  const meta = useStore((s) => s.list?.meta);
  const loading = useStore((s) => s.listLoading);
  const goToPage = useStore((s) => s.goToPage);
  if (!meta) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" disabled={meta.current_page <= 1} onClick={() => goToPage(meta.current_page - 1)}>
        ← Prev (p)
      </button>
      <span aria-live="polite">
        {meta.from === null ? 'Nothing here' : `${meta.from}–${meta.to} of ${meta.total}`} · page {meta.current_page} of {meta.last_page}
        {loading ? ' · loading…' : ''}
      </span>
      <button type="button" disabled={meta.current_page >= meta.last_page} onClick={() => goToPage(meta.current_page + 1)}>
        Next (n) →
      </button>
    </nav>
  );
}

export function InboxView() {
  const listError = useStore((s) => s.listError);
  const loadList = useStore((s) => s.loadList);
  return (
    <div className="inbox">
      <section className="list-pane" aria-label="Email list">
        <Filters />
        {listError && <ErrorBanner error={listError} onRetry={() => void loadList({ fresh: true })} />}
        <EmailList />
        <Pagination />
      </section>
      <MessageView />
    </div>
  );
}
