import { CHAOS_OFF, chaosIsOn, describeChaos } from '../../../../shared/domain/chaos.ts';
import { useStore } from '../../store.ts';
import { bindingsOf, displayBinding } from '../commands/registry.ts';
import { CATCHER_COMMANDS } from './commands.ts';

const OFF = CATCHER_COMMANDS.find((command) => command.id === 'catcher.chaos-off')!;

/** While chaos is on, every view says so, and how to turn it off: the key the user has for it, from the registry. */
export function ChaosBanner() {
  const chaos = useStore((s) => s.accounts?.catcher.chaos);
  const keymap = useStore((s) => s.settings.keymap);
  const mac = useStore((s) => s.appInfo?.platform === 'darwin');
  const setChaos = useStore((s) => s.setChaos);
  if (!chaos || !chaosIsOn(chaos)) return null;
  const key = bindingsOf(OFF, keymap)[0];
  return (
    <div className="error-banner chaos" role="status" aria-label="Chaos is on">
      <span>
        <strong>Chaos is on:</strong> This computer’s SMTP answers {describeChaos(chaos)}.{chaos.pinned ? ' Pinned: it stays on after a restart.' : ''}
      </span>
      <button type="button" onClick={() => void setChaos({ ...CHAOS_OFF })}>
        Turn off{key ? ` (${displayBinding(key, mac)})` : ''}
      </button>
    </div>
  );
}
