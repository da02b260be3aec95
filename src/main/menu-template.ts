/**
 * The app menu as plain data, so tests can read it. Accelerators always carry
 * a modifier: single keys (`?`, `j`, `s`) belong to the renderer, which knows
 * when a text field has focus (a menu accelerator would fire while typing,
 * Electron issue 21815). `?` is only shown next to its item, not registered.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand, MenuKeys } from '../shared/contract.ts';

export interface MenuActions {
  send: (command: MenuCommand) => void;
  showAbout: () => void;
  reportProblem: () => void;
}

const NAMED: Record<string, string> = {
  Space: 'Space', Enter: 'Enter', Escape: 'Esc', Delete: 'Delete', Backspace: 'Backspace', Tab: 'Tab', Home: 'Home', End: 'End',
  PageUp: 'PageUp', PageDown: 'PageDown', ArrowUp: 'Up', ArrowDown: 'Down', ArrowLeft: 'Left', ArrowRight: 'Right',
};

/**
 * A registry chord (`N`, `?`, `Mod+K`, `Shift+Space`) as Electron writes an
 * accelerator; null for what a menu cannot show (a two-step `g i`).
 */
export function acceleratorOf(chord: string): string | null {
  if (chord.includes(' ')) return null;
  const parts = chord.split('+');
  // `Mod++` (the plus key) splits into an empty last part.
  const key = chord.endsWith('++') || chord === '+' ? '+' : parts.pop()!;
  const modifiers = (chord.endsWith('++') ? parts.slice(0, -1) : parts).filter(Boolean).map((m) => (m === 'Mod' ? 'CmdOrCtrl' : m));
  let name: string | undefined;
  if (key === '+') name = 'Plus';
  else if (key.length === 1 && /[a-z]/i.test(key)) {
    // An upper-case letter is typed with Shift (with Ctrl or ⌘ the registry writes every letter upper-case).
    if (key !== key.toLowerCase() && !modifiers.includes('Shift') && !modifiers.includes('CmdOrCtrl')) modifiers.push('Shift');
    name = key.toUpperCase();
  } else if (key.length === 1) name = key;
  else name = NAMED[key] ?? (/^F\d{1,2}$/.test(key) ? key : undefined);
  return name === undefined ? null : [...modifiers, name].join('+');
}

export function menuTemplate(actions: MenuActions, options: { isPackaged: boolean; platform: string; keys?: MenuKeys }): MenuItemConstructorOptions[] {
  const isMac = options.platform === 'darwin';
  const { send } = actions;
  /** The renderer's key for a command, shown beside its item and never registered (single keys are the renderer's). */
  const shown = (command: MenuCommand): Partial<MenuItemConstructorOptions> => {
    const chord = options.keys?.[command];
    const accelerator = chord ? acceleratorOf(chord) : null;
    return accelerator ? { accelerator, registerAccelerator: false } : {};
  };
  return [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'New address to test with', ...shown('new-address'), click: () => send('new-address') },
        { type: 'separator' },
        { label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => send('open-settings') },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { label: 'Refresh', accelerator: 'CmdOrCtrl+R', click: () => send('refresh') },
        { label: 'Automations', accelerator: 'CmdOrCtrl+Shift+A', click: () => send('open-automations') },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(options.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Keyboard shortcuts', ...shown('show-shortcuts'), click: () => send('show-shortcuts') },
        { label: 'Report a problem…', click: actions.reportProblem },
        // macOS has About in the app menu; Windows and Linux get it here.
        ...(isMac ? [] : [{ type: 'separator' as const }, { label: 'About Inbox Desk', click: actions.showAbout }]),
      ],
    },
  ];
}

const MODIFIER = /\b(?:CmdOrCtrl|CommandOrControl|Cmd|Command|Ctrl|Control|Alt|Option|AltGr|Super|Meta)\+/i;

/** Accelerators that would be registered with the system and have no real modifier (Shift alone is none). */
export function bareAccelerators(template: MenuItemConstructorOptions[]): string[] {
  const found: string[] = [];
  const walk = (items: MenuItemConstructorOptions[]) => {
    for (const item of items) {
      if (typeof item.accelerator === 'string' && item.registerAccelerator !== false && !MODIFIER.test(item.accelerator)) found.push(item.accelerator);
      if (Array.isArray(item.submenu)) walk(item.submenu);
    }
  };
  walk(template);
  return found;
}

/** What the About panel shows (app.setAboutPanelOptions). */
export function aboutPanelOptions(app: { name: string; version: string; license: string; homepage: string; electron: string; iconPath?: string }) {
  return {
    applicationName: app.name,
    applicationVersion: app.version,
    version: `Electron ${app.electron}`,
    copyright: `${app.license} License`,
    credits: app.homepage,
    website: app.homepage,
    ...(app.iconPath ? { iconPath: app.iconPath } : {}),
  };
}
