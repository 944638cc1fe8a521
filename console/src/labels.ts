import type { Tone } from "./components/badge";
import type { Option } from "./components/fields";
import type {
  EstadoEmpresa,
  EstadoRetiro,
  EstadoRevision,
  EstadoViaje,
  MetodoPago,
  TipoServicio,
  TipoUsuario,
  TipoVehiculo,
} from "./gql/graphql";

// The API's fixed values, as operators read them. Each map is keyed by the generated enum, so a
// value added to the schema fails the console's typecheck until it has a label here.

export const USER_TYPES: Record<TipoUsuario, string> = {
  pasajero: "Pasajero",
  conductor: "Conductor",
  empresa: "Empresa",
  admin: "Administrador",
};

export const VEHICLE_TYPES: Record<TipoVehiculo, string> = {
  moto: "Moto",
  auto: "Auto",
  mototaxi: "Mototaxi",
};

export const SERVICE_TYPES: Record<TipoServicio, string> = {
  motocicleta: "Moto",
  auto: "Auto",
  mototaxi: "Mototaxi",
};

export const PAYMENT_METHODS: Record<MetodoPago, string> = {
  efectivo: "Efectivo",
  billetera_digital: "Billetera digital",
  tarjeta: "Tarjeta",
};

export const TRIP_STATES: Record<EstadoViaje, string> = {
  pendiente: "Pendiente",
  aceptado: "Aceptado",
  en_ruta: "En camino",
  en_curso: "En curso",
  completado: "Completado",
  cancelado: "Cancelado",
};

export const REVIEW_STATES: Record<EstadoRevision, { label: string; tone: Tone }> = {
  en_revision: { label: "En revisión", tone: "alerta" },
  pendiente: { label: "Incompleta", tone: "neutro" },
  aprobado: { label: "Aprobado", tone: "exito" },
  rechazado: { label: "Rechazado", tone: "peligro" },
};

export const PAYOUT_STATES: Record<EstadoRetiro, { label: string; tone: Tone }> = {
  solicitado: { label: "Solicitado", tone: "alerta" },
  aprobado: { label: "Aprobado", tone: "info" },
  pagado: { label: "Pagado", tone: "exito" },
  rechazado: { label: "Rechazado", tone: "peligro" },
  cancelado: { label: "Cancelado", tone: "neutro" },
  fallido: { label: "Fallido", tone: "peligro" },
};

export const COMPANY_STATES: Record<EstadoEmpresa, { label: string; tone: Tone }> = {
  activa: { label: "Activa", tone: "exito" },
  inactiva: { label: "Inactiva", tone: "neutro" },
};

/** Select options for one of the maps above, with an "all" choice first when `all` is given. */
export function optionsOf(labels: Record<string, string | { label: string }>, all?: string): Option[] {
  const options = Object.entries(labels).map(([value, label]) => ({ value, label: typeof label === "string" ? label : label.label }));
  return all ? [{ value: "", label: all }, ...options] : options;
}

/** A value's label; the value itself when the map has none (a field typed as plain text). */
export const labelOf = (labels: Record<string, string>, value: string) => labels[value] ?? value;

/** "actualizar_usuario" as "Actualizar usuario": the API's action names are Spanish words already. */
export const humanize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, " ");
