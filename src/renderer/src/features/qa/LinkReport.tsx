import { useStore } from '../../store.ts';

/** The links and images main checked when asked (V): broken ones first, each with its status, redirects and time. */
export function LinkReport({ emailId }: { emailId: string }) {
  const check = useStore((s) => s.checks.links);
  if (!check || check.id !== emailId) return null;
  if (check.running || !check.report) {
    return (
      <p className="link-report" role="status">
        Checking the links and images…
      </p>
    );
  }
  const links = check.report;
  const broken = links.filter((l) => l.status === 0 || l.status >= 400).length;
  return (
    <section className="link-report" aria-label="Link check">
      <p role="status">
        {links.length === 0 ? 'This email has no web links or images.' : `${links.length} checked: ${broken} broken.`}
      </p>
      <table>
        <tbody>
          {links.map((link) => (
            <tr key={link.url} data-broken={link.status === 0 || link.status >= 400 || undefined}>
              <td>
                <span className={`verdict ${link.status === 0 || link.status >= 400 ? 'fail' : link.redirects.length > 0 ? 'warn' : 'pass'}`}>{link.status || 'error'}</span>
              </td>
              <td>
                {link.kind === 'image' ? 'image ' : ''}
                <span className="url">{link.url}</span>
                {link.redirects.length > 0 && <small> {link.redirects.join(', ')}</small>}
                {link.error && <small> {link.error}</small>}
              </td>
              <td>{link.ms} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

