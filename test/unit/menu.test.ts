import { readFileSync } from 'node:fs';
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { aboutPanelOptions, acceleratorOf, bareAccelerators, menuTemplate } from '../../src/main/menu-template.ts';
import { PROJECT } from '../../src/main/project.ts';

const flatten = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
  items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])]);

describe('the app menu', () => {
  const actions = { send: vi.fn(), showAbout: vi.fn(), reportProblem: vi.fn() };

  it('shows the keys the renderer gives it beside their items, never registered: single keys belong to the renderer', () => {
    for (const platform of ['darwin', 'linux', 'win32']) {
      const template = menuTemplate(actions, { isPackaged: true, platform, keys: { 'show-shortcuts': '?', 'new-address': 'N' } });
      expect(bareAccelerators(template), platform).toEqual([]);
      const item = (label: string) => flatten(template).find((entry) => entry.label === label)!;
      expect(item('Keyboard shortcuts')).toMatchObject({ accelerator: '?', registerAccelerator: false });
      expect(item('New address to test with')).toMatchObject({ accelerator: 'Shift+N', registerAccelerator: false });
    }
    // Rebound by the user: the new key; a two-step key (or none) is not shown at all.
    const rebound = flatten(menuTemplate(actions, { isPackaged: true, platform: 'linux', keys: { 'new-address': 'Alt+n', 'show-shortcuts': 'g h' } }));
    expect(rebound.find((item) => item.label === 'New address to test with')).toMatchObject({ accelerator: 'Alt+N' });
    expect(rebound.find((item) => item.label === 'Keyboard shortcuts')!.accelerator).toBeUndefined();
    expect(bareAccelerators([{ label: 'x', accelerator: 'Shift+/' }, { label: 'y', accelerator: 'J' }])).toEqual(['Shift+/', 'J']);
  });

  it('writes a registry chord as Electron’s accelerator', () => {
    expect(['N', 'n', '?', '#', 'Mod+K', 'Mod+Shift+p', 'Shift+Space', 'ArrowDown', 'Escape', 'Delete', 'F5', 'Mod++', 'g i', 'Dead'].map(acceleratorOf)).toEqual([
      'Shift+N', 'N', '?', '#', 'CmdOrCtrl+K', 'CmdOrCtrl+Shift+P', 'Shift+Space', 'Down', 'Esc', 'Delete', 'F5', 'CmdOrCtrl+Plus', null, null,
    ]);
  });

  it('has About in Help on Windows and Linux (macOS keeps it in the app menu), and Report a problem everywhere', () => {
    for (const platform of ['linux', 'win32']) {
      const items = flatten(menuTemplate(actions, { isPackaged: true, platform }));
      items.find((item) => item.label === 'About Inbox Desk')!.click!({} as never, undefined, {} as never);
    }
    expect(actions.showAbout).toHaveBeenCalledTimes(2);
    const mac = flatten(menuTemplate(actions, { isPackaged: true, platform: 'darwin' }));
    expect(mac.some((item) => item.label === 'About Inbox Desk')).toBe(false);
    expect(mac.some((item) => item.role === 'appMenu')).toBe(true);
    mac.find((item) => item.label === 'Report a problem…')!.click!({} as never, undefined, {} as never);
    expect(actions.reportProblem).toHaveBeenCalledOnce();
  });

  it('offers DevTools only in development builds', () => {
    const hasDevTools = (isPackaged: boolean) => flatten(menuTemplate(actions, { isPackaged, platform: 'linux' })).some((item) => item.role === 'toggleDevTools');
    expect(hasDevTools(true)).toBe(false);
    expect(hasDevTools(false)).toBe(true);
  });

  it('names the version, license and address in the About panel, as package.json does', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string; license: string; homepage: string; bugs: { url: string } };
    expect(PROJECT).toEqual({ homepage: pkg.homepage, issues: pkg.bugs.url, license: pkg.license });
    const panel = aboutPanelOptions({ name: 'Inbox Desk', version: pkg.version, license: PROJECT.license, homepage: PROJECT.homepage, electron: process.versions.node, iconPath: '/icon.png' });
    // What a user reads in the panel, whichever of Electron's fields each platform shows.
    const shown = Object.values(panel).join('\n');
    for (const fact of ['Inbox Desk', pkg.version, pkg.license, pkg.homepage, process.versions.node]) expect(shown).toContain(fact);
    // Linux shows the icon only when it is named; no field is left empty.
    expect(panel.iconPath).toBe('/icon.png');
    expect(Object.values(panel).every((value) => typeof value === 'string' && value.trim() !== '')).toBe(true);
  });
});
