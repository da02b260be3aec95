/**
 * The HTML compatibility check (H): a score per client family, then each
 * feature some client lacks, with the lines it is on. Enter on a line shows
 * the HTML source there, highlighted; ↓/↑ move between findings; Esc steps back.
 */
import { useMemo, useRef } from 'react';
import type { CompatFinding } from '../../../../shared/contract.ts';
import { useStore } from '../../store.ts';
import { useFindingsKeys } from './use-findings-keys.ts';

const CONTEXT_LINES = 3;

/** "Outlook 4, Gmail 2": how many clients of each family, for a list of caniemail client names. Pure. */
export function byFamily(clients: string[], labels: Map<string, string>): string {
  const counts = new Map<string, number>();
  for (const client of clients) {
    const family = client.split('.')[0]!;
    counts.set(family, (counts.get(family) ?? 0) + 1);
  }
  return [...counts.entries()].map(([family, n]) => `${labels.get(family) ?? family} ${n}`).join(', ');
}

export function SourceView({ source, line }: { source: string[]; line: number }) {
  const from = Math.max(1, line - CONTEXT_LINES);
  const to = Math.min(source.length, line + CONTEXT_LINES);
  const lines = [];
  for (let n = from; n <= to; n++) {
    lines.push(
      <li key={n} value={n} aria-current={n === line ? 'location' : undefined} className={n === line ? 'hit' : undefined}>
        <code>{(source[n - 1] ?? '').slice(0, 400)}</code>
      </li>,
    );
  }
  return (
    <ol className="source-lines" aria-label={`HTML source around line ${line}`} start={from}>
      {lines}
    </ol>
  );
}

function FindingRow({ finding, labels, first }: { finding: CompatFinding; labels: Map<string, string>; first: boolean }) {
  const showSourceLine = useStore.getState().showSourceLine;
  const firstLine = finding.lines[0];
  const more = finding.occurrences - finding.lines.length;
  return (
    <li className="finding">
      <span className={`verdict ${finding.unsupported.length > 0 ? 'fail' : finding.partial.length > 0 ? 'warn' : 'pass'}`}>
        {finding.unsupported.length > 0 ? 'not supported' : finding.partial.length > 0 ? 'partial' : 'no data'}
      </span>{' '}
      <strong>{finding.feature}</strong>
      {finding.unsupported.length > 0 && <span> · missing in {byFamily(finding.unsupported, labels)}</span>}
      {finding.partial.length > 0 && <span> · partial in {byFamily(finding.partial, labels)}</span>}
      {finding.noData.length > 0 && <span className="muted"> · no data for {byFamily(finding.noData, labels)}</span>}{' '}
      {firstLine === undefined ? (
        <small>(no line)</small>
      ) : (
        <span className="lines">
          {finding.lines.slice(0, 5).map((line, i) => (
            <button key={line} type="button" data-first={first && i === 0 ? true : undefined} onClick={() => void showSourceLine(line, 'compat')}>
              line {line}
            </button>
          ))}
          {finding.lines.length > 5 || more > 0 ? <small> and {finding.occurrences - Math.min(5, finding.lines.length)} more</small> : null}
        </span>
      )}
    </li>
  );
}

export function CompatPanel({ emailId }: { emailId: string }) {
  const compat = useStore((s) => s.checks.compat);
  const listRef = useRef<HTMLElement>(null);
  const labels = useMemo(() => new Map((compat?.report?.families ?? []).map((f) => [f.family, f.label])), [compat?.report]);
  const ready = compat?.id === emailId && compat.report !== null;
  const onKeyDown = useFindingsKeys(listRef, ready, compat?.line ?? null);
  if (!compat || compat.id !== emailId) return null;
  if (compat.running || !compat.report) {
    return (
      <p className="compat-report" role="status">
        Checking the HTML against caniemail.com’s data…
      </p>
    );
  }
  const { report } = compat;
  return (
    <section className="compat-report" aria-label="HTML compatibility" ref={listRef} onKeyDown={onKeyDown} tabIndex={-1}>
      <p role="status">
        {report.findings.length === 0
          ? 'Every feature this HTML uses works in all the clients checked.'
          : `${report.findings.length} ${report.findings.length === 1 ? 'feature' : 'features'} not supported everywhere (caniemail.com, ${report.clients.length} clients).`}
      </p>
      <ul className="scores" aria-label="Support per client family">
        {report.families.map((family) => (
          <li key={family.family} data-score={family.score} title={family.clients.join(', ')}>
            <span className={`verdict ${family.score >= 90 ? 'pass' : family.score >= 70 ? 'warn' : 'fail'}`}>{family.score}%</span> {family.label}
          </li>
        ))}
      </ul>
      {compat.line !== null && compat.source && <SourceView source={compat.source} line={compat.line} />}
      <ul className="findings">
        {report.findings.map((finding, i) => (
          <FindingRow key={finding.feature} finding={finding} labels={labels} first={i === 0} />
        ))}
      </ul>
    </section>
  );
}
