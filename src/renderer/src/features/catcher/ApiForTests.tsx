import { apiRows, type CatcherState } from '../../../../shared/domain/catcher.ts';
import { useStore } from '../../store.ts';

/**
 * Settings → This computer: where a test suite or a coding agent reaches the
 * catcher (Mailpit's API, the wait, MCP). The token is copied by main and
 * never shown here: the renderer never holds it.
 */
export function ApiForTests({ state }: { state: CatcherState }) {
  const copy = useStore((s) => s.copyText);
  const notify = useStore((s) => s.notify);
  const copyToken = useStore((s) => s.copyCatcherToken);
  if (state.status !== 'listening' || !state.api) return null;
  if ('error' in state.api) {
    return (
      <p className="field-error" role="status" aria-label="API for tests">
        {state.api.error}
      </p>
    );
  }
  const url = state.api.url;
  const put = (text: string) => void copy(text).then(() => notify(`Copied ${text}`));
  return (
    <section className="smtp-instructions" aria-label="API for your tests and agents">
      <h3>Your tests and agents get the code</h3>
      <p className="hint">
        On <code>{url}</code>, this computer only: Mailpit’s API (a suite written for Mailpit works unchanged), a wait that answers when the email is here with its
        code and link, and an MCP server for coding agents.
      </p>
      <table>
        <tbody>
          {apiRows(url).map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td>
                <code>{row.value}</code>
              </td>
              <td>
                <button type="button" aria-label={`Copy the ${row.label}`} onClick={() => put(row.value)}>
                  Copy
                </button>
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row">Token</th>
            <td>
              <code aria-label="The token, hidden">••••••••••••</code>
            </td>
            <td>
              <button type="button" aria-label="Copy the API token" onClick={() => void copyToken()}>
                Copy
              </button>
            </td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}
