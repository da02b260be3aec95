/**
 * The desktop as Electron gives it: the native dialogs, the shell, the
 * clipboard, notifications, and main's hidden windows (the printer's page and
 * the inspector's). What to do with them is decided in app-wiring.ts and the
 * handlers, which run without Electron; this module only builds the parts.
 */
import { BrowserWindow, clipboard, dialog, Notification, shell } from 'electron';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DesktopLike } from './app-wiring.ts';
import type { BenchPort } from './handlers.ts';
import { openHidden } from './hidden-window.ts';

/** The isolated world main's checks run in, beside an inspected email (never its own). */
const INSPECTOR_WORLD = 4242;
/** An inspected email is laid out this tall at most (a 2 MB newsletter would be a 100,000 px screenshot). */
const INSPECTOR_MAX_HEIGHT = 6000;

/** Shows `document` in one of main's hidden windows: from a temporary file, gone once loaded. */
async function loadDocument(window: BrowserWindow, document: string, kind: 'print' | 'inspect', tempDir: string): Promise<void> {
  const file = join(tempDir, `inbox-desk-${kind}-${randomUUID()}.html`);
  await writeFile(file, document);
  try {
    await window.loadFile(file);
  } finally {
    void rm(file, { force: true });
  }
}

/** A desktop notification with one button (Copy) where the system draws buttons; elsewhere a click is the button, and the body says so. */
function notification(platform: NodeJS.Platform): DesktopLike<BrowserWindow>['notification'] {
  if (!Notification.isSupported()) return undefined;
  const buttons = platform === 'darwin' || platform === 'win32';
  return ({ title, body, onClick, action }) => {
    const shown = new Notification({
      title,
      body: action && !buttons ? `${body}\nClick to copy it.` : body,
      silent: false,
      ...(action && buttons ? { actions: [{ type: 'button' as const, text: action.label }] } : {}),
    });
    shown.on('click', () => {
      if (action && !buttons) action.run();
      onClick();
    });
    shown.on('action', () => action?.run());
    shown.show();
  };
}

export function electronDesktop(options: { mainWindow: () => BrowserWindow | null; tempDir: string; downloadsDir: string }): DesktopLike<BrowserWindow> {
  return {
    mainWindow: options.mainWindow,
    dialog,
    shell,
    clipboard,
    notification: notification(process.platform),
    downloadsDir: options.downloadsDir,
    writeFile,
    printer: {
      // A window of its own, never shown: no scripts, no preload, the document's own policy; the guards apply to it too.
      open: (document) =>
        openHidden(
          () => new BrowserWindow({ show: false, webPreferences: { javascript: false, sandbox: true, contextIsolation: true, nodeIntegration: false } }),
          async (window) => {
            await loadDocument(window, document, 'print', options.tempDir);
            return {
              print: () => new Promise<boolean>((resolve) => window.webContents.print({ printBackground: true }, (printed) => resolve(printed))),
              pdf: () => window.webContents.printToPDF({ printBackground: true }),
              close: () => window.destroy(),
            };
          },
        ),
    },
  };
}

/**
 * Main's inspector: a window never shown, drawn off screen, sandboxed, no
 * preload. The document's policy lets none of its own scripts run (it is
 * sanitized besides); main's run in an isolated world beside it. The guards apply.
 */
export function electronInspector(tempDir: string): NonNullable<BenchPort['inspector']> {
  return (document, width) => {
    const make = () =>
      new BrowserWindow({
        show: false,
        width,
        height: 800,
        useContentSize: true,
        webPreferences: { offscreen: true, sandbox: true, contextIsolation: true, nodeIntegration: false },
      });
    return openHidden(make, async (window) => {
      await loadDocument(window, document, 'inspect', tempDir);
      const evaluate = (code: string) => window.webContents.executeJavaScriptInIsolatedWorld(INSPECTOR_WORLD, [{ code }]);
      // As tall as the email (up to a limit): contrast is judged, and a screenshot taken, on what is laid out.
      const height = Number(await evaluate('document.documentElement.scrollHeight')) || 800;
      window.setContentSize(width, Math.min(INSPECTOR_MAX_HEIGHT, Math.max(200, height)));
      await evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
      return {
        evaluate,
        screenshot: async () => (await window.webContents.capturePage()).toPNG(),
        close: () => window.destroy(),
      };
    });
  };
}
