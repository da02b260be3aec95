import { Menu } from 'electron';
import { menuTemplate, type MenuActions } from './menu-template.ts';

/** Installs the app menu built by menu-template.ts. */
export function installMenu(actions: MenuActions, isPackaged: boolean): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(actions, { isPackaged, platform: process.platform })));
}
