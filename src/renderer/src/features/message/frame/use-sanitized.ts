import { useEffect, useState } from 'react';
import { sanitizedAlready, sanitizeEmailHtmlCached, sanitizeInSlicesCached, type SanitizeOutcome } from '../sanitize.ts';

const SANITIZE_AT_ONCE_CHARS = 20_000;

/**
 * The sanitized body: at once when it was sanitized ahead (a neighbour of the
 * last email) or is short; a long one in slices after the header has painted,
 * so that no key waits on it, its top shown as soon as the first slice is done.
 */
export function useSanitized(html: string, allowRemote: boolean, inline: Record<string, string> | undefined): SanitizeOutcome | null {
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

