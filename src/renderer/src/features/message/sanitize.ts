import DOMPurify from 'dompurify';

/**
 * Email HTML is hostile until this has run. Scripts, handlers, forms, frames,
 * base/meta/link and `javascript:` URLs go; links keep only web and mailto
 * targets; remote images and CSS `url()`s are held back until the user asks.
 */
export interface SanitizedEmail {
  html: string;
  /** How many remote resources were held back. */
  blockedRemote: number;
}

const FORBID_TAGS = [
  'script', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'frameset',
  'object', 'embed', 'applet', 'base', 'meta', 'link', 'svg', 'math', 'audio', 'video', 'source', 'track',
  'portal', 'noscript', 'template',
];
const FORBID_ATTR = ['srcset', 'action', 'formaction', 'background', 'ping', 'poster', 'xlink:href'];
const REMOTE = /^(?:https?:)?\/\//i;
const SAFE_LINK = /^(?:https?:|mailto:)/i;
const CSS_URL = /url\(\s*(['"]?)(.*?)\1\s*\)/gi;

function cleanCss(css: string, allowRemote: boolean, count: () => void): string {
  const withoutImports = css.replace(/@import[^;]*;?/gi, () => {
    count();
    return '';
  });
  return withoutImports.replace(CSS_URL, (match, _quote: string, url: string) => {
    if (/^data:image\//i.test(url)) return match;
    if (allowRemote && /^https?:\/\//i.test(url)) return match;
    count();
    return 'none';
  });
}

export function sanitizeEmailHtml(dirty: string, options: { allowRemote: boolean }): SanitizedEmail {
  const purify = DOMPurify(window);
  let blocked = 0;
  const count = () => {
    blocked += 1;
  };
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && node.textContent) {
      node.textContent = cleanCss(node.textContent, options.allowRemote, count);
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (element.hasAttribute('style')) {
      element.setAttribute('style', cleanCss(element.getAttribute('style') ?? '', options.allowRemote, count));
    }
    if (element.tagName === 'IMG') {
      const src = element.getAttribute('src') ?? '';
      if (REMOTE.test(src) && !options.allowRemote) {
        element.removeAttribute('src');
        element.setAttribute('data-blocked', 'remote');
        count();
      } else if (!REMOTE.test(src) && !/^data:image\//i.test(src)) {
        element.removeAttribute('src');
      }
    }
    if (element.tagName === 'A') {
      const href = element.getAttribute('href') ?? '';
      if (!SAFE_LINK.test(href.trim())) element.removeAttribute('href');
      element.removeAttribute('target');
      element.setAttribute('rel', 'noopener noreferrer');
    }
  });
  const html = purify.sanitize(dirty, {
    FORBID_TAGS,
    FORBID_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    FORCE_BODY: true,
  });
  return { html, blockedRemote: blocked };
}

/** The isolated document the sanitized HTML is shown in (a sandboxed srcdoc iframe). */
export function emailDocument(clean: string, allowRemote: boolean): string {
  const images = allowRemote ? 'data: https: http:' : 'data:';
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src ${images}; font-src data:">
<meta name="referrer" content="no-referrer">
<style>html,body{margin:0;padding:0}body{padding:16px;font:14px/1.5 system-ui,sans-serif;color:#1d1f23;background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}img[data-blocked]{display:inline-block;min-width:16px;min-height:16px;background:#eee;outline:1px dashed #bbb}a{color:#0b57d0}pre{white-space:pre-wrap}</style>
</head><body>${clean}</body></html>`;
}
