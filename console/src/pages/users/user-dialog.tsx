import { useEffect, useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { Dialog } from "../../components/dialog";
import { CheckboxField, SelectField, TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import { ActualizarUsuarioDocument, type TipoUsuario } from "../../gql/graphql";
import { optionsOf, USER_TYPES } from "../../labels";

export interface EditableUser {
  id: number;
  nombre: string;
  apellido: string;
  telefono: string;
  tipo_usuario: TipoUsuario;
  es_activo: boolean;
  es_verificado: boolean;
}

/** Edits a user's name, phone, account type and flags; only what changed is sent. */
export function UserDialog({
  user,
  onClose,
  onSaved,
}: {
  user: EditableUser | null;
  onClose: () => void;
  onSaved: (name: string) => void;
}) {
  const [form, setForm] = useState<EditableUser | null>(user);
  const save = useMutation(ActualizarUsuarioDocument, (data) => success(data.updateUser));
  useEffect(() => setForm(user), [user]);

  function close() {
    save.clearError();
    onClose();
  }

  async function submit() {
    if (!user || !form) return;
    const changed = (Object.keys(form) as (keyof EditableUser)[]).filter((key) => key !== "id" && form[key] !== user[key]);
    if (changed.length === 0) return close();
    const input = Object.fromEntries(changed.map((key) => [key, typeof form[key] === "string" ? String(form[key]).trim() : form[key]]));
    if (await save.run({ user_id: user.id, input })) onSaved(`${form.nombre} ${form.apellido}`);
  }

  return (
    <Dialog
      open={user !== null}
      title="Editar usuario"
      onClose={close}
      onSubmit={submit}
      actions={
        <button type="submit" className="boton" disabled={save.running}>
          {save.running ? "Guardando…" : "Guardar cambios"}
        </button>
      }
    >
      {form && (
        <div className="rejilla-formulario">
          <TextField label="Nombre" required value={form.nombre} onChange={(event) => setForm({ ...form, nombre: event.target.value })} />
          <TextField
            label="Apellido"
            required
            value={form.apellido}
            onChange={(event) => setForm({ ...form, apellido: event.target.value })}
          />
          <TextField
            label="Teléfono"
            type="tel"
            inputMode="tel"
            hint="De 7 a 15 dígitos"
            value={form.telefono}
            onChange={(event) => setForm({ ...form, telefono: event.target.value })}
          />
          <SelectField
            label="Tipo de cuenta"
            options={optionsOf(USER_TYPES)}
            value={form.tipo_usuario}
            onChange={(event) => setForm({ ...form, tipo_usuario: event.target.value as TipoUsuario })}
          />
          <CheckboxField
            label="Cuenta activa"
            checked={form.es_activo}
            onChange={(event) => setForm({ ...form, es_activo: event.target.checked })}
          />
          <CheckboxField
            label="Correo verificado"
            checked={form.es_verificado}
            onChange={(event) => setForm({ ...form, es_verificado: event.target.checked })}
          />
        </div>
      )}
      <Notice kind="error">{save.error}</Notice>
    </Dialog>
  );
}
