import { lazy, memo, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { Email } from '../../../../shared/domain/email.ts';
import { parseSearch, planSearch, withoutTerm, type Term } from '../../../../shared/domain/search-query.ts';
import { exactDate, shortDate } from '../../format.ts';
import { PaperclipIcon } from '../../icons.tsx';
import { useStore } from '../../store.ts';
import { ErrorBanner } from '../../ErrorBanner.tsx';
import { ErrorBoundary } from '../../ErrorBoundary.tsx';
import { SmtpInstructions } from '../catcher/SmtpInstructions.tsx';
import { CATCHER_ID } from '../../../../shared/domain/catcher.ts';
import { visibleRows } from './slice.ts';
import { EmptyReader } from '../message/EmptyReader.tsx';
import { useKeyHints } from '../commands/use-hints.ts';

// The reader (the sanitizer, the finder, the tester's panels) is not on the first screen:
// it loads once the first rows are painted, and the empty pane stands in until then.
const MessageView = lazy(() => import('../message/MessageView.tsx').then((m) => ({ default: m.MessageView })));

function SearchBox() {
  const text = useStore((s) => s.searchText);
  const known = useStore((s) => s.knownAddresses);
  const recent = useStore((s) => s.recentSearches);
  const { setSearchText, applySearch } = useStore.getState();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const recall = useRef(-1);
  const parsed = useMemo(() => parseSearch(text), [text]);
  const plan = useMemo(() => planSearch(parsed), [parsed]);

  // Typing runs the search after a pause; Enter runs it at once.
  const change = (next: string) => {
    setSearchText(next);
    recall.current = -1;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => applySearch(), 300);
  };
  const intoResults = () => {
    clearTimeout(timer.current);
    applySearch({ remember: true });
    // The results may still be on their way: the list takes focus when it is there.
    useStore.setState({ listFocusRequested: true });
  };
  const replaceTerm = (term: Term, value: string) => {
    const key = term.kind === 'from' ? 'from' : 'to';
    change(`${text.slice(0, term.start)}${key}:${value}${text.slice(term.end)}`);
  };
  const suggestions = plan.partial.flatMap((partial) => {
    const pool = partial.field === 'from' ? known.senders : known.inboxes;
    const term = parsed.terms.find((t) => t.kind === partial.field && t.value === partial.value)!;
    return pool
      .filter((address) => address.toLowerCase().includes(partial.value.toLowerCase()))
      .slice(0, 6)
      .map((address) => ({ address, term }));
  });

  return (
    <div className="filters" role="search">
      <input
        id="search"
        type="search"
        placeholder="Search  from: to: subject: is:unread after: has:attachment  ( / )"
        aria-label="Search"
        aria-invalid={parsed.errors.length > 0}
        aria-describedby={parsed.errors.length > 0 ? 'search-errors' : undefined}
        spellCheck={false}
        value={text}
        onChange={(e) => change(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || (e.key === 'ArrowDown' && suggestions.length === 0)) {
            e.preventDefault();
            intoResults();
          } else if (e.key === 'Escape') {
            // Esc clears the search; a second Esc leaves the box.
            if (text) {
              e.preventDefault();
              e.stopPropagation();
              change('');
              clearTimeout(timer.current);
              applySearch();
            }
          } else if (e.key === 'ArrowUp' && (text === '' || recall.current >= 0) && recent.length > 0) {
            e.preventDefault();
            recall.current = Math.min(recall.current + 1, recent.length - 1);
            setSearchText(recent[recall.current]!);
          }
        }}
      />
      {parsed.errors.length > 0 && (
        <div className="search-errors" id="search-errors" role="alert">
          <ul>
            {parsed.errors.map((error) => (
              <li key={`${error.start}-${error.end}`}>
                <mark>{text.slice(error.start, error.end)}</mark> {error.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {parsed.terms.length > 0 && (
        <ul className="chips" aria-label="Search terms">
          {parsed.terms.map((term) => (
            <li key={`${term.start}-${term.raw}`} className={`chip ${term.kind}`}>
              {term.raw}
              <button type="button" aria-label={`Remove ${term.raw}`} onClick={() => {
                change(withoutTerm(text, term));
              }}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {suggestions.length > 0 && (
        <ul className="suggestions" aria-label="Known addresses">
          {suggestions.map(({ address, term }) => (
            <li key={`${term.kind}-${address}`}>
              <button type="button" onClick={() => replaceTerm(term, address)}>
                {term.kind === 'from' ? 'from:' : 'to:'}
                {address}
              </button>
            </li>
          ))}
        </ul>
      )}
      {plan.onPage.hasAttachment && <p className="search-note">has:attachment narrows the page the server sent: the server cannot filter on attachments.</p>}
      {plan.partial.length > 0 && suggestions.length === 0 && (
        <p className="search-note">“{plan.partial[0]!.value}” is part of an address: searching for it in every address and subject.</p>
      )}
    </div>
  );
}

/**
 * One row. Rows are memoized: moving the selection re-renders the two rows it
 * leaves and enters, not the page.
 */
const EmailRow = memo(function EmailRow({
  email,
  selected,
  selectedRef,
  open,
  fresh,
  picked,
  density,
}: {
  email: Email;
  selected: boolean;
  selectedRef: RefObject<HTMLLIElement | null> | undefined;
  open: boolean;
  fresh: boolean;
  /** Whether it is checked, while some are (undefined otherwise). */
  picked: boolean | undefined;
  density: string;
  /** Today (toDateString): a row shows its date relative to it, so a new day renders it anew. */
  today: string;
}) {
  const from = email.sender.display_name || email.sender.email;
  return (
    <li
      id={`email-${email.id}`}
      role="option"
      aria-selected={selected}
      aria-checked={picked}
      ref={selectedRef}
      className={[email.read === null ? 'unread' : '', open ? 'open' : '', fresh ? 'new' : '', picked ? 'checked' : ''].join(' ')}
      onClick={() => {
        const { select, openMessage } = useStore.getState();
        select(email.id);
        void openMessage(email.id);
      }}
    >
      <span className="star" aria-label={email.favorite ? 'Starred' : undefined}>{picked ? '✓' : email.favorite ? '★' : ''}</span>
      <span className="from" title={`${from} <${email.sender.email}>`}>{from}</span>
      <span className="subject" title={email.subject}>{email.subject || '(no subject)'}</span>
      <span className="meta">
        {email.attachments.length > 0 && <PaperclipIcon label="Has attachments" />}
        <time dateTime={email.created_at} title={exactDate(email.created_at)}>
          {shortDate(email.created_at)}
        </time>
      </span>
      {density === 'comfortable' && <span className="to">to {email.inbox.email}</span>}
    </li>
  );
});

function EmailList() {
  const { keyHint } = useKeyHints();
  const list = useStore((s) => s.list);
  const search = useStore((s) => s.search);
  const rows = useMemo(() => visibleRows(list, search), [list, search]);
  const selectedId = useStore((s) => s.selectedId);
  const openId = useStore((s) => s.openId);
  const newIds = useStore((s) => s.newIds);
  const checked = useStore((s) => s.checked);
  const progress = useStore((s) => s.bulkProgress);
  const density = useStore((s) => s.settings.density);
  const clearNew = useStore((s) => s.clearNew);
  // On This computer, an empty inbox says how to send it mail.
  const catcher = useStore((s) => (s.accounts?.activeId === CATCHER_ID ? s.accounts.catcher : null));
  const selectedRef = useRef<HTMLLIElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  /** Scrolled down: new rows above are out of sight, and only then does a pill point at them (at the top they show, marked). */
  const [awayFromTop, setAwayFromTop] = useState(false);
  const firstShown = useRef<string | null>(null);
  const listFailed = useStore((s) => s.listError !== null);
  // Nothing loaded while the server is out (This computer's port taken, a network down): the list says why, beside the banner.
  const outage = useStore((s) => s.outage?.error.message ?? null);

  useEffect(() => {
    selectedRef.current?.scrollIntoView({ block: 'nearest' });
  }, [selectedId]);

  const focusRequested = useStore((s) => s.listFocusRequested);
  useEffect(() => {
    if (!focusRequested || !listRef.current) return;
    listRef.current.focus();
    useStore.setState({ listFocusRequested: false });
  }, [rows, focusRequested]);

  // Mail that slides in at the top must not move what the user is looking at: the rows are
  // kept still by the height the new ones took (measured, whatever the density), once.
  useLayoutEffect(() => {
    const element = listRef.current;
    const previous = firstShown.current;
    firstShown.current = rows[0]?.id ?? null;
    if (!element || previous === null) return;
    const inserted = rows.findIndex((row) => row.id === previous);
    if (inserted <= 0) return;
    // At the very top with nothing chosen, new mail simply shows; with a row chosen, that row stays put.
    if (element.scrollTop === 0 && useStore.getState().selectedId === null) return;
    const anchor = document.getElementById(`email-${previous}`);
    const first = element.firstElementChild as HTMLElement | null;
    if (anchor && first) element.scrollTop += anchor.offsetTop - first.offsetTop;
  }, [rows]);

  // A failed first load shows its banner above: never an endless "Loading…".
  // An empty list still holds the list's place (id and focus): the keys work on from it, never from <body>.
  if (!list)
    return (
      <p className="empty" id="email-list" tabIndex={-1}>
        {listFailed ? 'The list could not be loaded.' : outage ? `Nothing to show yet: ${outage}` : 'Loading…'}
      </p>
    );
  if (rows.length === 0) {
    const message = list.unknownAddress
      ? `No mail for ${list.unknownAddress.value} yet.`
      : search
        ? `No email matches “${search}”.`
        : 'No mail here yet. New mail shows up by itself.';
    return (
      <div className="empty" id="email-list" tabIndex={-1}>
        <p>{message}</p>
        {catcher && !search && !list.unknownAddress && (
          <>
            <SmtpInstructions state={catcher} heading="Point your app’s SMTP here, and its mail shows up at once" />
            {keyHint('loop.new-address') && (
              <p className="hint">
                Press <kbd>{keyHint('loop.new-address')}</kbd> for a fresh address to sign up with: it is copied, its first email opens here, and its code goes to your clipboard.
              </p>
            )}
          </>
        )}
      </div>
    );
  }
  const fresh = new Set(newIds);
  const picked = new Set(checked);
  const today = new Date().toDateString();
  return (
    <>
      {newIds.length > 0 && awayFromTop && (
        <button
          type="button"
          className="new-mail"
          onClick={() => {
            listRef.current?.scrollTo({ top: 0 });
            clearNew();
          }}
        >
          ↑ {newIds.length} new
        </button>
      )}
      {(checked.length > 0 || progress) && (
        <p className="bulk-line" role="status">
          {progress
            ? `${progress.label} ${progress.done} of ${progress.total}…`
            : `${checked.length} selected: ${[
                [keyHint('inbox.star'), 'stars'],
                [keyHint('inbox.delete'), 'deletes'],
                [keyHint('inbox.check-none'), 'clears'],
              ]
                .filter(([key]) => key)
                .map(([key, what]) => `${key} ${what}`)
                .join(', ')}.`}
        </p>
      )}
      <ul
        id="email-list"
        ref={listRef}
        onScroll={(event) => setAwayFromTop(event.currentTarget.scrollTop > 4)}
        className={`email-list ${density}`}
        role="listbox"
        aria-label="Emails"
        aria-multiselectable={checked.length > 0 || undefined}
        tabIndex={0}
        aria-activedescendant={selectedId ? `email-${selectedId}` : undefined}
      >
        {rows.map((email) => (
          <EmailRow
            key={email.id}
            email={email}
            selected={email.id === selectedId}
            selectedRef={email.id === selectedId ? selectedRef : undefined}
            open={email.id === openId}
            fresh={fresh.has(email.id)}
            picked={checked.length > 0 ? picked.has(email.id) : undefined}
            density={density}
            today={today}
          />
        ))}
      </ul>
    </>
  );
}

function Pagination() {
  const { withKey } = useKeyHints();
  const meta = useStore((s) => s.list?.meta);
  // A catcher's mailbox fills up with test mail: emptying it is one button (with Undo), as in Mailpit.
  const onCatcher = useStore((s) => s.accounts?.activeId === CATCHER_ID);
  const loading = useStore((s) => s.listLoading);
  const listFrom = useStore((s) => s.listFrom);
  const goToPage = useStore((s) => s.goToPage);
  if (!meta) return null;
  return (
    <nav className={onCatcher ? 'pagination with-delete-all' : 'pagination'} aria-label="Pages">
      {/* The words go where the list is too narrow for them beside Delete all (styles.css); the names stay, and the tooltips say them. */}
      <button type="button" disabled={meta.current_page <= 1} onClick={() => goToPage(meta.current_page - 1)} title={withKey('Previous page', 'inbox.previous-page')}>
        ← <span className="pager-word">{withKey('Prev', 'inbox.previous-page')}</span>
      </button>
      <span aria-live="polite">
        {meta.from === null ? 'Nothing here' : `${meta.from}–${meta.to} of ${meta.total}`}
        {/* Said again by the range: left out where the list is narrow (styles.css), never wrapped. */}
        <span className="page-of">
          {' '}
          · page {meta.current_page} of {meta.last_page}
        </span>
        {listFrom ? ` · as of ${new Date(listFrom).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' })}, updating…` : loading ? ' · loading…' : ''}
      </span>
      <button type="button" disabled={meta.current_page >= meta.last_page} onClick={() => goToPage(meta.current_page + 1)} title={withKey('Next page', 'inbox.next-page')}>
        <span className="pager-word">{withKey('Next', 'inbox.next-page')}</span> →
      </button>
      {onCatcher && meta.total > 0 && (
        <button type="button" className="delete-all" onClick={() => void useStore.getState().deleteAll()}>
          Delete all
        </button>
      )}
    </nav>
  );
}

/**
 * The inbox, kept mounted while another view shows (its place in the list, its open email). Going
 * to another view hides it without rendering its list and reader again: that work would land in
 * the key's own task (R, g a), for nothing the user sees.
 */
export function InboxView({ hidden = false }: { hidden?: boolean }) {
  return (
    <div className="inbox" hidden={hidden}>
      <InboxPanes />
    </div>
  );
}

const InboxPanes = memo(function InboxPanes() {
  const listError = useStore((s) => s.listError);
  const loadList = useStore((s) => s.loadList);
  const hasRows = useStore((s) => s.list !== null);
  const emailOpen = useStore((s) => s.openId !== null);
  const [readerWanted, setReaderWanted] = useState(false);
  useEffect(() => {
    if (!hasRows || readerWanted) return;
    // After the frame that paints the rows: the reader is ready before the first Enter.
    const timer = setTimeout(() => setReaderWanted(true), 0);
    return () => clearTimeout(timer);
  }, [hasRows, readerWanted]);
  return (
    <>
      <section className="list-pane" aria-label="Email list">
        <ErrorBoundary area="The email list" actions={<button type="button" onClick={() => void loadList({ fresh: true })}>Load it again</button>}>
          <SearchBox />
          {listError && <ErrorBanner error={listError} onRetry={() => void loadList({ fresh: true })} />}
          <EmailList />
          <Pagination />
        </ErrorBoundary>
      </section>
      {readerWanted || emailOpen ? (
        // Its code failing to load takes the reader, not the list, off the screen.
        <ErrorBoundary area="The reader" actions={<button type="button" onClick={() => location.reload()}>Reload the window</button>}>
          <Suspense fallback={<EmptyReader />}>
            <MessageView />
          </Suspense>
        </ErrorBoundary>
      ) : (
        <EmptyReader />
      )}
    </>
  );
});
