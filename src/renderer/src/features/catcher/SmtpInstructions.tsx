import { smtpSettingsRows, smtpUrl, type CatcherState } from '../../../../shared/domain/catcher.ts';
import { useStore } from '../../store.ts';

/** What to paste into your app's SMTP settings, each value one click from the clipboard. */
export function SmtpInstructions({ state, heading = 'Point your app’s SMTP here' }: { state: CatcherState; heading?: string }) {
  const copy = useStore((s) => s.copyText);
  const notify = useStore((s) => s.notify);
  if (state.status !== 'listening') return null;
  const rows = smtpSettingsRows(state);
  const put = (text: string) => void copy(text).then(() => notify(`Copied ${text}`));
  return (
    <section className="smtp-instructions" aria-label="SMTP settings for your app">
      <h3>{heading}</h3>
      <table>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>
                <code>{row.value}</code>
              </td>
              <td>
                {row.label === 'Host' || row.label === 'Port' || row.label === 'User' ? (
                  <button type="button" aria-label={`Copy the ${row.label.toLowerCase()}`} onClick={() => put(row.value)}>
                    Copy
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        As one URL: <code>{smtpUrl(state)}</code>{' '}
        <button type="button" aria-label="Copy the SMTP URL" onClick={() => put(smtpUrl(state))}>
          Copy
        </button>
        . Nothing is sent on: mail that arrives here stays here.
      </p>
    </section>
  );
}
