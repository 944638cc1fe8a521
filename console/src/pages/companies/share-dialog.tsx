import { useEffect, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { Dialog } from "../../components/dialog";
import { TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import { percent } from "../../format";
import { ParteEmpresaDocument } from "../../gql/graphql";

interface Shared {
  id: number;
  nombre: string;
  porcentaje_comision: number;
}

/** Sets a company's share (%) of the platform's commission on its drivers' trips. */
export function ShareDialog({
  company,
  onClose,
  onSaved,
}: {
  company: Shared | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [value, setValue] = useState("");
  const save = useMutation(ParteEmpresaDocument, (data) => success(data.setCompanyShare));
  useEffect(() => {
    if (company) setValue(String(company.porcentaje_comision));
    save.clearError();
  }, [company, save.clearError]);

  async function submit() {
    if (!company) return;
    const saved = await save.run({ id: company.id, porcentaje: Number(value.replace(",", ".")) });
    if (saved) onSaved(`La parte de ${company.nombre} quedó en ${percent(saved.porcentaje_comision)} de la comisión.`);
  }

  return (
    <Dialog
      open={company !== null}
      title="Parte de la comisión"
      onClose={onClose}
      onSubmit={submit}
      actions={
        <button type="submit" className="boton" disabled={save.running}>
          {save.running ? "Guardando…" : "Guardar"}
        </button>
      }
    >
      <p>
        Lo que se le paga a {company?.nombre} de la comisión de la plataforma en los viajes de sus conductores. Rige para los viajes que se
        pidan desde ahora; los anteriores conservan la parte con que se pidieron.
      </p>
      <TextField
        label="Parte de la comisión (%)"
        inputMode="decimal"
        required
        pattern="\d{1,3}([.,]\d{1,2})?"
        title="Un número de 0 a 100, con hasta dos decimales"
        hint="De 0 a 100, con hasta dos decimales"
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <Notice kind="error">{save.error}</Notice>
    </Dialog>
  );
}
