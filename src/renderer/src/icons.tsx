/** Small inline icons: no emoji font is needed to show them. */
export function PaperclipIcon({ label }: { label?: string }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="12" height="12" role={label ? 'img' : undefined} aria-label={label} aria-hidden={label ? undefined : true}>
      <path d="M11 4.5 5.6 9.9a1.3 1.3 0 0 0 1.8 1.8l5.7-5.6a2.6 2.6 0 0 0-3.7-3.7L3.7 8.1a3.9 3.9 0 0 0 5.5 5.5L13.5 9.3" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
