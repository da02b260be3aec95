import { useEffect, useMemo } from 'react';
import type { Email } from '../../../../shared/domain/email.ts';
import { useStore } from '../../store.ts';
import { EmailFrame, PREVIEW_WIDTHS } from './frame/EmailFrame.tsx';
import { useSanitized } from './frame/use-sanitized.ts';
import { hasInlineImages } from './sanitize.ts';
import { useKeyHints } from '../commands/use-hints.ts';

const TOO_COMPLEX: Record<string, string> = {
  'too-large': 'is larger than',
  'too-many-elements': 'has more elements than',
  'too-deep': 'is nested deeper than',
};

function HtmlTooComplex({ reason, email }: { reason: string; email: Email }) {
  const setFormat = useStore((s) => s.setFormat);
  const { withKey } = useKeyHints();
  return (
    <div className="html-refused" role="status">
      <p>
        This email’s HTML {TOO_COMPLEX[reason] ?? 'exceeds'} Inbox Desk shows safely, so it is not rendered: a message
        built like this can freeze a mail client.
      </p>
      <div className="form-actions">
        {email.has_text && (
          <button type="button" onClick={() => void setFormat('text')}>
            {withKey('Show the text version', 'reader.text')}
          </button>
        )}
        <button type="button" onClick={() => void setFormat('raw')}>
          {withKey('Show the raw message', 'reader.raw')}
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
export function HtmlBody({ html, email }: { html: string; email: Email | null }) {
  const id = email?.id ?? '';
  const previewWidth = useStore((s) => s.previewWidth);
  const { withKey } = useKeyHints();
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
            {withKey('Load remote content', 'reader.load-remote')}
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

