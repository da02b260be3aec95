/**
 * The tray icon (the menu bar on macOS): the newest code beside it and in its
 * tooltip, and a menu to copy it, make a new address, show or quit the app.
 * What it shows is decided in shared/domain/tester-loop.ts (trayView); this
 * is the thin glue over Electron's Tray and Menu, handed in by index.ts.
 */
import { trayView, type LoopState, type TrayView } from '../shared/domain/tester-loop.ts';

export interface TrayLike {
  setToolTip(text: string): void;
  setTitle(title: string): void;
  setContextMenu(menu: unknown): void;
  destroy(): void;
}

export type TrayActions = Record<Exclude<TrayView['items'][number]['id'], 'note'>, () => void>;

export interface SystemTray {
  show(state: LoopState): void;
  destroy(): void;
}

export function systemTray(
  electron: { make: () => TrayLike; menu: (items: { label: string; enabled: boolean; click?: () => void; type?: 'separator' }[]) => unknown },
  actions: TrayActions,
): SystemTray {
  let tray: TrayLike | null = null;
  let shown = '';
  return {
    show(state) {
      const view = trayView(state);
      const key = JSON.stringify(view);
      if (key === shown) return;
      shown = key;
      if (!tray) {
        // Made on first use: a platform without a tray throws here, and the app goes on without one.
        try {
          tray = electron.make();
        } catch {
          return;
        }
      }
      tray.setToolTip(view.tooltip);
      tray.setTitle(view.title);
      tray.setContextMenu(
        electron.menu(
          view.items.map((item) => ({
            label: item.label,
            enabled: item.enabled,
            ...(item.id === 'note' ? {} : { click: actions[item.id] }),
          })),
        ),
      );
    },
    destroy() {
      tray?.destroy();
      tray = null;
    },
  };
}
