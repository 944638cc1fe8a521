import { Dialog } from "./dialog";
import { Notice } from "./notice";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirm: string;
  /** The button that closes without acting, when "Cancelar" would read as the action itself. */
  cancelLabel?: string;
  /** An action that destroys or refuses something: its button is red. */
  danger?: boolean;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onConfirm: () => void;
}

/** "Are you sure?" before an action that is not easily undone. */
export function ConfirmDialog({ open, title, message, confirm, cancelLabel, danger, busy, error, onClose, onConfirm }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      cancelLabel={cancelLabel}
      onSubmit={onConfirm}
      actions={
        <button type="submit" className={danger ? "boton boton--peligro" : "boton"} disabled={busy}>
          {busy ? "Procesando…" : confirm}
        </button>
      }
    >
      <p>{message}</p>
      <Notice kind="error">{error}</Notice>
    </Dialog>
  );
}
