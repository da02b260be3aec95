/**
 * The accessibility check (A): axe-core, the engine Litmus's and Deque's tools
 * run, on the email as the reader shows it, in a hidden window main opens
 * (handlers/qa.ts), once as it is and once in a client's dark mode. What axe
 * checks in any web page is held to what matters in an email, plus two rules
 * axe has no reason to know: layout tables without role="presentation" (a
 * screen reader reads every cell of them as data) and links whose text says
 * nothing out of context ("click here"). Pure: the script to run and the
 * report made of its answers.
 */
import type { AccessibilityFinding, AccessibilityReport } from '../../shared/contract.ts';
import { SOURCE_LINE_ATTRIBUTE } from '../../shared/domain/source-lines.ts';

/** axe's own rules that apply to an email, and ours. */
export const ACCESSIBILITY_RULES = [
  'image-alt',
  'role-img-alt',
  'area-alt',
  'html-has-lang',
  'html-lang-valid',
  'valid-lang',
  'color-contrast',
  'heading-order',
  'empty-heading',
  'link-name',
  'list',
  'listitem',
  'layout-table-role',
  'link-text-vague',
];

/** Link texts that say nothing without what surrounds them (W3C's "link purpose", 2.4.4). */
export const VAGUE_LINK_TEXTS = ['click here', 'click', 'here', 'read more', 'more', 'learn more', 'this link', 'link', 'this'];

/**
 * Elements axe looks at, at most: it takes about a third of a millisecond an
 * element, and a 2 MB newsletter has tens of thousands, each row like the last.
 * The rest of a longer email is taken out before the run (and the report says so).
 */
export const ACCESSIBILITY_ELEMENTS = 4000;

/** What one run answers: axe's violations, each element with the source line it carries. */
export interface AxeAnswer {
  elements: { checked: number; total: number };
  violations: {
    id: string;
    impact: AccessibilityFinding['impact'];
    help: string;
    helpUrl: string;
    nodes: { line: number | null; html: string }[];
  }[];
}

/**
 * The script the hidden window runs after axe's own source: our two rules,
 * then axe on the whole document, answered as an AxeAnswer.
 */
export function axeRunScript(): string {
  const vague = JSON.stringify(VAGUE_LINK_TEXTS);
  const rules = JSON.stringify(ACCESSIBILITY_RULES);
  const attribute = JSON.stringify(SOURCE_LINE_ATTRIBUTE);
  return `(async () => {
  const axe = window.axe;
  axe.configure({
    checks: [
      {
        id: 'inbox-desk-layout-table',
        evaluate: (node) => {
          const role = (node.getAttribute('role') || '').trim().toLowerCase();
          if (role === 'presentation' || role === 'none') return true;
          // A data table says so in its own rows: header cells, a caption, a summary. A small data table
          // inside a layout table's cell makes the outer one no data table.
          return node.querySelector(':scope > caption, :scope > thead, :scope > tr > th, :scope > tbody > tr > th, :scope > tfoot > tr > th') !== null || node.hasAttribute('summary');
        },
        metadata: { impact: 'moderate', messages: { pass: 'The table is marked as layout or is a data table', fail: 'A layout table needs role="presentation"' } },
      },
      {
        id: 'inbox-desk-vague-link',
        evaluate: (node) => {
          const text = (axe.commons.text.accessibleText(node) || '').replace(/[\\s.!:>»›→]+/g, ' ').trim().toLowerCase();
          return !${vague}.includes(text);
        },
        metadata: { impact: 'moderate', messages: { pass: 'The link says where it goes', fail: 'The link text says nothing out of context' } },
      },
    ],
    rules: [
      {
        id: 'layout-table-role',
        selector: 'table',
        any: ['inbox-desk-layout-table'],
        tags: ['email'],
        metadata: { description: 'Layout tables are marked role="presentation"', help: 'Tables used for layout need role="presentation", or a screen reader reads every cell as data', helpUrl: 'https://www.w3.org/WAI/tutorials/tables/' },
      },
      {
        id: 'link-text-vague',
        selector: 'a, [role="link"]',
        any: ['inbox-desk-vague-link'],
        tags: ['email'],
        metadata: { description: 'Link text says where the link goes', help: 'Link text like "click here" says nothing out of context: name where the link goes', helpUrl: 'https://www.w3.org/WAI/WCAG22/Understanding/link-purpose-in-context.html' },
      },
    ],
  });
  // The links as a mail client shows them: the reader keeps a link's address in data-href (so nothing in the
  // email can navigate) and names it in a title the sender did not write; axe would see no link, or a named one.
  for (const link of Array.from(document.querySelectorAll('[data-href]'))) {
    const href = link.getAttribute('data-href');
    if (link.getAttribute('title') === href) link.removeAttribute('title');
    link.setAttribute('href', href);
    link.removeAttribute('data-href');
    if (link.getAttribute('role') === 'link') link.removeAttribute('role');
    if (link.getAttribute('tabindex') === '0') link.removeAttribute('tabindex');
  }
  // Past the limit, the rest goes: an element after the last kept one in document order is never its ancestor.
  const all = document.body ? Array.from(document.body.getElementsByTagName('*')) : [];
  for (let i = all.length - 1; i >= ${ACCESSIBILITY_ELEMENTS}; i--) all[i].remove();
  const result = await axe.run(document, { runOnly: { type: 'rule', values: ${rules} }, resultTypes: ['violations'] });
  const lineOf = (target) => {
    const selector = Array.isArray(target) ? target[target.length - 1] : target;
    let element = null;
    try { element = typeof selector === 'string' ? document.querySelector(selector) : null; } catch { element = null; }
    const carrier = element && element.closest('[' + ${attribute} + ']');
    const line = carrier ? Number(carrier.getAttribute(${attribute})) : NaN;
    return Number.isInteger(line) && line > 0 ? line : null;
  };
  return {
    elements: { checked: Math.min(all.length, ${ACCESSIBILITY_ELEMENTS}), total: all.length },
    violations: result.violations.map((v) => ({
      id: v.id,
      impact: v.impact || null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ line: lineOf(n.target[0]), html: n.html })),
    })),
  };
})()`;
}

/** How many lines of where a rule is broken a finding keeps. */
const LINES_KEPT = 20;
const IMPACT_ORDER = ['critical', 'serious', 'moderate', 'minor', null];

/**
 * The two runs, light and dark, as one report. An element both runs found is
 * one element (known by its line and its markup); a rule's elements found in
 * both, in light only and in dark only are three findings, so "contrast fails
 * in dark mode only, line 14" reads as it is.
 */
export function accessibilityReport(light: AxeAnswer, dark: AxeAnswer): AccessibilityReport {
  type Seen = { violation: AxeAnswer['violations'][number]; node: { line: number | null; html: string }; modes: Set<'light' | 'dark'> };
  const elements = new Map<string, Seen>();
  for (const [mode, answer] of [['light', light], ['dark', dark]] as const) {
    for (const violation of answer.violations) {
      for (const node of violation.nodes) {
        // The two documents differ only in the root's scheme: the same element is the same markup without it.
        const key = `${violation.id}\n${node.line}\n${withoutOurAttributes(node.html)}`;
        const seen = elements.get(key) ?? { violation, node, modes: new Set() };
        seen.modes.add(mode);
        elements.set(key, seen);
      }
    }
  }
  const findings = new Map<string, AccessibilityFinding & { lineSet: Set<number> }>();
  for (const { violation, node, modes } of elements.values()) {
    const inModes = (['light', 'dark'] as const).filter((mode) => modes.has(mode));
    const key = `${violation.id}\n${inModes.join('+')}`;
    let finding = findings.get(key);
    if (!finding) {
      finding = {
        rule: violation.id,
        impact: violation.impact,
        help: violation.help,
        helpUrl: violation.helpUrl,
        modes: inModes,
        lines: [],
        occurrences: 0,
        example: withoutOurAttributes(node.html).slice(0, 300),
        lineSet: new Set(),
      };
      findings.set(key, finding);
    }
    finding.occurrences += 1;
    if (node.line !== null) finding.lineSet.add(node.line);
  }
  return {
    rules: [...ACCESSIBILITY_RULES],
    elements: light.elements,
    findings: [...findings.values()]
      .map(({ lineSet, ...finding }) => ({ ...finding, lines: [...lineSet].sort((a, b) => a - b).slice(0, LINES_KEPT) }))
      .sort(
        (a, b) =>
          IMPACT_ORDER.indexOf(a.impact) - IMPACT_ORDER.indexOf(b.impact) || a.rule.localeCompare(b.rule) || b.modes.length - a.modes.length,
      ),
  };
}

/** An element's markup without what the inspection document added (its source line, the root's scheme). */
const withoutOurAttributes = (html: string) => html.replace(new RegExp(` (?:${SOURCE_LINE_ATTRIBUTE}="\\d+"|data-scheme="(?:light|dark)")`, 'g'), '');
