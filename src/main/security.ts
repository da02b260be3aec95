/**
 * Every security decision about windows, as plain functions and plain data,
 * so tests can run them against fakes of Electron's objects. window.ts only
 * wires them up. Types only from electron: nothing here needs it to run.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

/** The renderer is served from this custom origin, never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'inbox-desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * How Chromium treats app://: a standard, secure origin with no fetch() and no
 * CORS (the renderer asks main, never the network), and V8's code cache, so a
 * start after the first compiles none of the renderer's bundle again.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, codeCache: true } as const;

/**
 * The renderer makes no network requests (main does), so connect-src is
 * 'none', and the app's page loads no remote image either. Email HTML is
 * shown in a sandboxed frame that is a document of its own (EMAIL_FRAME_PATHS)
 * with its own policy: remote images only in the one the user asked for.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "frame-src 'self'",
  "child-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function windowOptions(
  preloadPath: string,
  bounds: Partial<{ x: number; y: number; width: number; height: number }> = {},
  options: { isPackaged: boolean; iconPath?: string } = { isPackaged: true },
): BrowserWindowConstructorOptions {
  return {
    // Windows and Linux show it in the title bar and task switcher; macOS uses the bundle's.
    ...(options.iconPath ? { icon: options.iconPath } : {}),
    width: bounds.width ?? 1280,
    height: bounds.height ?? 820,
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Inbox Desk',
    backgroundColor: '#1b1d21',
    autoHideMenuBar: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
      safeDialogs: true,
      // DevTools only in development builds.
      devTools: !options.isPackaged,
    },
  };
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A remembered window keeps its size; it keeps its position only while its
 * top-left corner is still on some display (a monitor may have gone).
 */
export function fitToDisplays(
  state: { x?: number; y?: number; width: number; height: number } | null,
  workAreas: Rect[],
): Partial<Rect> {
  if (!state) return {};
  const { x, y, width, height } = state;
  if (x === undefined || y === undefined) return { width, height };
  const onScreen = workAreas.some((a) => x >= a.x - 50 && y >= a.y - 50 && x < a.x + a.width - 50 && y < a.y + a.height - 50);
  return onScreen ? { x, y, width, height } : { width, height };
}

/** Links leave the app only for these schemes, and only through the bridge. */
const EXTERNAL_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
/** What a mailto: link may carry; `attach` and the like never reach the mail program. */
const MAILTO_FIELDS = new Set(['to', 'cc', 'bcc', 'subject', 'body']);

/**
 * The URL as the system browser should get it, or null when it must not
 * leave the app. Parsing and re-serialising (`new URL(u).href`) means the OS
 * never sees the raw string: no stray whitespace, tabs or backslash paths.
 */
export function normaliseExternalUrl(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (!EXTERNAL_SCHEMES.has(parsed.protocol)) return null;
  if (parsed.protocol === 'mailto:') {
    const kept: string[] = [];
    for (const [key, value] of new URLSearchParams(parsed.search)) {
      const field = key.toLowerCase();
      if (MAILTO_FIELDS.has(field)) kept.push(`${field}=${encodeURIComponent(value)}`);
    }
    return `mailto:${parsed.pathname}${kept.length > 0 ? `?${kept.join('&')}` : ''}`;
  }
  if (parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}

export function isSafeExternalUrl(url: string): boolean {
  return normaliseExternalUrl(url) !== null;
}

/** The email frame's documents (built from src/renderer/email-frame*.html): blank bodies the app writes into. */
export const EMAIL_FRAME_PATHS = ['/email-frame.html', '/email-frame-remote.html'] as const;

/** Documents a frame inside the app may hold: the email frame's own, or nothing. */
export function isInertFrameUrl(url: string, appOrigin: string = APP_ORIGIN): boolean {
  if (url === 'about:blank') return true;
  // app:// is no special scheme to URL: its origin reads "null", so the prefix is what is compared.
  if (!url.startsWith(`${appOrigin}/`) || !URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.search === '' && parsed.hash === '' && (EMAIL_FRAME_PATHS as readonly string[]).includes(parsed.pathname);
}

/** A frame may use the bridge when it is the app's own top-level page. */
export function isTrustedSender(frame: { url: string; parent: unknown } | null | undefined, devServerUrl?: string): boolean {
  if (!frame || frame.parent !== null) return false;
  if (!URL.canParse(frame.url)) return false;
  const origin = new URL(frame.url).origin;
  if (frame.url.startsWith(`${APP_ORIGIN}/`)) return true;
  return devServerUrl !== undefined && URL.canParse(devServerUrl) && origin === new URL(devServerUrl).origin;
}

/** The parts of Electron's WebContents the guards touch. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-frame-navigate', listener: (event: { preventDefault(): void; url: string; isMainFrame: boolean }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface GuardedSession {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler?(handler: () => boolean): void;
}

/**
 * Navigation is always cancelled (the app is one page), a frame may only hold
 * the email frame's own documents, new windows are always denied, webviews
 * never attach, and every permission is refused.
 */
export function installGuards(contents: GuardedContents, session: GuardedSession): void {
  const cancel = (event: { preventDefault(): void }) => event.preventDefault();
  contents.on('will-navigate', cancel);
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame || !isInertFrameUrl(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', cancel);
  contents.on('will-attach-webview', cancel);
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler?.(() => false);
}

/**
 * Maps an app:// URL to a file under the renderer folder; null for anything
 * outside it (no `..` escapes, no other hosts).
 */
export function resolveAppPath(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.split('/').some((segment) => segment === '..')) return null;
  const relative = path.replace(/^\/+/, '');
  return relative === '' ? 'index.html' : relative;
}

const MIME: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
  json: 'application/json',
  ico: 'image/x-icon',
};

export function mimeTypeFor(path: string): string {
  return MIME[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/**
 * The email frame's policies, by document: nothing runs, nothing connects,
 * and images or fonts come from the web only in the one for remote content.
 * The same text is in each file's meta tag (for the dev server).
 */
export const EMAIL_FRAME_POLICY: Record<(typeof EMAIL_FRAME_PATHS)[number], string> = {
  '/email-frame.html': "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src data:; font-src data:",
  '/email-frame-remote.html': "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src data: https: http:; font-src data: https:",
};

/** The CSP a renderer file is served with: the app's, or the email frame's own (which only the app may embed). */
export function policyFor(path: string): string {
  const frame = EMAIL_FRAME_POLICY[`/${path.replace(/^\/+/, '')}` as keyof typeof EMAIL_FRAME_POLICY];
  return frame ? `${frame}; base-uri 'none'; form-action 'none'; frame-ancestors 'self'` : CONTENT_SECURITY_POLICY;
}

/** Headers every renderer file is served with (`path` relative to the renderer folder). */
export function securityHeaders(contentType: string, path = 'index.html'): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': policyFor(path),
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  };
}
