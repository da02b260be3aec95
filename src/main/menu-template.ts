/**
 * The app menu as plain data, so tests can read it. Accelerators always carry
 * a modifier: single keys (`?`, `j`, `s`) belong to the renderer, which knows
 * when a text field has focus (a menu accelerator would fire while typing,
 * Electron issue 21815). `?` is only shown next to its item, not registered.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../shared/contract.ts';

export interface MenuActions {
  send: (command: MenuCommand) => void;
  showAbout: () => void;
  reportProblem: () => void;
}

export function menuTemplate(actions: MenuActions, options: { isPackaged: boolean; platform: string }): MenuItemConstructorOptions[] {
  const isMac = options.platform === 'darwin';
  const { send } = actions;
  return [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'New address to test with', accelerator: 'Shift+N', registerAccelerator: false, click: () => send('new-address') },
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
        { label: 'Keyboard shortcuts', accelerator: 'Shift+/', registerAccelerator: false, click: () => send('show-shortcuts') },
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
