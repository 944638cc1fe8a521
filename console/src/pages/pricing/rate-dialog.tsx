import { useState } from "react";
import { useMutation } from "../../api/hooks";
import { success } from "../../api/result";
import { Dialog } from "../../components/dialog";
import { TextField } from "../../components/fields";
import { Notice } from "../../components/notice";
import { ActualizarTarifaDocument, type TipoVehiculo } from "../../gql/graphql";
import { labelOf, VEHICLE_TYPES } from "../../labels";

/** A vehicle type's rate as the dialog edits it: pesos as they are, every percentage as 0–100. */
export interface RateForm {
  tipo_vehiculo: TipoVehiculo;
  tarifa_base: number;
  precio_km: number;
  precio_minuto: number;
  tarifa_minima: number;
  recargo_pico: number;
  recargo_nocturno: number;
  comision_plataforma: number;
  comision_metodo_pago: number;
}

const FIELDS: { key: Exclude<keyof RateForm, "tipo_vehiculo">; label: string; unit: "COP" | "%" }[] = [
  { key: "tarifa_base", label: "Tarifa base", unit: "COP" },
  { key: "precio_km", label: "Precio por km", unit: "COP" },
  { key: "precio_minuto", label: "Precio por minuto", unit: "COP" },
  { key: "tarifa_minima", label: "Tarifa mínima", unit: "COP" },
  { key: "recargo_pico", label: "Recargo en hora pico", unit: "%" },
  { key: "recargo_nocturno", label: "Recargo nocturno", unit: "%" },
  { key: "comision_plataforma", label: "Comisión de la plataforma", unit: "%" },
  { key: "comision_metodo_pago", label: "Comisión por pago digital", unit: "%" },
];

// The API takes surcharges as fractions (0.15) and commissions as percentages (15).
const SURCHARGES = new Set<keyof RateForm>(["recargo_pico", "recargo_nocturno"]);
const fraction = (percent: number) => Math.round(percent * 100) / 10_000;

export function RateDialog({ rate, onClose, onSaved }: { rate: RateForm | null; onClose: () => void; onSaved: () => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const save = useMutation(ActualizarTarifaDocument, (data) => success(data.updatePricingRate));
  const current = (key: keyof RateForm) => values[key] ?? String(rate?.[key] ?? "");

  function close() {
    setValues({});
    save.clearError();
    onClose();
  }

  async function submit() {
    if (!rate) return;
    // Only what changed is sent, so the audit log says what the operator changed.
    const changes = FIELDS.filter(
      (field) => values[field.key] !== undefined && Number(current(field.key).replace(",", ".")) !== rate[field.key],
    ).map((field) => {
      const value = Number(current(field.key).replace(",", "."));
      return [field.key, SURCHARGES.has(field.key) ? fraction(value) : value] as const;
    });
    if (changes.length === 0) return close();
    const saved = await save.run({ input: { tipo_vehiculo: rate.tipo_vehiculo, ...Object.fromEntries(changes) } });
    if (!saved) return;
    setValues({});
    onSaved();
  }

  return (
    <Dialog
      open={rate !== null}
      title={`Tarifa de ${rate ? labelOf(VEHICLE_TYPES, rate.tipo_vehiculo).toLowerCase() : ""}`}
      onClose={close}
      onSubmit={submit}
      wide
      actions={
        <button type="submit" className="boton" disabled={save.running}>
          {save.running ? "Guardando…" : "Guardar tarifa"}
        </button>
      }
    >
      <p>Los cambios se aplican a los viajes que se pidan desde ahora; cada viaje conserva la tarifa con que se pidió.</p>
      <div className="rejilla-formulario">
        {FIELDS.map((field) => (
          <TextField
            key={field.key}
            label={`${field.label} (${field.unit})`}
            inputMode="decimal"
            required
            value={current(field.key)}
            onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
          />
        ))}
      </div>
      <Notice kind="error">{save.error}</Notice>
    </Dialog>
  );
}
