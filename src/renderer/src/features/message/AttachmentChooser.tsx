import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import { Modal } from '../../Modal.tsx';
import { useStore } from '../../store.ts';

/** a, then a number: save any attachment of the open email. */
function saveNth(index: number): void {
  const { email, saveAttachment } = useStore.getState();
  const attachment = email?.attachments[index];
  if (!attachment) return;
  useStore.setState({ attachmentChooserOpen: false });
  void saveAttachment(attachment.id);
}

export function AttachmentChooser() {
  const open = useStore((s) => s.attachmentChooserOpen);
  const email = useStore((s) => s.email);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      const n = Number(event.key);
      if (!Number.isInteger(n) || n < 1 || n > 9) return;
      event.preventDefault();
      saveNth(n - 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  if (!open || !email) return null;
  const close = () => useStore.setState({ attachmentChooserOpen: false });
  const save = saveNth;
  // Beside the app's body, not in it: the body is inert while a dialog is open, and so would this dialog be
  // (focus stayed on the email, Esc and its close button did nothing: the only way out was saving a file).
  const home = document.querySelector('.app') ?? document.body;
  return createPortal(
    <Modal label="Save an attachment" onClose={close}>
      <ol className="chooser">
        {email.attachments.map((a, i) => (
          <li key={a.id}>
            <button type="button" onClick={() => save(i)}>
              <kbd>{i + 1}</kbd> {a.file_name} <small>({a.size_for_human || `${a.size_in_bytes} B`})</small>
            </button>
          </li>
        ))}
      </ol>
      <p className="hint">Press a number, or Esc.</p>
    </Modal>,
    home,
  );
}

