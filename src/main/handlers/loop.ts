/** The tester's loop: a fresh address watched, the newest code copied (tester-loop.ts holds the loop). */
import { CATCHER_ID } from '../../shared/domain/catcher.ts';
import { domainOf } from '../../shared/domain/tester-loop.ts';
import type { DesktopPort, HandlerDeps, HandlerTable, MailPort } from './context.ts';
import { TesterLoop } from '../tester-loop.ts';
import { realTimer } from '../timer.ts';
import type { HandlerContext } from './context.ts';

export type LoopHandlers = Pick<HandlerTable, 'newAddress' | 'stopWatch' | 'copyNewestCode' | 'getLoopState'>;

/** The loop on the open account: its pattern (the catcher's, the account's, or its newest email's domain), the desktop's clipboard and notifications. */
export function testerLoop(context: HandlerContext, deps: Pick<MailPort, 'catcher'> & Pick<DesktopPort, 'copyText' | 'notify' | 'shortcuts' | 'onLoopState'> & Pick<HandlerDeps, 'setTimer'>, refreshList: () => void): TesterLoop {
  const { accounts, session, emit } = context;
  /** Domains learnt from a server's mail, per account: asked once, not at every N (the rate budget is the user's). */
  const learnt = new Map<string, string>();
  return new TesterLoop({
    withClient: context.withClient,
    isLocal: () => session.isLocal,
    rate: () => session.rateLimit,
    addressPattern: async (client) => {
      const id = accounts.activeId;
      if (id === CATCHER_ID) return deps.catcher?.state.settings.addressPattern ?? null;
      const own = id === null ? '' : (accounts.summaries().find((a) => a.id === id)?.addressPattern ?? '');
      if (own !== '') return own;
      // The seed's service and MailCare take any address at their domain: the newest email's inbox says which.
      const key = id ?? 'demo';
      if (!learnt.has(key)) {
        const newest = (await client.listEmails({ limit: 1 })).data[0];
        const domain = newest ? domainOf(newest.inbox.email) : null;
        if (domain) learnt.set(key, domain);
      }
      return learnt.has(key) ? `{random}@${learnt.get(key)}` : null;
    },
    copyText: (text) => deps.copyText?.(text),
    onState: (state) => {
      emit('loopChanged', state);
      deps.onLoopState?.(state);
    },
    onCaught: (caught) => emit('watchCaught', caught),
    notify: deps.notify,
    notifyWanted: () => accounts.settings.notifyNewMail,
    shortcuts: deps.shortcuts,
    refreshList,
    setTimer: deps.setTimer ?? realTimer,
    now: Date.now,
  });
}

export function loopHandlers(loop: TesterLoop): LoopHandlers {
  return {
    newAddress: () => loop.newAddress(),
    stopWatch: async ({ address }) => {
      loop.stopWatch(address);
      return loop.state;
    },
    copyNewestCode: async () => ({ copied: loop.copyNewest() }),
    getLoopState: async () => loop.state,
  };
}
