import { useLayoutEffect, useRef } from 'react';
import type { BodyFormat, EmailBody } from '../../../../shared/domain/email.ts';
import { sizeOfChars } from '../../../../shared/domain/clip.ts';
import { decodeEncodedWords } from '../../../../shared/domain/encoded-words.ts';
import { addressesIn, differsByMinute } from '../../../../shared/domain/reader-headers.ts';
import { ErrorBanner } from '../../ErrorBanner.tsx';
import { ErrorBoundary } from '../../ErrorBoundary.tsx';
import { exactDate, shortDate } from '../../format.ts';
import { PaperclipIcon } from '../../icons.tsx';
import { useStore } from '../../store.ts';
import { BENCH_CHECKS } from '../qa/checks.ts';
import { CHECK_PANELS } from '../qa/panels.tsx';
import { InsightsBar } from '../qa/InsightsBar.tsx';
import { SenderChecks } from '../qa/SenderChecks.tsx';
import { AttachmentChooser } from './AttachmentChooser.tsx';
import { HtmlBody } from './HtmlBody.tsx';
import { PlainText } from './PlainText.tsx';
import { NoEmailOpen } from './EmptyReader.tsx';
import { formatAvailable } from './slice.ts';
import { useKeyHints } from '../commands/use-hints.ts';

/** How much of one header the headers view lays out: a 100 KB header in a table cell held the window. */
const HEADER_SHOWN = 4000;
const shownHeader = (value: string) => (value.length > HEADER_SHOWN ? `${value.slice(0, HEADER_SHOWN)}… (${(value.length - HEADER_SHOWN).toLocaleString('en')} more characters: the raw view, 3, has it whole)` : value);

const FORMATS: { format: BodyFormat; label: string; command: string }[] = [
  { format: 'html', label: 'HTML', command: 'reader.html' },
  { format: 'text', label: 'Text', command: 'reader.text' },
  { format: 'raw', label: 'Raw', command: 'reader.raw' },
];

/** Main sends a long body clipped (clip.ts); the whole of it is one button away. */
function ClipNotice({ body }: { body: EmailBody }) {
  const showWhole = useStore((s) => s.showWholeBody);
  if (body.total === undefined) return null;
  return (
    <div className="clip-notice" role="status">
      [Message clipped: showing {sizeOfChars(body.content.length)} of {sizeOfChars(body.total)}]
      <button type="button" onClick={() => void showWhole()}>
        Show the whole message
      </button>
    </div>
  );
}

const address = (a: { display_name: string; email: string }) => (a.display_name ? `${a.display_name} <${a.email}>` : a.email);

/**
 * From, To, Cc, Reply-To and Date as the sending app wrote them (decoded), once
 * main has them; the record's envelope until then. Where the envelope differs
 * (a Bcc or Cc copy delivered to another inbox, an arrival later than the Date
 * header), both are shown: a tester checks what the app wrote.
 */
function EnvelopeAndHeaders() {
  const email = useStore((s) => s.email);
  const written = useStore((s) => (s.readerHeaders && s.readerHeaders.id === s.email?.id ? s.readerHeaders.headers : null));
  if (!email) return null;
  const to = written?.to ?? email.inbox.email;
  const named = written === null ? [] : addressesIn(written.to).concat(addressesIn(written.cc));
  // This computer lists a message once, with every recipient: those the headers do not name were Bcc.
  const bcc = written !== null && email.delivered_to ? email.delivered_to.filter((address) => !named.includes(address.toLowerCase())) : [];
  const deliveredElsewhere = written !== null && !email.delivered_to && !named.includes(email.inbox.email.toLowerCase());
  const cc = written ? written.cc : email.carbon_copies.length > 0 ? email.carbon_copies.map(address).join(', ') : null;
  const date = written?.date ?? email.created_at;
  const arrivedLater = written?.date != null && differsByMinute(written.date, email.created_at);
  return (
    <dl>
      <dt>From</dt>
      <dd>{written?.from ?? address(email.sender)}</dd>
      {written?.replyTo && (
        <>
          <dt>Reply-To</dt>
          <dd>{written.replyTo}</dd>
        </>
      )}
      <dt>To</dt>
      <dd>
        {to}
        {deliveredElsewhere && <small className="envelope"> (delivered to {email.inbox.email})</small>}
      </dd>
      {cc && (
        <>
          <dt>Cc</dt>
          <dd>{cc}</dd>
        </>
      )}
      {bcc.length > 0 && (
        <>
          <dt>Bcc</dt>
          <dd>
            {bcc.join(', ')} <small className="envelope">(in the envelope, not the headers)</small>
          </dd>
        </>
      )}
      <dt>Date</dt>
      <dd>
        {written && !written.date && written.dateText ? (
          <span title="The Date header does not parse as a date">{written.dateText}</span>
        ) : (
          <time dateTime={date} title={exactDate(date)}>
            {shortDate(date)}
          </time>
        )}
        {arrivedLater && (
          <small className="envelope">
            {' '}
            (arrived <time dateTime={email.created_at} title={exactDate(email.created_at)}>{shortDate(email.created_at)}</time>)
          </small>
        )}
      </dd>
    </dl>
  );
}

/** The ways on from an email that could not be shown: its raw message, or its text. */
function OtherViews() {
  const email = useStore((s) => s.email);
  const setFormat = useStore((s) => s.setFormat);
  const { withKey } = useKeyHints();
  return (
    <>
      <button type="button" onClick={() => void setFormat('raw')}>
        {withKey('Show the raw message', 'reader.raw')}
      </button>
      {email?.has_text && (
        <button type="button" onClick={() => void setFormat('text')}>
          {withKey('Show the text', 'reader.text')}
        </button>
      )}
    </>
  );
}

/** The reader, behind a boundary: an email it cannot show is a message in its place, the raw view offered; the list and the keys go on. */
export function MessageView() {
  const openId = useStore((s) => s.openId);
  const format = useStore((s) => s.format);
  const headers = useStore((s) => s.headers !== null);
  return (
    <ErrorBoundary area="This email" resetKey={`${openId}:${format}:${headers}`} actions={<OtherViews />}>
      <Reader />
    </ErrorBoundary>
  );
}

function Reader() {
  const { withKey } = useKeyHints();
  const email = useStore((s) => s.email);
  const body = useStore((s) => s.body);
  const format = useStore((s) => s.format);
  const loading = useStore((s) => s.messageLoading);
  const error = useStore((s) => s.messageError);
  const openId = useStore((s) => s.openId);
  const headers = useStore((s) => s.headers);
  const { showHeaders, setFormat, toggleFavorite, askDeleteEmail, closeMessage, saveAttachment, openMessage } = useStore.getState();
  const pane = useRef<HTMLElement>(null);
  // Each email opens at its top (the frame and the pane outlive the email).
  useLayoutEffect(() => {
    pane.current?.scrollTo({ top: 0 });
  }, [openId]);

  // An HTML email's frame is made while its body is on the way, and the body then fills it.
  const showsHtml = Boolean(openId && !headers && email && (body ? body.format === 'html' : loading && email.has_html));
  // One tree whether the reader is open or not: the frame in it outlives the open email.
  return (
    <section className={openId ? 'message-pane' : 'message-pane empty'} aria-label="Message" ref={pane}>
      {!openId && <NoEmailOpen />}
      <AttachmentChooser />
      {openId && error && <ErrorBanner error={error} onRetry={() => void openMessage(openId)} />}
      {openId && email && (
        <header className="message-header">
          <h2>{email.subject || '(no subject)'}</h2>
          <EnvelopeAndHeaders />
          <ErrorBoundary area="The code and link finder" resetKey={email.id}>
            <InsightsBar email={email} body={body} />
          </ErrorBoundary>
          {BENCH_CHECKS.map((check) => {
            const Panel = CHECK_PANELS[check.id];
            return (
              <ErrorBoundary key={check.id} area={check.area} resetKey={email.id}>
                <Panel emailId={email.id} />
              </ErrorBoundary>
            );
          })}
          <div className="toolbar" role="toolbar" aria-label="Message actions">
            <div className="formats" role="tablist" aria-label="View as">
              {FORMATS.map(({ format: f, label, command }) => (
                <button
                  key={f}
                  type="button"
                  role="tab"
                  aria-selected={format === f && headers === null}
                  disabled={!formatAvailable(email, f)}
                  onClick={() => void setFormat(f)}
                >
                  {withKey(label, command)}
                </button>
              ))}
              <button type="button" role="tab" aria-selected={headers !== null} onClick={() => void showHeaders()}>
                {withKey('Headers', 'reader.headers')}
              </button>
            </div>
            <button type="button" onClick={() => void toggleFavorite(email.id)}>
              {withKey(email.favorite ? '★ Unstar' : '☆ Star', 'inbox.star')}
            </button>
            <button
              type="button"
              onClick={() => {
                askDeleteEmail();
              }}
            >
              {withKey('Delete', 'inbox.delete')}
            </button>
            <button type="button" onClick={() => useStore.getState().ruleFromEmail(email)}>
              {withKey('Rule from this email', 'reader.rule-from-email')}
            </button>
            <button type="button" onClick={closeMessage}>
              {withKey('Close', 'app.close')}
            </button>
          </div>
          {email.attachments.length > 0 && (
            <ol className="attachments" aria-label="Attachments">
              {email.attachments.map((a, i) => (
                <li key={a.id}>
                  <button type="button" onClick={() => void saveAttachment(a.id)} title={`Save ${a.file_name} (a, then ${i + 1})`}>
                    <PaperclipIcon /> {email.attachments.length > 1 ? `${i + 1}. ` : ''}
                    {a.file_name} <small>({a.size_for_human || `${a.size_in_bytes} B`}, {a.content_type})</small>
                  </button>
                </li>
              ))}
            </ol>
          )}
        </header>
      )}
      <div className="message-body" aria-busy={loading}>
        {openId && headers && email && (
          <ErrorBoundary area="The sender checks" resetKey={email.id}>
            <SenderChecks headers={headers} email={email} />
          </ErrorBoundary>
        )}
        {openId && headers && (
          <table className="headers-view" aria-label="Headers">
            <tbody>
              {headers.map((h, i) => (
                <tr key={`${i}-${h.name}`}>
                  <th scope="row">{h.name}</th>
                  {/* Encoded words decoded, as the app meant them; the bytes as sent on hover. A header too long to lay out in a frame is cut; the raw view (3) has it whole. */}
                  <td title={decodeEncodedWords(h.value) === h.value ? undefined : h.value.slice(0, HEADER_SHOWN)}>{shownHeader(decodeEncodedWords(h.value))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {openId && loading && !body && !email?.has_html && <p className="empty">Loading…</p>}
        <HtmlBody html={showsHtml && body?.format === 'html' ? body.content : ''} email={showsHtml ? email : null} />
        {openId && !headers && body && body.format !== 'html' && <PlainText className={`plain ${body.format}`} text={body.content} />}
        {openId && !headers && body && <ClipNotice body={body} />}
      </div>
    </section>
  );
}
