/**
 * A client's dark mode for the email frame (D): the email's own
 * prefers-color-scheme rules answered as dark, the frame's defaults dark.
 */

/** A media condition with prefers-color-scheme answered as dark: dark rules always apply, light ones never. */
export function answeredDark(condition: string): string {
  return condition.replace(/\(\s*prefers-color-scheme\s*:\s*dark\s*\)/gi, '(min-width: 0px)').replace(/\(\s*prefers-color-scheme\s*:\s*light\s*\)/gi, '(max-width: 0px)');
}

/** Each @media rule's own condition, kept while the preview rewrites it. */
const originalMedia = new WeakMap<CSSMediaRule, string>();

/**
 * Shows the email as a client in dark mode would: its prefers-color-scheme
 * rules are answered as dark (a frame's media queries follow the app, not a
 * setting of its own), and the frame's defaults turn dark. Off, every rule
 * gets its own condition back. Answers whether anything changed: the next
 * email in light mode changes nothing here, and its frame is not laid out again.
 */
export function previewColorScheme(doc: Document, dark: boolean): boolean {
  const scheme = dark ? 'dark' : 'light';
  // Set only when it changes: setting it again still restyles the whole document.
  let changed = doc.documentElement.dataset.scheme !== scheme;
  if (changed) doc.documentElement.dataset.scheme = scheme;
  const walk = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof (doc.defaultView?.CSSMediaRule ?? CSSMediaRule)) {
        const media = rule as CSSMediaRule;
        const own = originalMedia.get(media) ?? media.media.mediaText;
        const wanted = dark ? answeredDark(own) : own;
        if (/prefers-color-scheme/i.test(own) && media.media.mediaText !== wanted) {
          originalMedia.set(media, own);
          media.media.mediaText = wanted;
          changed = true;
        }
      }
      const children = (rule as { cssRules?: CSSRuleList }).cssRules;
      if (children) walk(children);
    }
  };
  for (const sheet of Array.from(doc.styleSheets)) {
    try {
      walk(sheet.cssRules);
    } catch {
      // A sheet the frame may not read (none today: every rule is the email's own, sanitized).
    }
  }
  return changed;
}

