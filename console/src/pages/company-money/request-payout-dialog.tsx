import { useEffect, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { Dialog } from "../../components/dialog";
import { SelectField, TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import { pesos } from "../../format";
import { PedirRetiroDocument } from "../../gql/graphql";

/**
 * The calling manager asks to be paid part or all of the company's balance into one of its
 * verified accounts; the amount is reserved from the balance at once.
 */
export function RequestPayoutDialog({
  open,
  available,
  minimum,
  accounts,
  onClose,
  onRequested,
}: {
  open: boolean;
  /** What the company may withdraw now. */
  available: number;
  /** The smallest payout, as the platform runs it. */
  minimum: number;
  /** The company's verified accounts, the only ones a payout may go to. */
  accounts: readonly { id: number; descripcion: string }[];
  onClose: () => void;
  onRequested: (message: string) => void;
}) {
  const [amount, setAmount] = useState("");
  const [account, setAccount] = useState("");
  const request = useMutation(PedirRetiroDocument, (data) => success(data.requestPayout));
  // Cleared while closed, so an opening never shows what the last one left: a reset made after the
  // dialog shows could land after what the manager typed, and undo it.
  useEffect(() => {
    if (open) return;
    setAmount("");
    setAccount("");
    request.clearError();
  }, [open, request.clearError]);
  // The account chosen, else the newest verified one.
  const selected = accounts.some((candidate) => String(candidate.id) === account) ? account : String(accounts[0]?.id ?? "");

  async function submit() {
    const chosen = accounts.find((candidate) => String(candidate.id) === selected);
    if (!chosen) return;
    const requested = await request.run({ monto: Number(amount), cuenta_retiro_id: chosen.id });
    if (requested) {
      onRequested(
        `Pediste el retiro #${requested.id} de ${pesos(requested.monto)} a ${chosen.descripcion}. Un administrador lo aprobará y hará la transferencia.`,
      );
    }
  }

  return (
    <Dialog
      open={open}
      title="Pedir retiro"
      onClose={onClose}
      onSubmit={submit}
      actions={
        <button type="submit" className="boton" disabled={request.running || accounts.length === 0}>
          {request.running ? "Pidiendo…" : "Pedir retiro"}
        </button>
      }
    >
      <p>
        Tu empresa tiene {pesos(available)} disponibles. Cada retiro es de al menos {pesos(minimum)} y de no más que el saldo disponible; el
        monto se reserva del saldo en el acto y un administrador lo aprueba y lo transfiere. Solo puede haber un retiro en curso a la vez.
      </p>
      {accounts.length === 0 ? (
        <Notice kind="info">
          Aún no tienes una cuenta de retiro verificada: agrega una y espera a que un administrador la verifique para pedir retiros.
        </Notice>
      ) : (
        <div className="rejilla-formulario">
          <TextField
            label="Monto (COP)"
            inputMode="numeric"
            required
            hint={`Desde ${pesos(minimum)} hasta ${pesos(available)}`}
            value={amount}
            onChange={(event) => setAmount(event.target.value.replace(/\D/g, ""))}
          />
          <SelectField
            label="Cuenta"
            options={accounts.map((candidate) => ({ value: String(candidate.id), label: candidate.descripcion }))}
            value={selected}
            onChange={(event) => setAccount(event.target.value)}
          />
        </div>
      )}
      <Notice kind="error">{request.error}</Notice>
    </Dialog>
  );
}
