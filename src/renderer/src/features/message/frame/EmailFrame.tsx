/**
 * The email frame: one long-lived document whose body each email replaces,
 * its preview widths and a client's dark mode. Its link clicks go to the
 * store (openLink), never to the bridge.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { useStore } from '../../../store.ts';
import { nextTask } from '../sanitize.ts';
import { layoutChunks } from '../layout-chunks.ts';
import { previewColorScheme } from './color-scheme.ts';

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
export function EmailFrame({ clean, allowRemote, hidden, width, dark }: { clean: string; allowRemote: boolean; hidden: boolean; width: PreviewWidth; dark: boolean }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [loaded, setLoaded] = useState(false);
  // Where a link goes, shown while it is hovered or focused (a status line, as in a browser).
  const [linkTarget, setLinkTarget] = useState<string | null>(null);

  const fit = () => {
    const root = frame.current?.contentDocument?.documentElement;
    if (root && frame.current) frame.current.style.height = `${Math.max(120, root.scrollHeight + 8)}px`;
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
  // height. Neither fetches anything again. A new email is measured once, by the effect above,
  // unless the dark mode restyles it (a trace of j showed its document laid out twice in the key's task).
  const measuredWidth = useRef<PreviewWidth | null>(null);
  useLayoutEffect(() => {
    const doc = frame.current?.contentDocument;
    // Not before the frame's own document has loaded: until then contentDocument may be one
    // the parser has not given an <html> yet (found by the fuzzer, case 2911-34).
    if (!loaded || !doc?.documentElement) return;
    const restyled = previewColorScheme(doc, dark);
    if (restyled || measuredWidth.current !== width) fit();
    measuredWidth.current = width;
  }, [width, dark, clean, loaded]);

  const onLoad = () => {
    const doc = frame.current?.contentDocument;
    if (!doc || !frame.current) return;
    const follow = (target: EventTarget | null) => {
      const link = (target as Element | null)?.closest?.('[data-href]');
      if (!link) return false;
      const href = link.getAttribute('data-href') ?? '';
      // In the system browser; one that shows one site and goes to another, or to a name in another alphabet, asks first.
      useStore.getState().openLink(link.textContent ?? '', href);
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

