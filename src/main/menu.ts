import { Menu } from 'electron';
import type { MenuKeys } from '../shared/contract.ts';
import { menuTemplate, type MenuActions } from './menu-template.ts';

/** Installs the app menu built by menu-template.ts; installed again whenever the keys beside its items change. */
export function installMenu(actions: MenuActions, isPackaged: boolean, keys: MenuKeys = {}): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(actions, { isPackaged, platform: process.platform, keys })));
}
