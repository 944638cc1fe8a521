import { type FormEvent, type ReactNode, useEffect, useId, useRef } from "react";

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** The form's submit; the dialog's body and buttons are one form, so Enter submits it. */
  onSubmit?: () => void;
  children: ReactNode;
  /** The buttons; a cancel button is added before them. */
  actions: ReactNode;
  /** The cancel button's text: "Cerrar" for a dialog that only shows something. */
  cancelLabel?: string;
  wide?: boolean;
}

/**
 * A modal dialog on the native <dialog>: showModal makes the rest of the page inert (focus stays
 * inside) and Escape closes it; focus returns to what opened it.
 */
export function Dialog({ open, title, onClose, onSubmit, children, actions, cancelLabel = "Cancelar", wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The first field, or else Cancel: never the close button, nor a destructive action.
      dialog.querySelector<HTMLElement>(".dialogo__cuerpo :is(input, select, textarea), .dialogo__cancelar")?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit?.();
  }

  return (
    <dialog ref={ref} className={wide ? "dialogo dialogo--ancho" : "dialogo"} aria-labelledby={titleId} onClose={onClose}>
      {open && (
        <form className="dialogo__forma" onSubmit={submit}>
          <header className="dialogo__cabecera">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="boton-icono" onClick={onClose} aria-label="Cerrar">
              ×
            </button>
          </header>
          <div className="dialogo__cuerpo">{children}</div>
          <footer className="dialogo__acciones">
            <button type="button" className="boton boton--secundario dialogo__cancelar" onClick={onClose}>
              {cancelLabel}
            </button>
            {actions}
          </footer>
        </form>
      )}
    </dialog>
  );
}
