/**
 * Compare with the previous one (B): what changed since the last email of
 * the same kind, or the one picked with b. A summary line, then the text's
 * changed lines with a little context, the headers and links that changed,
 * and the two renderings side by side with the changed regions boxed.
 */
import { useEffect, useRef } from 'react';
import type { CompareReport } from '../../../../shared/contract.ts';
import { shortDate } from '../../format.ts';
import { useStore } from '../../store.ts';

export function summary(report: CompareReport): string {
  const changedLines = report.changedLines;
  const parts = [
    changedLines === 0 ? 'the same text' : `${changedLines} ${changedLines === 1 ? 'line' : 'lines'} of text changed`,
    report.headers.length === 0 ? 'no header changed' : `${report.headers.length} ${report.headers.length === 1 ? 'header' : 'headers'} changed`,
    report.links.added.length + report.links.removed.length === 0 ? 'the same links' : `links +${report.links.added.length} −${report.links.removed.length}`,
  ];
  if (report.code.base !== report.code.current) parts.push(`code ${report.code.base ?? 'none'} → ${report.code.current ?? 'none'}`);
  if (report.pixels) {
    const share = (100 * report.pixels.changed) / Math.max(1, report.pixels.total);
    parts.push(
      report.pixels.changed === 0
        ? 'the rendering is identical'
        : `${share < 0.1 ? '<0.1' : share.toFixed(1)}% of the rendering changed in ${report.pixels.regions.length} ${report.pixels.regions.length === 1 ? 'region' : 'regions'}`,
    );
  }
  return parts.join(', ');
}

function Rendering({ report }: { report: CompareReport }) {
  const pixels = report.pixels;
  if (!pixels || !report.base.image || !report.current.image) return null;
  return (
    <div className="compare-rendering" aria-label="The two renderings side by side">
      <figure>
        <figcaption>Before · {shortDate(report.base.date)}</figcaption>
        <img src={report.base.image} alt={`The earlier email, rendered: ${report.base.subject}`} />
      </figure>
      <figure>
        <figcaption>Now · {shortDate(report.current.date)}</figcaption>
        <div className="marked">
          <img src={report.current.image} alt={`This email, rendered: ${report.current.subject}`} />
          {pixels.regions.map((region, i) => (
            <span
              key={i}
              className="changed-region"
              data-region={i}
              aria-label={`Changed region ${i + 1}`}
              style={{
                left: `${(100 * region.x) / pixels.width}%`,
                top: `${(100 * region.y) / pixels.height}%`,
                width: `${(100 * region.width) / pixels.width}%`,
                height: `${(100 * region.height) / pixels.height}%`,
              }}
            />
          ))}
        </div>
      </figure>
    </div>
  );
}

export function ComparePanel({ emailId }: { emailId: string }) {
  const compare = useStore((s) => s.checks.compare);
  const sectionRef = useRef<HTMLElement>(null);
  const ready = compare?.id === emailId && compare.report !== null;
  useEffect(() => {
    if (ready) sectionRef.current?.focus();
  }, [ready]);
  if (!compare || compare.id !== emailId) return null;
  if (compare.running || !compare.report) {
    return (
      <p className="compat-report" role="status">
        Comparing with the previous email of this kind…
      </p>
    );
  }
  const { report } = compare;
  const text = report.text;
  return (
    <section className="compat-report compare-report" aria-label="Compared with the previous one" ref={sectionRef} tabIndex={-1}>
      <p role="status">
        Compared with “{report.base.subject || '(no subject)'}” of {shortDate(report.base.date)}: {summary(report)}.
      </p>
      {report.textNote && <p className="muted">{report.textNote}</p>}
      {text.length > 0 && (
        <pre className="text-diff" aria-label="Changed lines of text">
          {text.map((line, i) => (
            <div key={i} className={`diff-${line.kind}`}>
              {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '− ' : '  '}
              {line.text}
            </div>
          ))}
        </pre>
      )}
      {report.headers.length > 0 && (
        <table className="header-diff" aria-label="Headers that changed">
          <thead>
            <tr>
              <th scope="col">Header</th>
              <th scope="col">Before</th>
              <th scope="col">Now</th>
            </tr>
          </thead>
          <tbody>
            {report.headers.map((header) => (
              <tr key={header.name}>
                <th scope="row">{header.name}</th>
                <td>{header.base ?? <em>absent</em>}</td>
                <td>{header.current ?? <em>absent</em>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {report.links.added.length + report.links.removed.length > 0 && (
        <ul className="link-diff" aria-label="Links that changed">
          {report.links.removed.map((url) => (
            <li key={`-${url}`} className="diff-removed">
              − {url}
            </li>
          ))}
          {report.links.added.map((url) => (
            <li key={`+${url}`} className="diff-added">
              + {url}
            </li>
          ))}
        </ul>
      )}
      <Rendering report={report} />
    </section>
  );
}
