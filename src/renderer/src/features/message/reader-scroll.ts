import { useStore } from '../../store.ts';

/** The reader's scrolling box, when an email is open. */
function readerBox(): HTMLElement | null {
  return useStore.getState().openId ? document.querySelector<HTMLElement>('.message-pane') : null;
}

/** Scrolls the open email; answers false when there is nothing (more) to scroll that way. */
export function scrollReader(kind: 'page-down' | 'page-up' | 'line-down' | 'line-up' | 'top' | 'bottom'): boolean {
  const box = readerBox();
  if (!box) return false;
  const page = Math.max(40, box.clientHeight - 48);
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 2;
  if (kind === 'page-down' && atEnd) return false;
  const by = { 'page-down': page, 'page-up': -page, 'line-down': 40, 'line-up': -40, top: -box.scrollHeight, bottom: box.scrollHeight }[kind];
  box.scrollBy({ top: by });
  return true;
}
