import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A real modal: the rest of the app is `inert` (App sets it while any modal is
 * open), focus starts inside and Tab cycles within, Esc and the close button
 * close it. It scrolls when the window is small.
 */
export function Modal({ label, onClose, children, className }: { label: string; onClose: () => void; children: ReactNode; className?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // A field if the dialog has one (the palette), else its first control.
    const first = box.current?.querySelector<HTMLElement>('input') ?? box.current?.querySelector<HTMLElement>('button, [tabindex="0"]');
    (first ?? box.current)?.focus();
    return () => previous?.focus();
  }, []);
  const trap = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !box.current) return;
    const focusable = [...box.current.querySelectorAll<HTMLElement>('input, button, select, [tabindex="0"]')].filter((el) => !el.hasAttribute('disabled'));
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div
        ref={box}
        className={`dialog ${className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        tabIndex={-1}
        onKeyDown={trap}
        onClick={(e) => e.stopPropagation()}
      >
        <div className="dialog-head">
          <h2>{label}</h2>
          <button type="button" className="dialog-close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
