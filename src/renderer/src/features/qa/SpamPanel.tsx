import { useStore } from '../../store.ts';

/** SpamAssassin's verdict on the open email (S): the score against the threshold, then each rule that fired with its points. */
export function SpamPanel({ emailId }: { emailId: string }) {
  const spam = useStore((s) => s.checks.spam);
  if (!spam || spam.id !== emailId) return null;
  if (spam.running) {
    return (
      <p className="spam-report" role="status">
        Asking SpamAssassin…
      </p>
    );
  }
  if (spam.error || !spam.report) {
    return (
      <p className="spam-report error" role="status" aria-label="Spam score">
        {spam.error?.message ?? 'No score.'}
      </p>
    );
  }
  const { report } = spam;
  return (
    <section className="spam-report" aria-label="Spam score">
      <p role="status">
        <span className={`verdict ${report.isSpam ? 'fail' : report.score >= report.threshold / 2 ? 'warn' : 'pass'}`}>{report.score.toFixed(1)}</span> of{' '}
        {report.threshold.toFixed(1)}: {report.isSpam ? 'SpamAssassin calls this spam.' : 'not spam to SpamAssassin.'}
      </p>
      <table>
        <tbody>
          {report.rules.map((rule) => (
            <tr key={rule.name}>
              <td className="points">{rule.points.toFixed(1)}</td>
              <td>
                <code>{rule.name}</code>
              </td>
              <td>{rule.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
