import { useState, type FormEvent } from 'react';
import { CHAOS_STAGES, checkChaos, COMMON_CODES, STAGE_NAMES, type ChaosSettings, type ChaosStage } from '../../../../shared/domain/chaos.ts';
import { ApplyOrUndo, FormProblem } from './form-parts.tsx';
import { useStore } from '../../store.ts';

type Mode = 'off' | 'percent' | 'next';
interface Row {
  code: string;
  mode: Mode;
  amount: string;
}
interface Draft {
  rows: Record<ChaosStage, Row>;
  delaySeconds: string;
  drop: { mode: Mode; amount: string };
  pinned: boolean;
}

const DEFAULT_CODE: Record<ChaosStage, number> = { connect: 421, auth: 535, mailFrom: 451, rcptTo: 550, dataEnd: 554 };

function draftOf(chaos: ChaosSettings): Draft {
  const rows = {} as Record<ChaosStage, Row>;
  for (const stage of CHAOS_STAGES) {
    const t = chaos.triggers[stage];
    rows[stage] = t
      ? { code: String(t.code), mode: t.next > 0 ? 'next' : t.probability > 0 ? 'percent' : 'off', amount: String(t.next > 0 ? t.next : t.probability) }
      : { code: String(DEFAULT_CODE[stage]), mode: 'off', amount: '100' };
  }
  const d = chaos.drop;
  return {
    rows,
    delaySeconds: chaos.delayMs > 0 ? String(chaos.delayMs / 1000) : '',
    drop: d ? { mode: d.next > 0 ? 'next' : d.probability > 0 ? 'percent' : 'off', amount: String(d.next > 0 ? d.next : d.probability) } : { mode: 'off', amount: '100' },
    pinned: chaos.pinned,
  };
}

const amountOf = (mode: Mode, amount: string) => ({ probability: mode === 'percent' ? Number(amount) : 0, next: mode === 'next' ? Number(amount) : 0 });

/** What the draft asks for, as the settings main checks (the same checks here, so the problem shows in place). */
function settingsOf(draft: Draft): unknown {
  const triggers: Record<string, unknown> = {};
  for (const stage of CHAOS_STAGES) {
    const row = draft.rows[stage];
    if (row.mode !== 'off') triggers[stage] = { code: Number(row.code), ...amountOf(row.mode, row.amount) };
  }
  const delay = draft.delaySeconds.trim() === '' ? 0 : Math.round(Number(draft.delaySeconds) * 1000);
  return { triggers, delayMs: delay, drop: draft.drop.mode === 'off' ? null : amountOf(draft.drop.mode, draft.drop.amount), pinned: draft.pinned };
}

function HowOften({ label, mode, amount, onChange }: { label: string; mode: Mode; amount: string; onChange: (patch: { mode?: Mode; amount?: string }) => void }) {
  return (
    <>
      <select aria-label={`${label}: when`} value={mode} onChange={(e) => onChange({ mode: e.target.value as Mode })}>
        <option value="off">Never</option>
        <option value="percent">Some of the time (%)</option>
        <option value="next">The next N times</option>
      </select>
      {mode !== 'off' && <input aria-label={`${label}: ${mode === 'percent' ? 'percent' : 'how many'}`} inputMode="decimal" value={amount} onChange={(e) => onChange({ amount: e.target.value })} />}
    </>
  );
}

/** Settings -> This computer -> Chaos: per stage an answer code and how often, a slow server, a dropped connection, pinned or not. */
export function ChaosForm({ chaos }: { chaos: ChaosSettings }) {
  const setChaos = useStore((s) => s.setChaos);
  const [edited, setDraft] = useState<Draft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const draft = edited ?? draftOf(chaos);
  const row = (stage: ChaosStage, patch: Partial<Row>) => setDraft({ ...draft, rows: { ...draft.rows, [stage]: { ...draft.rows[stage], ...patch } } });

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkChaos(settingsOf(draft));
    if (typeof checked === 'string') return setProblem(checked);
    setProblem(null);
    if (await setChaos(checked)) setDraft(null);
  };

  return (
    <form aria-label="Chaos" className="catcher-form chaos-form" onSubmit={(e) => void apply(e)}>
      <h3>Chaos: test how your app handles a server that says no</h3>
      <p className="hint">This computer’s SMTP answers an error where you say (Mailpit’s Chaos, also at /api/v1/chaos). Mail it refuses is not stored. Off after a restart unless pinned.</p>
      <datalist id="chaos-codes">
        {COMMON_CODES.map((code) => (
          <option key={code} value={code} />
        ))}
      </datalist>
      <table>
        <tbody>
          {CHAOS_STAGES.map((stage) => (
            <tr key={stage}>
              <th scope="row">{STAGE_NAMES[stage]}</th>
              <td>
                <input aria-label={`${STAGE_NAMES[stage]}: answer code`} list="chaos-codes" inputMode="numeric" size={4} value={draft.rows[stage].code} onChange={(e) => row(stage, { code: e.target.value })} />
              </td>
              <td>
                <HowOften label={STAGE_NAMES[stage]} mode={draft.rows[stage].mode} amount={draft.rows[stage].amount} onChange={(patch) => row(stage, patch)} />
              </td>
            </tr>
          ))}
          <tr>
            <th scope="row">Drop the connection mid-DATA</th>
            <td />
            <td>
              <HowOften label="Drop mid-DATA" mode={draft.drop.mode} amount={draft.drop.amount} onChange={(patch) => setDraft({ ...draft, drop: { ...draft.drop, ...patch } })} />
            </td>
          </tr>
        </tbody>
      </table>
      <label>
        Wait before every answer (seconds; empty: none), to make your app’s timeout fire
        <input inputMode="decimal" value={draft.delaySeconds} onChange={(e) => setDraft({ ...draft, delaySeconds: e.target.value })} />
      </label>
      <label className="inline">
        <input type="checkbox" checked={draft.pinned} onChange={(e) => setDraft({ ...draft, pinned: e.target.checked })} />
        Pin: keep chaos on after a restart
      </label>
      <FormProblem problem={problem} />
      <ApplyOrUndo apply="Apply chaos" onUndo={() => setDraft(null)} />
    </form>
  );
}
