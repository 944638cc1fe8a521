import type { Tone } from "./components/badge";
import type { Option } from "./components/fields";
import type {
  ConceptoLinea,
  ConexionConductor,
  DocumentoConVencimiento,
  EstadoDocumentosConductor,
  EstadoAfiliacion,
  EstadoEmpresa,
  EstadoReserva,
  EstadoRetiro,
  EstadoRevision,
  EstadoViaje,
  MetodoPago,
  TipoCuentaBancaria,
  TipoCuentaRetiro,
  TipoDocumentoIdentidad,
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

/** Where a reservation is: booked, offered to drivers as a trip, cancelled, or ended with nobody taking it. */
export const RESERVATION_STATES: Record<EstadoReserva, { label: string; tone: Tone }> = {
  programada: { label: "Programada", tone: "info" },
  despachada: { label: "Despachada", tone: "exito" },
  cancelada: { label: "Cancelada", tone: "neutro" },
  vencida: { label: "Vencida", tone: "peligro" },
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

export const PAYOUT_ACCOUNT_KINDS: Record<TipoCuentaRetiro, string> = {
  nequi: "Nequi",
  daviplata: "Daviplata",
  cuenta_bancaria: "Cuenta bancaria",
  efectivo: "Efectivo en la oficina",
};

export const BANK_ACCOUNT_TYPES: Record<TipoCuentaBancaria, string> = {
  ahorros: "Ahorros",
  corriente: "Corriente",
};

export const ID_DOCUMENT_TYPES: Record<TipoDocumentoIdentidad, string> = {
  CC: "Cédula de ciudadanía",
  CE: "Cédula de extranjería",
  NIT: "NIT",
  PAS: "Pasaporte",
  PEP: "Permiso especial de permanencia",
};

/** A payout account by whether an administrator verified it: only then does it receive payouts. */
export const accountStanding = (verified: boolean): { label: string; tone: Tone } =>
  verified ? { label: "Verificada", tone: "exito" } : { label: "Sin verificar", tone: "alerta" };

/** What a line of a balance's movements is for. */
export const LEDGER_CONCEPTS: Record<ConceptoLinea, string> = {
  comision_empresa: "Parte de la comisión",
  retiro: "Retiro",
  ajuste: "Ajuste",
  ganancia: "Ganancia",
  efectivo_cobrado: "Efectivo cobrado",
  deposito: "Depósito",
  comision: "Comisión",
  comision_metodo: "Comisión del método de pago",
  recaudo: "Recaudo",
};

export const COMPANY_STATES: Record<EstadoEmpresa, { label: string; tone: Tone }> = {
  pendiente: { label: "En revisión", tone: "alerta" },
  activa: { label: "Activa", tone: "exito" },
  rechazada: { label: "Rechazada", tone: "peligro" },
  suspendida: { label: "Suspendida", tone: "peligro" },
  inactiva: { label: "Inactiva", tone: "neutro" },
};

/** The states an administrator sets by editing a company; the others come from sign-up and review. */
export const SETTABLE_COMPANY_STATES = {
  activa: COMPANY_STATES.activa,
  suspendida: COMPANY_STATES.suspendida,
  inactiva: COMPANY_STATES.inactiva,
};

export const AFFILIATION_STATES: Record<EstadoAfiliacion, { label: string; tone: Tone }> = {
  solicitada: { label: "Por responder", tone: "alerta" },
  invitada: { label: "Invitación enviada", tone: "info" },
  aceptada: { label: "Aceptada", tone: "exito" },
  rechazada: { label: "Rechazada", tone: "peligro" },
  retirada: { label: "Sin efecto", tone: "neutro" },
};

/**
 * A company's manager by whether they used the code mailed to them: an invited one chooses their
 * password with it, one who signed the company up confirms their address.
 */
export const managerStanding = (confirmed: boolean): { label: string; tone: Tone } =>
  confirmed ? { label: "Correo confirmado", tone: "exito" } : { label: "Sin confirmar", tone: "alerta" };

/** Select options for one of the maps above, with an "all" choice first when `all` is given. */
export function optionsOf(labels: Record<string, string | { label: string }>, all?: string): Option[] {
  const options = Object.entries(labels).map(([value, label]) => ({ value, label: typeof label === "string" ? label : label.label }));
  return all ? [{ value: "", label: all }, ...options] : options;
}

/** A value's label; the value itself when the map has none (a field typed as plain text). */
export const labelOf = (labels: Record<string, string>, value: string) => labels[value] ?? value;

/** "actualizar_usuario" as "Actualizar usuario": the API's action names are Spanish words already. */
export const humanize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, " ");

/** Where one of a company's drivers is now. */
export const CONNECTION_STATES: Record<ConexionConductor, { label: string; tone: Tone }> = {
  en_linea: { label: "En línea", tone: "exito" },
  en_viaje: { label: "En viaje", tone: "info" },
  desconectado: { label: "Desconectado", tone: "neutro" },
};

/** The documents of a driver that expire. */
export const DUE_DOCUMENTS: Record<DocumentoConVencimiento, string> = {
  licencia: "Licencia",
  soat: "SOAT",
  tecnomecanica: "Técnico-mecánica",
};

/** A fleet filter on the state of the drivers' licence, SOAT and technical inspection. */
export const DOCUMENT_STANDINGS: Record<EstadoDocumentosConductor, string> = {
  vencidos: "Con documentos vencidos",
  por_vencer: "Por vencer en 30 días",
  al_dia: "Al día",
};
