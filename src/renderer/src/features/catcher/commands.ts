import { CATCHER_ID } from '../../../../shared/domain/catcher.ts';
import { CHAOS_OFF, chaosIsOn } from '../../../../shared/domain/chaos.ts';
import { useStore } from '../../store.ts';
import type { Command } from '../commands/registry.ts';

const s = () => useStore.getState();
const chaos = () => s().accounts?.catcher.chaos;

/** This computer: chaos off in one key, wherever you are, while it is on. */
export const CATCHER_COMMANDS: Command[] = [
  {
    id: 'catcher.chaos-off',
    title: 'Turn chaos off (This computer’s SMTP answers normally again)',
    group: 'Tester’s bench',
    keys: ['X'],
    when: () => {
      const current = chaos();
      return current !== undefined && chaosIsOn(current);
    },
    run: () => void s().setChaos({ ...CHAOS_OFF }),
  },
  {
    id: 'catcher.release',
    title: 'Release: send this email to a real inbox (through your relay, to your allowlist)',
    group: 'Tester’s bench',
    keys: ['F'],
    when: (c) => c.view === 'inbox' && c.readerOpen && s().accounts?.activeId === CATCHER_ID,
    run: () => {
      const id = s().openId;
      if (id) s().openRelease(id);
    },
  },
];
