import { useEffect, useState } from "react";
import { Dialog } from "./dialog";
import { TextAreaField, TextField } from "./fields";
import { Notice } from "./notice";

interface ReasonDialogProps {
  open: boolean;
  title: string;
  /** What the operator is about to do, in a sentence. */
  message: string;
  label: string;
  confirm: string;
  /** The button that goes back without acting, when "Cancelar" would read like the action itself. */
  cancelLabel?: string;
  danger?: boolean;
  /** A one-line field (a payment reference) instead of a paragraph (a reason). */
  short?: boolean;
  busy: boolean;
  error: string | null;
  onClose: () => void;
  onConfirm: (text: string) => void;
}

/** Asks for the text an action needs (a reason to suspend or reject, a payment reference) before running it. */
export function ReasonDialog({
  open,
  title,
  message,
  label,
  confirm,
  cancelLabel,
  danger,
  short,
  busy,
  error,
  onClose,
  onConfirm,
}: ReasonDialogProps) {
  const [text, setText] = useState("");
  // Each opening starts blank.
  useEffect(() => {
    if (open) setText("");
  }, [open]);
  const Field = short ? TextField : TextAreaField;
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      cancelLabel={cancelLabel}
      onSubmit={() => text.trim() && onConfirm(text.trim())}
      actions={
        <button type="submit" className={danger ? "boton boton--peligro" : "boton"} disabled={busy || !text.trim()}>
          {busy ? "Guardando…" : confirm}
        </button>
      }
    >
      <p>{message}</p>
      <Field label={label} value={text} required onChange={(event) => setText(event.target.value)} />
      <Notice kind="error">{error}</Notice>
    </Dialog>
  );
}
