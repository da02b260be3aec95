import { useEffect, useState } from 'react';
import type { PayloadPreview as Preview } from '../../../../shared/contract.ts';
import { validateAutomationInput } from '../../../../shared/domain/automation.ts';
import { curlCommand } from '../../../../shared/domain/webhook-payload.ts';
import { asBridgeError } from '../../bridge.ts';
import { useStore } from '../../store.ts';
import { activeFlavor } from '../settings/slice.ts';
import type { AutomationDraft } from './slice.ts';

const SHOWN_BYTES = 6000;

/** What the rule would post for a chosen email, with the headers the service sends; copy as curl; send a test. */
export function PayloadPreview({ draft }: { draft: AutomationDraft }) {
  const candidates = useStore((s) => s.previewMatches);
  const flavor = useStore((s) => activeFlavor(s.accounts));
  const [chosen, setChosen] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const emailId = chosen && candidates.some((c) => c.id === chosen) ? chosen : (candidates[0]?.id ?? null);
  const checked = validateAutomationInput(draft, flavor);
  const input = checked.ok ? checked.value : null;
  const key = JSON.stringify([emailId, input]);

  useEffect(() => {
    if (!emailId || !input) return;
    let current = true;
    const timer = setTimeout(() => {
      useStore
        .getState()
        .previewPayload(emailId, input)
        .then((value) => {
          if (current) {
            setPreview(value);
            setProblem(null);
          }
        })
        .catch((error: unknown) => current && setProblem(asBridgeError(error).message));
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // key holds emailId and input: one request per real change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  if (!emailId) return null;
  if (!input) return <p className="hint">Fix the fields above to see the payload.</p>;
  const url = input.action_url;
  return (
    <section className="payload" aria-label="Payload preview">
      <h4>
        What {url ? 'the webhook receives' : 'a webhook would receive'} for{' '}
        <select aria-label="Preview for" value={emailId} onChange={(e) => setChosen(e.target.value)}>
          {candidates.map((c) => (
            <option key={c.id} value={c.id}>
              {c.subject || '(no subject)'}
            </option>
          ))}
        </select>
      </h4>
      {problem && <p className="field-error">{problem}</p>}
      {preview && (
        <>
          {!preview.matches && <p className="hint">This rule does not match this email; shown anyway.</p>}
          <table className="headers-view" aria-label="Webhook headers">
            <tbody>
              {Object.entries(preview.headers).map(([name, value]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>{name.endsWith('-Delivery') ? `${value} (new for each delivery)` : value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <pre className="plain" aria-label="Webhook body">
            {preview.bodyText.slice(0, SHOWN_BYTES)}
            {preview.bodyText.length > SHOWN_BYTES ? `\n… ${preview.bytes} bytes in all` : ''}
          </pre>
          <div className="form-actions">
            <button
              type="button"
              onClick={() => {
                void useStore.getState().copyText(curlCommand(url ?? 'https://your-receiver.example/hook', preview));
                setSent('Copied as a curl command.');
              }}
            >
              Copy as curl
            </button>
            <button
              type="button"
              disabled={!url}
              onClick={() => {
                setSent('Sending…');
                void useStore.getState().sendTestPayload(emailId, input).then(setSent);
              }}
            >
              Send test
            </button>
          </div>
          {sent && (
            <p className="hint" role="status">
              {sent}
            </p>
          )}
        </>
      )}
    </section>
  );
}
