import { useState } from "react";
import {
  acceleratorProblem,
  displayAccelerator,
} from "../../../../shared/domain/tester-loop.ts";
import { useStore } from "../../store.ts";

/** The global shortcut that copies the newest code from any app: changeable, off when empty, and said plainly when another app holds it. */
export function ShortcutSetting() {
  const saved = useStore((s) => s.settings.copyCodeShortcut);
  // A new saved value starts a fresh form (what was typed is what got saved).
  return <ShortcutForm key={saved} saved={saved} />;
}

function ShortcutForm({ saved }: { saved: string }) {
  const shortcut = useStore((s) => s.loop?.shortcut ?? null);
  const mac = useStore((s) => s.appInfo?.platform === "darwin");
  const [draft, setDraft] = useState(saved);
  const problem = draft.trim() === "" ? null : acceleratorProblem(draft.trim());
  const status =
    shortcut === null
      ? null
      : shortcut.status === "on"
        ? `On: ${displayAccelerator(shortcut.accelerator, mac)} copies the newest email’s code from any app.`
        : shortcut.status === "taken"
          ? `${displayAccelerator(shortcut.accelerator, mac)} is held by another application: choose other keys.`
          : shortcut.status === "unsupported"
            ? "This system gives apps no global shortcuts."
            : shortcut.status === "invalid"
              ? `${shortcut.accelerator} is not a shortcut: ${acceleratorProblem(shortcut.accelerator)}`
              : "Off.";
  return (
    <form
      className="shortcut-setting"
      aria-label="Global shortcut"
      onSubmit={(event) => {
        event.preventDefault();
        if (problem === null)
          void useStore
            .getState()
            .updateSettings({ copyCodeShortcut: draft.trim() });
      }}
    >
      <label>
        Copy the newest code from any app
        <input
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder="Control+Alt+C (empty: off)"
          aria-invalid={problem !== null}
          spellCheck={false}
        />
      </label>
      <button
        type="submit"
        disabled={problem !== null || draft.trim() === saved}
      >
        Apply
      </button>
      <p
        role="status"
        className={
          problem ||
          shortcut?.status === "taken" ||
          shortcut?.status === "invalid"
            ? "error"
            : "hint"
        }
      >
        {problem ?? status}
      </p>
    </form>
  );
}
