import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../shared/contract.ts';

/** The usual app menu; app-specific items send commands to the renderer. */
export function installMenu(send: (command: MenuCommand) => void, isPackaged: boolean): void {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
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
        ...(isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      ],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: 'Keyboard shortcuts', accelerator: 'Shift+/', click: () => send('show-shortcuts') }] },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
