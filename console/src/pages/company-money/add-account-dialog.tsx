import { useEffect, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { Dialog } from "../../components/dialog";
import { SelectField, TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import {
  AgregarCuentaRetiroDocument,
  type CuentaRetiroInput,
  type TipoCuentaBancaria,
  type TipoCuentaRetiro,
  type TipoDocumentoIdentidad,
} from "../../gql/graphql";
import { BANK_ACCOUNT_TYPES, ID_DOCUMENT_TYPES, optionsOf, PAYOUT_ACCOUNT_KINDS } from "../../labels";

const BLANK = {
  tipo: "nequi" as TipoCuentaRetiro,
  numero: "",
  banco: "",
  tipo_cuenta: "ahorros" as TipoCuentaBancaria,
  titular_nombre: "",
  titular_tipo_documento: "NIT" as TipoDocumentoIdentidad,
  titular_documento: "",
};

type Form = typeof BLANK;

/** What the API takes for each kind of account: a wallet its mobile, a bank account all of it, cash nothing more. */
function inputOf(form: Form): CuentaRetiroInput {
  const { tipo } = form;
  if (tipo === "efectivo") return { tipo };
  if (tipo !== "cuenta_bancaria") return { tipo, numero: form.numero.trim() };
  return {
    tipo,
    numero: form.numero.trim(),
    banco: form.banco.trim(),
    tipo_cuenta: form.tipo_cuenta,
    titular_nombre: form.titular_nombre.trim(),
    titular_tipo_documento: form.titular_tipo_documento,
    titular_documento: form.titular_documento.trim(),
  };
}

/** The calling manager registers where the company is to be paid; an administrator verifies it before any payout goes there. */
export function AddAccountDialog({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: (message: string) => void }) {
  const [form, setForm] = useState(BLANK);
  const add = useMutation(AgregarCuentaRetiroDocument, (data) => success(data.addPayoutAccount));
  // Cleared while closed, so an opening never shows what the last one left (see RequestPayoutDialog).
  useEffect(() => {
    if (open) return;
    setForm(BLANK);
    add.clearError();
  }, [open, add.clearError]);

  async function submit() {
    const added = await add.run({ input: inputOf(form) });
    if (added) onAdded(`Se agregó la cuenta ${added.descripcion}. Un administrador la verificará; desde entonces podrá recibir retiros.`);
  }

  const field = (key: Exclude<keyof Form, "tipo" | "tipo_cuenta" | "titular_tipo_documento">) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });
  const choice = <K extends "tipo" | "tipo_cuenta" | "titular_tipo_documento">(key: K) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value as Form[K] }),
  });

  return (
    <Dialog
      open={open}
      title="Agregar cuenta de retiro"
      onClose={onClose}
      onSubmit={submit}
      actions={
        <button type="submit" className="boton" disabled={add.running}>
          {add.running ? "Agregando…" : "Agregar cuenta"}
        </button>
      }
    >
      <p>La cuenta a la que la plataforma le paga a tu empresa lo que retire. Un administrador la verifica antes de que reciba retiros.</p>
      <div className="rejilla-formulario">
        <SelectField label="Dónde cobrar" options={optionsOf(PAYOUT_ACCOUNT_KINDS)} {...choice("tipo")} />
        {(form.tipo === "nequi" || form.tipo === "daviplata") && (
          <TextField label="Celular" type="tel" inputMode="numeric" required hint="10 dígitos, empieza por 3" {...field("numero")} />
        )}
        {form.tipo === "cuenta_bancaria" && (
          <>
            <TextField label="Banco" required {...field("banco")} />
            <SelectField label="Clase de cuenta" options={optionsOf(BANK_ACCOUNT_TYPES)} {...choice("tipo_cuenta")} />
            <TextField label="Número de cuenta" inputMode="numeric" required hint="De 6 a 20 dígitos" {...field("numero")} />
            <TextField label="Titular" required {...field("titular_nombre")} />
            <SelectField label="Documento del titular" options={optionsOf(ID_DOCUMENT_TYPES)} {...choice("titular_tipo_documento")} />
            <TextField label="Número de documento" required {...field("titular_documento")} />
          </>
        )}
      </div>
      {form.tipo === "efectivo" && <p>Un gestor recogerá cada retiro en efectivo en la oficina de la plataforma.</p>}
      <Notice kind="error">{add.error}</Notice>
    </Dialog>
  );
}
