import { useStore } from '../../store.ts';

export function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type);
}

/**
 * Where focus belongs when nothing else has it: the view's own list (or the
 * open form). Focus never rests on <body>, so Tab and the keys carry on from
 * where the user is.
 */
export function focusHome(): void {
  const s = useStore.getState();
  const target =
    s.view === 'inbox'
      ? document.getElementById('email-list')
      : s.view === 'automations'
        ? (document.getElementById('automation-form') ?? document.getElementById('automation-list'))
        : // The form itself, not a field in it: g i and the other keys still work from there.
          document.getElementById('account-form');
  target?.focus({ preventScroll: true });
}

let focusCheck = false;
/** After whatever just happened, if focus fell to <body>, it goes home (one check per frame). */
export function keepFocus(): void {
  if (focusCheck) return;
  focusCheck = true;
  requestAnimationFrame(() => {
    focusCheck = false;
    if (!document.activeElement || document.activeElement === document.body) focusHome();
  });
}
