import { TextField } from "../../components/fields";
import type { ManagerInput } from "../../gql/graphql";

export const BLANK_MANAGER: ManagerInput = { nombre: "", apellido: "", email: "", telefono: "" };

/** The form's values as the API takes them. */
export const managerInput = (form: ManagerInput): ManagerInput => ({
  nombre: form.nombre.trim(),
  apellido: form.apellido.trim(),
  email: form.email.trim(),
  telefono: form.telefono.trim(),
});

/**
 * The fields of a company's manager, under their own heading: whoever is named gets a mail with a
 * single-use code to choose their password.
 */
export function ManagerFields({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: ManagerInput;
  onChange: (next: ManagerInput) => void;
}) {
  const field = (key: keyof ManagerInput) => ({
    value: value[key],
    onChange: (event: { target: { value: string } }) => onChange({ ...value, [key]: event.target.value }),
  });
  return (
    <fieldset className="grupo-campos">
      <legend>{legend}</legend>
      <p className="campo__ayuda">Recibirá un correo con un código para crear su contraseña y entrar a la consola.</p>
      <div className="rejilla-formulario">
        <TextField label="Nombre" required autoComplete="off" {...field("nombre")} />
        <TextField label="Apellido" required autoComplete="off" {...field("apellido")} />
        <TextField label="Correo" type="email" required autoComplete="off" {...field("email")} />
        <TextField label="Teléfono" type="tel" inputMode="tel" required hint="De 7 a 15 dígitos" {...field("telefono")} />
      </div>
    </fieldset>
  );
}
