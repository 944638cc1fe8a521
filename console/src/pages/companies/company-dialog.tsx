import { useEffect, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { Dialog } from "../../components/dialog";
import { SelectField, TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import { ActualizarEmpresaDocument, CrearEmpresaDocument, type EstadoEmpresa } from "../../gql/graphql";
import { optionsOf, SETTABLE_COMPANY_STATES } from "../../labels";
import { BLANK_MANAGER, ManagerFields, managerInput } from "../managers/manager-fields";

export interface CompanyForm {
  nombre: string;
  nit: string;
  email: string;
  telefono: string;
  direccion: string;
  estado: EstadoEmpresa;
}

const BLANK: CompanyForm = { nombre: "", nit: "", email: "", telefono: "", direccion: "", estado: "activa" };

/**
 * Creates a company (`company` "nueva") with its first manager, or edits one; empty optional fields
 * are sent as not given.
 */
export function CompanyDialog({
  company,
  onClose,
  onSaved,
}: {
  company: "nueva" | (CompanyForm & { id: number }) | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const [form, setForm] = useState<CompanyForm>(BLANK);
  const [manager, setManager] = useState(BLANK_MANAGER);
  const create = useMutation(CrearEmpresaDocument, (data) => success(data.createCompany));
  const update = useMutation(ActualizarEmpresaDocument, (data) => success(data.updateCompany));
  const editing = company !== null && company !== "nueva" ? company : null;
  const saving = editing ? update : create;

  useEffect(() => {
    setForm(editing ? { ...BLANK, ...editing } : BLANK);
    setManager(BLANK_MANAGER);
    create.clearError();
    update.clearError();
  }, [editing, create.clearError, update.clearError]);

  async function submit() {
    const input = {
      nombre: form.nombre.trim(),
      nit: form.nit.trim(),
      email: form.email.trim() || null,
      telefono: form.telefono.trim() || null,
      direccion: form.direccion.trim() || null,
      // Review decides a pending or refused company's state; editing it leaves the state alone.
      estado: form.estado in SETTABLE_COMPANY_STATES ? form.estado : null,
    };
    const gestor = managerInput(manager);
    const saved = editing ? await update.run({ id: editing.id, input }) : await create.run({ input, gestor });
    if (saved) {
      onSaved(
        editing
          ? `Se guardaron los cambios de ${input.nombre}.`
          : `Se creó la empresa ${input.nombre}; ${gestor.nombre} recibirá en ${gestor.email} un código para crear su contraseña.`,
      );
    }
  }

  const field = (key: Exclude<keyof CompanyForm, "estado">) => ({
    value: form[key],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value }),
  });

  const companyFields = (
    <div className="rejilla-formulario">
      <TextField label="Nombre" required {...field("nombre")} />
      <TextField label="NIT" required hint="Por ejemplo 900123456-7" {...field("nit")} />
      <TextField label="Correo" type="email" {...field("email")} />
      <TextField label="Teléfono" type="tel" inputMode="tel" {...field("telefono")} />
      <TextField label="Dirección" {...field("direccion")} />
      {/* A company waiting for review, or refused, has the state review gave it: no other is set here. */}
      {form.estado in SETTABLE_COMPANY_STATES && (
        <SelectField
          label="Estado"
          options={optionsOf(SETTABLE_COMPANY_STATES)}
          value={form.estado}
          onChange={(event) => setForm({ ...form, estado: event.target.value as EstadoEmpresa })}
        />
      )}
    </div>
  );

  return (
    <Dialog
      open={company !== null}
      title={editing ? "Editar empresa" : "Nueva empresa"}
      onClose={onClose}
      onSubmit={submit}
      actions={
        <button type="submit" className="boton" disabled={saving.running}>
          {saving.running ? "Guardando…" : editing ? "Guardar cambios" : "Crear empresa"}
        </button>
      }
    >
      {editing ? (
        companyFields
      ) : (
        <>
          <fieldset className="grupo-campos">
            <legend>Empresa</legend>
            {companyFields}
          </fieldset>
          <ManagerFields legend="Primer gestor" value={manager} onChange={setManager} />
        </>
      )}
      <Notice kind="error">{saving.error}</Notice>
    </Dialog>
  );
}
