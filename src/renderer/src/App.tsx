import { lazy, Suspense, useEffect, useState } from 'react';
import type { MenuCommand, MenuKeys } from '../../shared/contract.ts';
import { CATCHER_ID } from '../../shared/domain/catcher.ts';
import { subscribe } from './bridge.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Modal } from './Modal.tsx';
import { CommandPalette } from './features/palette/CommandPalette.tsx';
import { ReleaseDialog } from './features/catcher/ReleaseDialog.tsx';
import { InboxView } from './features/inbox/InboxView.tsx';
import { COMMANDS, runCommand } from './features/commands/all.ts';
import { bindingsOf, displayBinding } from './features/commands/registry.ts';
import { useKeyboard } from './features/commands/useKeyboard.ts';
import { useKeyHints } from './features/commands/use-hints.ts';
import { useStore, type View } from './store.ts';
import { WatchBar } from './features/loop/WatchBar.tsx';
import { ChaosBanner } from './features/catcher/ChaosBanner.tsx';

// The first screen is the inbox: the rules and the settings load when first opened, not before it paints.
const loadAutomations = () => import('./features/automations/AutomationsView.tsx');
const loadSettings = () => import('./features/settings/SettingsView.tsx');
const AutomationsView = lazy(() => loadAutomations().then((m) => ({ default: m.AutomationsView })));
const SettingsView = lazy(() => loadSettings().then((m) => ({ default: m.SettingsView })));

/** What main's application menu asks for, as commands. */
const MENU_TO_COMMAND: Record<MenuCommand, string> = {
  refresh: 'inbox.refresh',
  'open-settings': 'app.go-settings',
  'open-automations': 'app.go-automations',
  'show-shortcuts': 'app.shortcuts',
  'new-address': 'loop.new-address',
};

/** The views, each with the command that goes there (its key, as the user has it, shown beside it). */
const VIEWS: { view: View; label: string; command: string }[] = [
  { view: 'inbox', label: 'Inbox', command: 'app.go-inbox' },
  { view: 'automations', label: 'Automations', command: 'app.go-automations' },
  { view: 'settings', label: 'Settings', command: 'app.go-settings' },
];

function Header() {
  const accounts = useStore((s) => s.accounts);
  const rate = useStore((s) => s.rateLimit);
  const view = useStore((s) => s.view);
  const { setView, switchAccount } = useStore.getState();
  const { keyHint } = useKeyHints();
  const active = accounts?.accounts.find((a) => a.id === accounts.activeId);
  return (
    <header className="app-header">
      <h1>Inbox Desk</h1>
      <nav aria-label="Views">
        {VIEWS.map((v) => (
          <button key={v.view} type="button" aria-current={view === v.view ? 'page' : undefined} onClick={() => setView(v.view)}>
            {v.label} {keyHint(v.command) && <kbd>{keyHint(v.command)}</kbd>}
          </button>
        ))}
      </nav>
      {accounts && (accounts.accounts.length > 0 || accounts.catcher.settings.enabled) && (
        <select aria-label="Account" value={accounts.activeId ?? ''} onChange={(e) => void switchAccount(e.target.value || null)}>
          <option value="">Demo (built-in)</option>
          {accounts.catcher.settings.enabled && <option value={CATCHER_ID}>This computer (catches your app’s mail)</option>}
          {accounts.accounts.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      )}
      {active?.transport === 'clear' && (
        <span className="badge error" title="Plain http://: the token and mail cross the network unencrypted.">
          not encrypted
        </span>
      )}
      {rate.limit !== null && rate.remaining !== null && (
        <span className="rate" title="The server's rate limit: Inbox Desk prefetches and polls only while enough are left.">
          {rate.remaining} of {rate.limit} requests left this minute
        </span>
      )}
      {rate.blockedUntil !== null && <RateWait until={rate.blockedUntil} />}
    </header>
  );
}

/** Main holds requests until the server's rate window opens again, rather than earn a 429: this says so, with the time left. */
function RateWait({ until }: { until: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.ceil((until - now) / 1000);
  if (seconds <= 0) return null;
  return (
    <span className="rate waiting" role="status">
      Waiting {seconds} s for the server’s rate limit; your place is kept.
    </span>
  );
}

/** One outage, one message, one countdown; it goes away by itself when the server answers again. */
function OutageBanner() {
  const outage = useStore((s) => s.outage);
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (!outage) return;
    const tick = () => setLeft(Math.max(0, Math.ceil((outage.retryAt - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 500);
    return () => clearInterval(timer);
  }, [outage]);
  if (!outage) return null;
  const what =
    outage.error.kind === 'rate-limited'
      ? 'The server’s rate limit is used up.'
      : outage.error.kind === 'server'
        ? outage.error.message
        : 'The server cannot be reached right now.';
  return (
    <div className="error-banner outage" role="alert" data-kind={outage.error.kind}>
      <span>
        {what} {left > 0 ? `Trying again in ${left} s.` : 'Trying again…'} Your place in the list is kept.
      </span>
      <button type="button" onClick={() => void useStore.getState().loadList({ fresh: true })}>
        Try now
      </button>
    </div>
  );
}

function DemoBanner() {
  const demo = useStore((s) => s.accounts?.demo);
  const catcher = useStore((s) => s.accounts?.catcher);
  const setView = useStore((s) => s.setView);
  const switchAccount = useStore((s) => s.switchAccount);
  const { withKey } = useKeyHints();
  if (!demo) return null;
  return (
    <div className="demo-banner" role="status">
      You are looking at demo data from the built-in reference service.{' '}
      {catcher?.smtp && (
        <>
          Your own app’s mail: send it to SMTP {catcher.smtp.host === '0.0.0.0' ? '127.0.0.1' : catcher.smtp.host}:{catcher.smtp.port} and{' '}
          <button type="button" onClick={() => void switchAccount(CATCHER_ID)}>
            see it on This computer
          </button>
          .{' '}
        </>
      )}
      To use your own team’s server, open{' '}
      <button type="button" onClick={() => setView('settings')}>
        {withKey('Settings', 'app.go-settings')}
      </button>{' '}
      and connect an account.
    </div>
  );
}

function Notices() {
  const notices = useStore((s) => s.notices);
  const dismiss = useStore((s) => s.dismiss);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div key={n.id} className={`notice ${n.tone}`} role={n.tone === 'error' ? 'alert' : 'status'}>
          {n.text}
          {n.action && (
            <button
              type="button"
              onClick={() => {
                n.action!.run();
                dismiss(n.id);
              }}
            >
              {n.action.label}
            </button>
          )}
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/** Every command by group, with its keys as the user has them (the registry, rebindable in Settings). */
function ShortcutsDialog() {
  const open = useStore((s) => s.shortcutsOpen);
  const toggle = useStore((s) => s.toggleShortcuts);
  const keymap = useStore((s) => s.settings.keymap);
  const platform = useStore((s) => s.appInfo?.platform);
  const { withKey } = useKeyHints();
  if (!open) return null;
  const groups = [...new Set(COMMANDS.map((command) => command.group))];
  return (
    <Modal label="Keyboard shortcuts" onClose={() => toggle(false)}>
      <p className="hint">Change any key in {withKey('Settings', 'app.go-settings')}.</p>
      <table>
        {groups.map((group) => (
          <tbody key={group}>
            <tr>
              <th colSpan={2} scope="colgroup">
                {group}
              </th>
            </tr>
            {COMMANDS.filter((command) => command.group === group).map((command) => {
              const bindings = bindingsOf(command, keymap);
              return (
                <tr key={command.id}>
                  <td>{bindings.length > 0 ? bindings.map((binding) => <kbd key={binding}>{displayBinding(binding, platform === 'darwin')}</kbd>) : <small>no key</small>}</td>
                  <td>{command.title}</td>
                </tr>
              );
            })}
          </tbody>
        ))}
      </table>
    </Modal>
  );
}

/** Leaving a rule with unsaved changes: save, discard, or keep editing. */
function DraftGuardDialog() {
  const guard = useStore((s) => s.leaveGuard);
  const resolve = useStore((s) => s.resolveGuard);
  if (!guard) return null;
  return (
    <Modal label="Unsaved changes" onClose={() => void resolve('keep')}>
      <p>“{guard.title}” has changes that are not saved.</p>
      <div className="form-actions">
        <button type="button" onClick={() => void resolve('save')}>
          Save
        </button>
        <button type="button" onClick={() => void resolve('discard')}>
          Discard
        </button>
        <button type="button" onClick={() => void resolve('keep')}>
          Keep editing
        </button>
      </div>
    </Modal>
  );
}

/** Only a downloaded version is news; the app restarts only when asked to. */
function UpdateBanner() {
  const update = useStore((s) => s.update);
  if (update?.state !== 'ready') return null;
  return (
    <div className="demo-banner update-banner" role="status">
      Version {update.version} is ready: restart to update.{' '}
      <button type="button" onClick={() => useStore.getState().installUpdate()}>
        Restart now
      </button>
    </div>
  );
}

export function App() {
  const view = useStore((s) => s.view);
  const theme = useStore((s) => s.settings.theme);
  useKeyboard();

  useEffect(() => {
    const { bootstrap, setAccounts } = useStore.getState();
    void bootstrap();
    const stops = [
      subscribe('accountsChanged', (state) => setAccounts(state)),
      subscribe('rateLimit', (rateLimit) => useStore.setState({ rateLimit })),
      subscribe('updateStatus', (update) => useStore.setState({ update })),
      subscribe('listPolled', ({ query, page }) => useStore.getState().mergePolled(query, page)),
      subscribe('deleteFailed', ({ id, error, kind }) =>
        kind === 'automation' ? useStore.getState().restoreRule(id, error) : kind === 'all' ? useStore.getState().deleteAllFailed(id, error) : useStore.getState().restoreDeleted(id, error),
      ),
      subscribe('deleteSettled', ({ id, kind }) => (kind === 'automation' ? useStore.getState().ruleDeleteSettled(id) : useStore.getState().deleteSettled(id, kind))),
      subscribe('menuCommand', (command) => runCommand(MENU_TO_COMMAND[command])),
      subscribe('loopChanged', (state) => useStore.getState().setLoop(state)),
      subscribe('watchCaught', (caught) => useStore.getState().watchCaught(caught)),
    ];
    // Once the first screen is up, the other views load in the background: g a and g s find them there.
    const preload = setTimeout(() => void Promise.all([loadAutomations(), loadSettings()]).catch(() => undefined), 1000);
    // Main polls for new mail only while the window can be seen.
    const visibility = () => useStore.getState().watchList();
    document.addEventListener('visibilitychange', visibility);
    return () => {
      clearTimeout(preload);
      stops.forEach((stop) => stop());
      document.removeEventListener('visibilitychange', visibility);
    };
  }, []);

  // The menu's items show the keys the registry and the user's keymap give them: main builds it again.
  const keymap = useStore((s) => s.settings.keymap);
  useEffect(() => {
    const keys: MenuKeys = {};
    for (const [menu, id] of Object.entries(MENU_TO_COMMAND) as [MenuCommand, string][]) {
      const command = COMMANDS.find((c) => c.id === id);
      keys[menu] = command ? (bindingsOf(command, keymap)[0] ?? null) : null;
    }
    useStore.getState().setMenuKeys(keys);
  }, [keymap]);

  // While a modal is open, everything behind it is inert: no clicks, no focus, no keys.
  const modal = useStore((s) => s.shortcutsOpen || s.paletteOpen || s.attachmentChooserOpen || s.leaveGuard !== null || s.releaseFor !== null);
  return (
    <div className="app" data-theme={theme}>
      <div className="app-body" inert={modal}>
        <Header />
        <UpdateBanner />
        <OutageBanner />
        <ChaosBanner />
        <DemoBanner />
        <WatchBar />
        <main>
          {/* The inbox stays mounted, hidden, while another view shows: its list, its scroll and its
              email frame are there at once on the way back, and leaving it costs no teardown. */}
          <ErrorBoundary area="Inbox">
            <InboxView hidden={view !== 'inbox'} />
          </ErrorBoundary>
          {view !== 'inbox' && (
            <ErrorBoundary area={VIEWS.find((v) => v.view === view)!.label} resetKey={view}>
              <Suspense fallback={<p className="loading-view">Loading…</p>}>
                {view === 'automations' && <AutomationsView />}
                {view === 'settings' && <SettingsView />}
              </Suspense>
            </ErrorBoundary>
          )}
        </main>
        <Notices />
      </div>
      <ErrorBoundary area="The shortcuts">
        <ShortcutsDialog />
      </ErrorBoundary>
      <ErrorBoundary area="The command palette">
        <CommandPalette />
      </ErrorBoundary>
      <DraftGuardDialog />
      <ErrorBoundary area="Send to a real inbox">
        <ReleaseDialog />
      </ErrorBoundary>
    </div>
  );
}
