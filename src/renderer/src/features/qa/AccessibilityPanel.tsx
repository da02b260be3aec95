/**
 * The accessibility check (A): each axe-core rule the email breaks, worst
 * first, where (light, a client's dark mode, or both) and on which lines of
 * the HTML source. Enter on a line shows the source there; ↓/↑ move between
 * lines; Esc steps back.
 */
import { useRef } from 'react';
import type { AccessibilityFinding } from '../../../../shared/contract.ts';
import { useStore } from '../../store.ts';
import { useFindingsKeys } from './use-findings-keys.ts';
import { SourceView } from './CompatPanel.tsx';

const IMPACT_TONE: Record<string, string> = { critical: 'fail', serious: 'fail', moderate: 'warn', minor: 'warn' };

const where = (modes: AccessibilityFinding['modes']) =>
  modes.length === 2 ? 'light and dark' : modes[0] === 'dark' ? 'in dark mode only' : 'in light mode only';

function FindingRow({ finding, first }: { finding: AccessibilityFinding; first: boolean }) {
  const showSourceLine = useStore.getState().showSourceLine;
  return (
    <li className="finding">
      <span className={`verdict ${IMPACT_TONE[finding.impact ?? ''] ?? 'warn'}`}>{finding.impact ?? 'check'}</span> <strong>{finding.help}</strong>{' '}
      <small className="muted">
        {finding.rule} · {finding.occurrences} {finding.occurrences === 1 ? 'element' : 'elements'} · {where(finding.modes)}
      </small>{' '}
      {finding.lines.length === 0 ? (
        <small>(no line)</small>
      ) : (
        <span className="lines">
          {finding.lines.slice(0, 5).map((line, i) => (
            <button key={line} type="button" data-first={first && i === 0 ? true : undefined} onClick={() => void showSourceLine(line, 'accessibility')}>
              line {line}
            </button>
          ))}
          {finding.lines.length > 5 ? <small> and {finding.lines.length - 5} more lines</small> : null}
        </span>
      )}
      {finding.example && (
        <code className="example" title="The first element, as the reader’s document has it">
          {finding.example}
        </code>
      )}
    </li>
  );
}

export function AccessibilityPanel({ emailId }: { emailId: string }) {
  const state = useStore((s) => s.checks.accessibility);
  const listRef = useRef<HTMLElement>(null);
  const ready = state?.id === emailId && state.report !== null;
  const onKeyDown = useFindingsKeys(listRef, ready, state?.line ?? null, true);
  if (!state || state.id !== emailId) return null;
  if (state.running || !state.report) {
    return (
      <p className="compat-report" role="status">
        Checking accessibility with axe-core, light and dark…
      </p>
    );
  }
  const { report } = state;
  return (
    <section className="compat-report accessibility-report" aria-label="Accessibility" ref={listRef} onKeyDown={onKeyDown} tabIndex={-1}>
      <p role="status">
        {report.findings.length === 0
          ? `No accessibility problems found (axe-core, ${report.rules.length} rules, light and dark).`
          : `${report.findings.length} accessibility ${report.findings.length === 1 ? 'problem' : 'problems'} (axe-core, ${report.rules.length} rules, light and dark).`}
      </p>
      {report.elements.checked < report.elements.total && (
        <p className="muted">
          The first {report.elements.checked.toLocaleString()} of its {report.elements.total.toLocaleString()} elements were checked (a long email repeats itself; axe takes time per element).
        </p>
      )}
      {state.line !== null && state.source && <SourceView source={state.source} line={state.line} />}
      <ul className="findings">
        {report.findings.map((finding, i) => (
          <FindingRow key={`${finding.rule}:${finding.modes.join('+')}`} finding={finding} first={i === 0} />
        ))}
      </ul>
    </section>
  );
}
