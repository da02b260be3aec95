import { describe, expect, it, vi } from 'vitest';
import {
  APP_SCHEME_PRIVILEGES,
  CONTENT_SECURITY_POLICY,
  EMAIL_FRAME_POLICY,
  fitToDisplays,
  installGuards,
  isSafeExternalUrl,
  isTrustedSender,
  normaliseExternalUrl,
  resolveAppPath,
  securityHeaders,
  windowOptions,
  type GuardedContents,
  type GuardedSession,
} from '../../src/main/security.ts';

function fakes() {
  const listeners = new Map<string, (event: { preventDefault(): void }, url?: string) => void>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  let requestHandler: ((c: unknown, p: string, cb: (granted: boolean) => void) => void) | null = null;
  let checkHandler: ((c: unknown, p: string) => boolean) | null = null;
  let deviceHandler: (() => boolean) | null = null;
  const contents: GuardedContents = {
    on: ((event: string, listener: (e: { preventDefault(): void }, url?: string) => void) => {
      listeners.set(event, listener);
    }) as GuardedContents['on'],
    setWindowOpenHandler: (handler) => {
      openHandler = handler;
    },
  };
  const session: GuardedSession = {
    setPermissionRequestHandler: (h) => {
      requestHandler = h;
    },
    setPermissionCheckHandler: (h) => {
      checkHandler = h;
    },
    setDevicePermissionHandler: (h) => {
      deviceHandler = h;
    },
  };
  return { contents, session, listeners, open: () => openHandler!, request: () => requestHandler!, check: () => checkHandler!, device: () => deviceHandler! };
}

describe('window options', () => {
  it('isolate the renderer completely', () => {
    const options = windowOptions('/app/preload/index.cjs');
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
    });
    expect(options.show).toBe(false);
  });

  it('turn DevTools off in packaged builds only', () => {
    expect(windowOptions('p', {}, { isPackaged: true }).webPreferences?.devTools).toBe(false);
    expect(windowOptions('p', {}, { isPackaged: false }).webPreferences?.devTools).toBe(true);
    expect(windowOptions('p').webPreferences?.devTools).toBe(false);
  });

  it('take a remembered size and position', () => {
    expect(windowOptions('p', { x: 10, y: 20, width: 900, height: 700 })).toMatchObject({ x: 10, y: 20, width: 900, height: 700 });
  });
});

describe('the app:// scheme', () => {
  it('is a secure standard origin without fetch or CORS, with V8’s code cache (which Electron allows on standard schemes only)', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({ standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, codeCache: true });
  });
});

describe('remembered window bounds', () => {
  const laptop = [{ x: 0, y: 0, width: 1440, height: 900 }];
  it('keep size and position on a display that is still there', () => {
    expect(fitToDisplays({ x: 100, y: 80, width: 1000, height: 700 }, laptop)).toEqual({ x: 100, y: 80, width: 1000, height: 700 });
  });
  it('drop the position when its display is gone, keeping the size', () => {
    expect(fitToDisplays({ x: 2000, y: 100, width: 1000, height: 700 }, laptop)).toEqual({ width: 1000, height: 700 });
    expect(fitToDisplays({ x: 2000, y: 100, width: 1000, height: 700 }, [...laptop, { x: 1440, y: 0, width: 1920, height: 1080 }])).toMatchObject({ x: 2000 });
  });
  it('start with defaults when nothing was remembered', () => {
    expect(fitToDisplays(null, laptop)).toEqual({});
  });
});

describe('guards', () => {
  it('cancel every navigation and redirect, and refuse webviews', () => {
    const f = fakes();
    installGuards(f.contents, f.session);
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const preventDefault = vi.fn();
      f.listeners.get(event)!({ preventDefault }, 'https://evil.test/');
      expect(preventDefault, event).toHaveBeenCalled();
    }
  });

  it('let a frame hold only the email frame’s own documents: no link, form or script moves it elsewhere (finding 7)', () => {
    const f = fakes();
    installGuards(f.contents, f.session);
    const frameNavigate = f.listeners.get('will-frame-navigate') as unknown as (e: { preventDefault(): void; url: string; isMainFrame: boolean }) => void;
    const attempt = (url: string, isMainFrame: boolean) => {
      const preventDefault = vi.fn();
      frameNavigate({ preventDefault, url, isMainFrame });
      return preventDefault.mock.calls.length > 0;
    };
    expect(attempt('https://attacker.test/phish', false)).toBe(true);
    expect(attempt('http://127.0.0.1:9/x', false)).toBe(true);
    expect(attempt('javascript:alert(1)', false)).toBe(true);
    expect(attempt('https://attacker.test/', true)).toBe(true);
    expect(attempt('app://inbox-desk/email-frame.html', false)).toBe(false);
    expect(attempt('app://inbox-desk/email-frame-remote.html', false)).toBe(false);
    expect(attempt('about:blank', false)).toBe(false);
    // Not the app itself in a frame, nor the frame's document with anything added, nor another origin's.
    expect(attempt('app://inbox-desk/index.html', false)).toBe(true);
    expect(attempt('app://inbox-desk/email-frame.html?x=1', false)).toBe(true);
    expect(attempt('app://inbox-desk/email-frame.html#a', false)).toBe(true);
    expect(attempt('app://elsewhere/email-frame.html', false)).toBe(true);
    expect(attempt('about:srcdoc', false)).toBe(true);
  });

  it('deny every new window, whatever the URL', () => {
    const f = fakes();
    installGuards(f.contents, f.session);
    for (const url of ['https://example.com', 'javascript:alert(1)', 'app://inbox-desk/index.html', 'about:blank']) {
      expect(f.open()({ url })).toEqual({ action: 'deny' });
    }
  });

  it('refuse every permission request and check', () => {
    const f = fakes();
    installGuards(f.contents, f.session);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      f.request()({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(f.check()({}, permission)).toBe(false);
    }
    expect(f.device()()).toBe(false);
  });
});

describe('external links', () => {
  it('allow only http, https and mailto', () => {
    expect(isSafeExternalUrl('https://example.com/path?q=1')).toBe(true);
    expect(isSafeExternalUrl('http://example.com')).toBe(true);
    expect(isSafeExternalUrl('mailto:someone@example.com')).toBe(true);
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'vbscript:x', 'ms-msdt:x', 'smb://host/x', 'app://inbox-desk/x', 'not a url', 'https://user:pass@example.com/']) {
      expect(isSafeExternalUrl(url), url).toBe(false);
    }
  });
});

describe('openExternal gets a normalised URL, never the raw string (finding 8)', () => {
  it('re-serialises web links, so stray whitespace, tabs and backslashes never reach the OS', () => {
    expect(normaliseExternalUrl(' https://x.test')).toBe('https://x.test/');
    expect(normaliseExternalUrl('ht\ttps://x.test/a')).toBe('https://x.test/a');
    expect(normaliseExternalUrl('http:\\\\attacker\\share')).toBe('http://attacker/share');
    expect(normaliseExternalUrl('HTTPS://X.TEST/%7e?q=1#f')).toBe('https://x.test/%7e?q=1#f');
  });

  it('keeps only to, cc, bcc, subject and body in mailto links', () => {
    expect(normaliseExternalUrl('mailto:a@x.test?attach=/etc/passwd')).toBe('mailto:a@x.test');
    expect(normaliseExternalUrl('mailto:a@x.test?subject=Hi%20there&Attachment=C:\\x&body=a%26b&cc=c@x.test')).toBe(
      'mailto:a@x.test?subject=Hi%20there&body=a%26b&cc=c%40x.test',
    );
  });

  it('refuses what is not http, https or mailto, or carries credentials', () => {
    for (const url of ['file:///etc/passwd', 'smb://h/x', 'javascript:x', 'https://u:p@x.test/', '\\\\attacker\\share', '']) {
      expect(normaliseExternalUrl(url), url).toBeNull();
    }
  });
});

describe('IPC senders', () => {
  it('trust only the app page itself, at the top level', () => {
    expect(isTrustedSender({ url: 'app://inbox-desk/index.html', parent: null })).toBe(true);
    expect(isTrustedSender({ url: 'app://inbox-desk/index.html', parent: {} })).toBe(false);
    expect(isTrustedSender({ url: 'about:srcdoc', parent: {} })).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.test/', parent: null })).toBe(false);
    expect(isTrustedSender({ url: 'app://other-host/index.html', parent: null })).toBe(false);
    expect(isTrustedSender(null)).toBe(false);
    expect(isTrustedSender({ url: 'http://localhost:5173/', parent: null }, 'http://localhost:5173')).toBe(true);
    expect(isTrustedSender({ url: 'http://localhost:5174/', parent: null }, 'http://localhost:5173')).toBe(false);
  });
});

describe('the app:// protocol', () => {
  it('maps app URLs inside the renderer folder and nothing else', () => {
    expect(resolveAppPath('app://inbox-desk/')).toBe('index.html');
    expect(resolveAppPath('app://inbox-desk/assets/index.js')).toBe('assets/index.js');
    // The URL parser folds dot segments at the root: it stays inside the folder.
    expect(resolveAppPath('app://inbox-desk/%2e%2e/main/index.js')).toBe('main/index.js');
    expect(resolveAppPath('app://inbox-desk/assets/..%2f..%2fsecret')).toBeNull();
    expect(resolveAppPath('app://elsewhere/index.html')).toBeNull();
    expect(resolveAppPath('file:///etc/passwd')).toBeNull();
  });

  it('serves every file with a strict CSP: no network for the renderer, scripts only from the app', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(securityHeaders('text/html')).toMatchObject({ 'Content-Security-Policy': CONTENT_SECURITY_POLICY, 'X-Content-Type-Options': 'nosniff' });
    // The app's own page needs no remote image: only the email frame's remote document may load one.
    expect(CONTENT_SECURITY_POLICY).toMatch(/img-src 'self' data:(;|$)/);
  });

  it('serves the email frame with a policy of its own: no script, no connection, remote images only in the remote one', () => {
    const local = securityHeaders('text/html', 'email-frame.html')['Content-Security-Policy']!;
    const remote = securityHeaders('text/html', '/email-frame-remote.html')['Content-Security-Policy']!;
    for (const policy of [local, remote]) {
      expect(policy).toContain("default-src 'none'");
      expect(policy).not.toMatch(/script-src/);
      expect(policy).toContain("frame-ancestors 'self'");
    }
    expect(local).toMatch(/img-src data:;/);
    expect(remote).toMatch(/img-src data: https: http:;/);
    expect(securityHeaders('text/javascript', 'assets/index.js')['Content-Security-Policy']).toBe(CONTENT_SECURITY_POLICY);
  });
});

describe('the renderer page', () => {
  it('carries the same CSP in its meta tag as the protocol serves (frame-ancestors aside)', async () => {
    const { readFile } = await import('node:fs/promises');
    const html = await readFile('src/renderer/index.html', 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    const headerWithoutAncestors = CONTENT_SECURITY_POLICY.split('; ').filter((d) => !d.startsWith('frame-ancestors')).join('; ');
    expect(meta).toBe(headerWithoutAncestors);
  });

  it('and each email frame document carries its own policy in its meta tag, as the protocol serves it', async () => {
    const { readFile } = await import('node:fs/promises');
    for (const [path, policy] of Object.entries(EMAIL_FRAME_POLICY)) {
      const html = await readFile(`src/renderer${path}`, 'utf8');
      expect(/http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1], path).toBe(policy);
    }
  });
});
