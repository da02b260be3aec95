/**
 * A check's report with lines to show (H, A): it takes the keyboard once it is
 * there (the first line's button), ↓/↑ move between line buttons, and the
 * button in use stays in sight when the source opens above the findings.
 */
import { useEffect, type KeyboardEvent, type RefObject } from 'react';

/** `orPanel`: with no line to focus, the panel itself takes the keyboard. */
export function useFindingsKeys(listRef: RefObject<HTMLElement | null>, ready: boolean, line: number | null, orPanel = false): (event: KeyboardEvent) => void {
  useEffect(() => {
    if (!ready) return;
    const first = listRef.current?.querySelector<HTMLElement>('button[data-first], [tabindex="-1"]');
    (first ?? (orPanel ? listRef.current : null))?.focus();
  }, [ready, listRef, orPanel]);
  useEffect(() => {
    const active = document.activeElement;
    if (line !== null && active instanceof HTMLElement && listRef.current?.contains(active)) active.scrollIntoView({ block: 'nearest' });
  }, [line, listRef]);
  return (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('.finding button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at === -1) return;
    event.preventDefault();
    event.stopPropagation();
    buttons[Math.min(buttons.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)))]?.focus();
  };
}
