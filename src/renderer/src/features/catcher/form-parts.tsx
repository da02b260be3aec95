/** The end of a This computer form: the problem with what was typed, said in place, and Apply / Undo changes. */
export function FormProblem({ problem }: { problem: string | null }) {
  if (!problem) return null;
  return (
    <p className="field-error" role="alert">
      {problem}
    </p>
  );
}

export function ApplyOrUndo({ apply, onUndo }: { apply: string; onUndo: () => void }) {
  return (
    <div className="form-actions">
      <button type="submit">{apply}</button>
      <button type="button" onClick={onUndo}>
        Undo changes
      </button>
    </div>
  );
}
