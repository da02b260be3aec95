import { BrowserWindow, protocol, screen } from 'electron';
import type { WindowState } from './account/accounts.ts';
import { APP_ORIGIN, APP_SCHEME, APP_SCHEME_PRIVILEGES, fitToDisplays, windowOptions } from './security.ts';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES },
  ]);
}

export function createMainWindow(options: {
  preloadPath: string;
  devServerUrl?: string;
  isPackaged: boolean;
  iconPath?: string;
  state: WindowState | null;
  onStateChange: (state: WindowState) => void;
  /** Asked before the window closes; false keeps it open. */
  confirmClose?: () => boolean;
}): BrowserWindow {
  const window = new BrowserWindow(
    windowOptions(
      options.preloadPath,
      fitToDisplays(options.state, screen.getAllDisplays().map((d) => d.workArea)),
      { isPackaged: options.isPackaged, iconPath: options.iconPath },
    ),
  );
  if (options.state?.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());

  let timer: NodeJS.Timeout | undefined;
  const remember = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (window.isDestroyed()) return;
      const bounds = window.getNormalBounds();
      options.onStateChange({ ...bounds, maximized: window.isMaximized() });
    }, 400);
  };
  window.on('resize', remember);
  window.on('move', remember);
  window.on('maximize', remember);
  window.on('unmaximize', remember);
  window.on('closed', () => clearTimeout(timer));
  window.on('close', (event) => {
    if (options.confirmClose && !options.confirmClose()) event.preventDefault();
  });

  void window.loadURL(options.devServerUrl ?? `${APP_ORIGIN}/index.html`);
  return window;
}
