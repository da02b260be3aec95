import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { BodyFormat, Email, EmailBody } from '../../../../shared/domain/email.ts';
import { call } from '../../bridge.ts';
import { ErrorBanner } from '../../ErrorBanner.tsx';
import { Modal } from '../../Modal.tsx';
import { exactDate, shortDate } from '../../format.ts';
import { PaperclipIcon } from '../../icons.tsx';
import { useStore } from '../../store.ts';
import { insightsOf } from '../qa/slice.ts';
import { formatAvailable } from './slice.ts';
import { senderChecks } from '../../../../shared/domain/sender-checks.ts';
import { linkQuestion } from './link-check.ts';
import { hasInlineImages, nextTask, sanitizedAlready, sanitizeEmailHtmlCached, sanitizeInSlicesCached, type SanitizeOutcome } from './sanitize.ts';
import { layoutChunks } from './layout-chunks.ts';
import { sizeOfChars } from '../../../../shared/domain/clip.ts';
import { CompatPanel } from '../qa/CompatPanel.tsx';

const FORMATS: { format: BodyFormat; label: string; key: string }[] = [
  { format: 'html', label: 'HTML', key: '1' },
  { format: 'text', label: 'Text', key: '2' },
  { format: 'raw', label: 'Raw', key: '3' },
];

const TOO_COMPLEX: Record<string, string> = {
  'too-large': 'is larger than',
  'too-many-elements': 'has more elements than',
  'too-deep': 'is nested deeper than',
};

function HtmlTooComplex({ reason, email }: { reason: string; email: Email }) {
  const setFormat = useStore((s) => s.setFormat);
  return (
    <div className="html-refused" role="status">
      <p>
        This email’s HTML {TOO_COMPLEX[reason] ?? 'exceeds'} Inbox Desk shows safely, so it is not rendered: a message
        built like this can freeze a mail client.
      </p>
      <div className="form-actions">
        {email.has_text && (
          <button type="button" onClick={() => void setFormat('text')}>
            Show the text version (2)
          </button>
        )}
        <button type="button" onClick={() => void setFormat('raw')}>
          Show the raw message (3)
        </button>
      </div>
    </div>
  );
}

/**
 * An HTML body in the frame. Without an email (the reader closed, or showing
 * text) the frame stays, hidden and blank, so that opening the next HTML email
 * does not wait for a new frame's document to load.
 */
function HtmlBody({ html, email }: { html: string; email: Email | null }) {
  const id = email?.id ?? '';
  const previewWidth = useStore((s) => s.previewWidth);
  const previewDark = useStore((s) => s.previewDark);
  const allowRemote = useStore((s) => Boolean(s.remoteAllowed[id]));
  const allow = useStore((s) => s.allowRemote);
  const inline = useStore((s) => s.inlineImages[id]);
  const loadInline = useStore((s) => s.loadInlineImages);
  const wantsInline = useMemo(() => hasInlineImages(html), [html]);
  useEffect(() => {
    if (wantsInline && inline === undefined && id) void loadInline(id);
  }, [wantsInline, inline, loadInline, id]);
  const sanitized = useSanitized(html, allowRemote, inline);

  if (email && sanitized && !sanitized.ok) return <HtmlTooComplex reason={sanitized.reason} email={email} />;
  const clean = sanitized?.ok ? sanitized : null;
  // One shape whether or not the body is sanitized yet, so React keeps the frame: it outlives the email, blank meanwhile.
  return (
    <>
      {email && clean && clean.blockedRemote > 0 && !allowRemote && (
        <div className="remote-banner" role="status">
          {clean.blockedRemote} remote {clean.blockedRemote === 1 ? 'resource was' : 'resources were'} blocked to protect your privacy.
          <button type="button" onClick={allow}>
            Load remote content (i)
          </button>
        </div>
      )}
      {/* A frame's policy is fixed when it loads: a new one only when remote content is allowed. */}
      {email && (previewWidth !== 'full' || previewDark) && (
        <p className="preview-mode" role="status">
          Previewing as {PREVIEW_WIDTHS[previewWidth].label}
          {previewDark ? ', in a client’s dark mode' : ''} (w, D)
        </p>
      )}
      <EmailFrame key={allowRemote ? 'remote' : 'local'} clean={clean?.html ?? ''} allowRemote={allowRemote} hidden={!email} width={previewWidth} dark={previewDark} />
    </>
  );
}

const SANITIZE_AT_ONCE_CHARS = 20_000;

/**
 * The sanitized body: at once when it was sanitized ahead (a neighbour of the
 * last email) or is short; a long one in slices after the header has painted,
 * so that no key waits on it, its top shown as soon as the first slice is done.
 */
function useSanitized(html: string, allowRemote: boolean, inline: Record<string, string> | undefined): SanitizeOutcome | null {
  // A short email costs less to sanitize than a task's round trip: done at once.
  const ready = sanitizedAlready(html, { allowRemote, inline }) ?? (html.length < SANITIZE_AT_ONCE_CHARS ? sanitizeEmailHtmlCached(html, { allowRemote, inline }) : undefined);
  const [computed, setComputed] = useState<{ html: string; allowRemote: boolean; inline?: Record<string, string>; outcome: SanitizeOutcome } | null>(null);
  useEffect(() => {
    if (ready) return;
    const stop = new AbortController();
    const show = (outcome: SanitizeOutcome) => setComputed({ html, allowRemote, inline, outcome });
    // The top of the email shows after the first slice; the rest follows it.
    sanitizeInSlicesCached(html, { allowRemote, inline }, { signal: stop.signal, onFirstSlice: show }).then(show, () => undefined);
    return () => stop.abort();
  }, [html, allowRemote, inline, ready]);
  if (ready) return ready;
  return computed && computed.html === html && computed.allowRemote === allowRemote && computed.inline === inline ? computed.outcome : null;
}

/** Each @media rule's own condition, kept while the preview rewrites it. */
const originalMedia = new WeakMap<CSSMediaRule, string>();

/**
 * Shows the email as a client in dark mode would: its prefers-color-scheme
 * rules are answered as dark (a frame's media queries follow the app, not a
 * setting of its own), and the frame's defaults turn dark. Off, every rule
 * gets its own condition back.
 */
function previewColorScheme(doc: Document, dark: boolean): void {
  doc.documentElement.dataset.scheme = dark ? 'dark' : 'light';
  const walk = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof (doc.defaultView?.CSSMediaRule ?? CSSMediaRule)) {
        const media = rule as CSSMediaRule;
        const own = originalMedia.get(media) ?? media.media.mediaText;
        if (/prefers-color-scheme/i.test(own)) {
          originalMedia.set(media, own);
          media.media.mediaText = dark
            ? own.replace(/\(\s*prefers-color-scheme\s*:\s*dark\s*\)/gi, '(min-width: 0px)').replace(/\(\s*prefers-color-scheme\s*:\s*light\s*\)/gi, '(max-width: 0px)')
            : own;
        }
      }
      const children = (rule as { cssRules?: CSSRuleList }).cssRules;
      if (children) walk(children);
    }
  };
  for (const sheet of Array.from(doc.styleSheets)) {
    try {
      walk(sheet.cssRules);
    } catch {
      // A sheet the frame may not read (none today: every rule is the email's own, sanitized).
    }
  }
}

export type PreviewWidth = 'full' | 'tablet' | 'phone';
export const PREVIEW_WIDTHS: Record<PreviewWidth, { css: string; label: string }> = {
  full: { css: '100%', label: 'the full width' },
  tablet: { css: '768px', label: 'a tablet (768 px)' },
  phone: { css: '375px', label: 'a phone (375 px)' },
};

/** Shorter sanitized HTML than this is laid out in one go. */
const RENDER_AT_ONCE_CHARS = 30_000;

/**
 * One long-lived frame: each email replaces its body, so going to the next
 * email costs the email's own layout, not a new document. allow-same-origin
 * without allow-scripts: nothing in the email can run, and the app can still
 * write the body, size the frame and route link clicks to the system browser.
 * Links carry no href (sanitize.ts), so nothing in the email can navigate it.
 */
function EmailFrame({ clean, allowRemote, hidden, width, dark }: { clean: string; allowRemote: boolean; hidden: boolean; width: PreviewWidth; dark: boolean }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [loaded, setLoaded] = useState(false);
  // Where a link goes, shown while it is hovered or focused (a status line, as in a browser).
  const [linkTarget, setLinkTarget] = useState<string | null>(null);

  const fit = () => {
    const doc = frame.current?.contentDocument;
    if (doc && frame.current) frame.current.style.height = `${Math.max(120, doc.documentElement.scrollHeight + 8)}px`;
  };

  useLayoutEffect(() => {
    const doc = frame.current?.contentDocument;
    if (!loaded || !doc) return;
    if (clean.length < RENDER_AT_ONCE_CHARS) {
      doc.body.innerHTML = clean;
      fit();
      return;
    }
    // A long email goes in part by part, a task each: a task lays out only its part, and keys go between.
    const parsed = doc.createElement('template');
    parsed.innerHTML = clean;
    const [first = [], ...rest] = layoutChunks([...parsed.content.childNodes]);
    doc.body.replaceChildren(...first);
    fit();
    let stopped = false;
    void (async () => {
      for (const chunk of rest) {
        await nextTask();
        if (stopped) return;
        doc.body.append(...chunk);
        fit();
      }
    })();
    return () => {
      stopped = true;
    };
  }, [loaded, clean]);

  // Another width reflows the email, a client's dark mode restyles it: the frame takes its new
  // height. Neither fetches anything again.
  useLayoutEffect(() => {
    const doc = frame.current?.contentDocument;
    if (!doc || !frame.current) return;
    previewColorScheme(doc, dark);
    frame.current.style.height = `${Math.max(120, doc.documentElement.scrollHeight + 8)}px`;
  }, [width, dark, clean, loaded]);

  const onLoad = () => {
    const doc = frame.current?.contentDocument;
    if (!doc || !frame.current) return;
    const follow = (target: EventTarget | null) => {
      const link = (target as Element | null)?.closest?.('[data-href]');
      if (!link) return false;
      const href = link.getAttribute('data-href') ?? '';
      // A link that shows one site and goes to another, or to a name in another alphabet, asks first.
      const question = linkQuestion(link.textContent ?? '', href);
      if (question && !window.confirm(question)) return true;
      void call('openExternal', { url: href }).catch(() => undefined);
      return true;
    };
    doc.addEventListener('click', (event) => {
      if (follow(event.target)) event.preventDefault();
    });
    const show = (event: Event) => setLinkTarget((event.target as Element | null)?.closest?.('[data-href]')?.getAttribute('data-href') ?? null);
    doc.addEventListener('mouseover', show);
    doc.addEventListener('focusin', show);
    doc.addEventListener('mouseleave', () => setLinkTarget(null));
    doc.addEventListener('focusout', () => setLinkTarget(null));
    // Images (data: and, when allowed, remote) change the height as they arrive.
    doc.addEventListener('load', fit, true);
    // Shortcuts keep working after a click into the email: keys go on to the app.
    doc.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && follow(event.target)) {
        event.preventDefault();
        return;
      }
      const { key, ctrlKey, metaKey, altKey, shiftKey } = event;
      const forwarded = new KeyboardEvent('keydown', { key, ctrlKey, metaKey, altKey, shiftKey, cancelable: true });
      if (!window.dispatchEvent(forwarded)) event.preventDefault();
    });
    setLoaded(true);
  };

  return (
    <>
      <iframe
        ref={frame}
        className="html-body"
        title="Email content"
        sandbox="allow-same-origin"
        referrerPolicy="no-referrer"
        // A document of its own with its own CSP (src/renderer/email-frame*.html): no remote image before `i`.
        src={allowRemote ? 'email-frame-remote.html' : 'email-frame.html'}
        // A phone's or a tablet's width (the frame's own width: the email reflows as on that screen).
        style={{ width: PREVIEW_WIDTHS[width].css, maxWidth: width === 'full' ? '100%' : 'none' }}
        onLoad={onLoad}
        hidden={hidden}
      />
      {linkTarget && (
        <div className="link-status" role="status" aria-label="Link target">
          {linkTarget}
        </div>
      )}
    </>
  );
}

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

/** a, then a number: save any attachment of the open email. */
function saveNth(index: number): void {
  const { email, saveAttachment } = useStore.getState();
  const attachment = email?.attachments[index];
  if (!attachment) return;
  useStore.setState({ attachmentChooserOpen: false });
  void saveAttachment(attachment.id);
}

function AttachmentChooser() {
  const open = useStore((s) => s.attachmentChooserOpen);
  const email = useStore((s) => s.email);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      const n = Number(event.key);
      if (!Number.isInteger(n) || n < 1 || n > 9) return;
      event.preventDefault();
      saveNth(n - 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  if (!open || !email) return null;
  const close = () => useStore.setState({ attachmentChooserOpen: false });
  const save = saveNth;
  return (
    <Modal label="Save an attachment" onClose={close}>
      <ol className="chooser">
        {email.attachments.map((a, i) => (
          <li key={a.id}>
            <button type="button" onClick={() => save(i)}>
              <kbd>{i + 1}</kbd> {a.file_name} <small>({a.size_for_human || `${a.size_in_bytes} B`})</small>
            </button>
          </li>
        ))}
      </ol>
      <p className="hint">Press a number, or Esc.</p>
    </Modal>
  );
}

/** Bodies up to this size are read for a code and a link as they open; a longer one only when C or L asks. */
const INSIGHTS_MAX_CHARS = 300_000;

/** The verification code and the main link, on top of the email, each one key from the clipboard. */
function InsightsBar({ email, body }: { email: Email; body: EmailBody | null }) {
  const found = useMemo(() => (body && body.content.length <= INSIGHTS_MAX_CHARS ? insightsOf(email.subject, body) : null), [email.subject, body]);
  if (!found || (!found.code && !found.link)) return null;
  return (
    <div className="insights" role="group" aria-label="Found in this email">
      {found.code && (
        <span>
          Code <code>{found.code.code}</code> <kbd>C</kbd> copies
        </span>
      )}
      {found.link && (
        <span title={found.link.url}>
          Link “{found.link.text || new URL(found.link.url).host}” <kbd>L</kbd> copies
        </span>
      )}
    </div>
  );
}

/** The links and images main checked when asked (V): broken ones first, each with its status, redirects and time. */
function LinkReport({ emailId }: { emailId: string }) {
  const check = useStore((s) => s.linkCheck);
  if (!check || check.id !== emailId) return null;
  if (check.running) {
    return (
      <p className="link-report" role="status">
        Checking the links and images…
      </p>
    );
  }
  const broken = check.links.filter((l) => l.status === 0 || l.status >= 400).length;
  return (
    <section className="link-report" aria-label="Link check">
      <p role="status">
        {check.links.length === 0 ? 'This email has no web links or images.' : `${check.links.length} checked: ${broken} broken.`}
      </p>
      <table>
        <tbody>
          {check.links.map((link) => (
            <tr key={link.url} data-broken={link.status === 0 || link.status >= 400 || undefined}>
              <td>
                <span className={`verdict ${link.status === 0 || link.status >= 400 ? 'fail' : link.redirects.length > 0 ? 'warn' : 'pass'}`}>{link.status || 'error'}</span>
              </td>
              <td>
                {link.kind === 'image' ? 'image ' : ''}
                <span className="url">{link.url}</span>
                {link.redirects.length > 0 && <small> {link.redirects.join(', ')}</small>}
                {link.error && <small> {link.error}</small>}
              </td>
              <td>{link.ms} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

const VERDICT_LABEL = { pass: 'pass', warn: 'warn', fail: 'fail' } as const;

/** Pass / warn / fail for what the headers say of the sender (sender-checks.ts). */
function SenderChecks({ headers, email }: { headers: { name: string; value: string }[]; email: Email }) {
  const checks = useMemo(() => senderChecks(headers, { hasHtml: email.has_html, hasText: email.has_text }), [headers, email.has_html, email.has_text]);
  return (
    <table className="sender-checks" aria-label="Sender checks">
      <tbody>
        {checks.map((check) => (
          <tr key={check.name} data-verdict={check.verdict}>
            <th scope="row">{check.name}</th>
            <td>
              <span className={`verdict ${check.verdict}`}>{VERDICT_LABEL[check.verdict]}</span>
            </td>
            <td>{check.detail}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function MessageView() {
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
      {!openId && <p>Select an email and press Enter. Press ? for all shortcuts.</p>}
      <AttachmentChooser />
      {openId && error && <ErrorBanner error={error} onRetry={() => void openMessage(openId)} />}
      {openId && email && (
        <header className="message-header">
          <h2>{email.subject || '(no subject)'}</h2>
          <dl>
            <dt>From</dt>
            <dd>{email.sender.display_name ? `${email.sender.display_name} <${email.sender.email}>` : email.sender.email}</dd>
            <dt>To</dt>
            <dd>{email.inbox.email}</dd>
            {email.carbon_copies.length > 0 && (
              <>
                <dt>Cc</dt>
                <dd>{email.carbon_copies.map((cc) => (cc.display_name ? `${cc.display_name} <${cc.email}>` : cc.email)).join(', ')}</dd>
              </>
            )}
            <dt>Date</dt>
            <dd>
              <time dateTime={email.created_at} title={exactDate(email.created_at)}>
                {shortDate(email.created_at)}
              </time>
            </dd>
          </dl>
          <InsightsBar email={email} body={body} />
          <LinkReport emailId={email.id} />
          <CompatPanel emailId={email.id} />
          <div className="toolbar" role="toolbar" aria-label="Message actions">
            <div className="formats" role="tablist" aria-label="View as">
              {FORMATS.map(({ format: f, label, key }) => (
                <button
                  key={f}
                  type="button"
                  role="tab"
                  aria-selected={format === f && headers === null}
                  disabled={!formatAvailable(email, f)}
                  onClick={() => void setFormat(f)}
                >
                  {label} ({key})
                </button>
              ))}
              <button type="button" role="tab" aria-selected={headers !== null} onClick={() => void showHeaders()}>
                Headers (4)
              </button>
            </div>
            <button type="button" onClick={() => void toggleFavorite(email.id)}>
              {email.favorite ? '★ Unstar' : '☆ Star'} (s)
            </button>
            <button
              type="button"
              onClick={() => {
                askDeleteEmail();
              }}
            >
              Delete (#)
            </button>
            <button type="button" onClick={() => useStore.getState().ruleFromEmail(email)}>
              Rule from this email (R)
            </button>
            <button type="button" onClick={closeMessage}>
              Close (Esc)
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
        {openId && headers && email && <SenderChecks headers={headers} email={email} />}
        {openId && headers && (
          <table className="headers-view" aria-label="Headers">
            <tbody>
              {headers.map((h, i) => (
                <tr key={`${i}-${h.name}`}>
                  <th scope="row">{h.name}</th>
                  <td>{h.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {openId && loading && !body && !email?.has_html && <p className="empty">Loading…</p>}
        <HtmlBody html={showsHtml && body?.format === 'html' ? body.content : ''} email={showsHtml ? email : null} />
        {openId && !headers && body && body.format !== 'html' && <pre className={`plain ${body.format}`}>{body.content}</pre>}
        {openId && !headers && body && <ClipNotice body={body} />}
      </div>
    </section>
  );
}
