import { useStore } from '../../store.ts';
import { keyHint, withKey } from './hints.ts';

/** hints.ts for a component: it renders again when the user rebinds a key. */
export function useKeyHints(): { withKey: typeof withKey; keyHint: typeof keyHint } {
  useStore((s) => s.settings.keymap);
  useStore((s) => s.appInfo?.platform);
  return { withKey, keyHint };
}
