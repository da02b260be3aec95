import { useMemo } from 'react';
import type { Email } from '../../../../shared/domain/email.ts';
import { senderChecks } from '../../../../shared/domain/sender-checks.ts';

const VERDICT_LABEL = { pass: 'pass', warn: 'warn', fail: 'fail' } as const;

/** Pass / warn / fail for what the headers say of the sender (sender-checks.ts). */
export function SenderChecks({ headers, email }: { headers: { name: string; value: string }[]; email: Email }) {
  const checks = useMemo(() => senderChecks(headers, { hasHtml: email.has_html, hasText: email.has_text }), [headers, email.has_html, email.has_text]);
  return (
    <table className="sender-checks" aria-label="Sender checks">
      <tbody>
        {checks.map((check) => (
          <tr key={check.name} data-verdict={check.verdict}>
            <th scope="row">{check.name}</th>
            <td>
              <span className={`verdict ${check.verdict}`}>{VERDICT_LABEL[check.verdict]}</span>
            </td>
            <td>{check.detail}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

