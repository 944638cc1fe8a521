import type { DOCUMENT_TYPES } from "../../domain/drivers/documents.js";
import type { REVIEW_STATES } from "../../domain/drivers/approval.js";
import type { VehicleType } from "../../domain/service-types.js";
import { builder } from "../builder.js";

/**
 * An enum whose values are described one by one. Callers check `values` against the domain's list
 * (`satisfies Record<…, string>`), so a value the domain adds cannot go undescribed.
 */
export const describedEnum = <const Value extends string>(name: string, description: string, values: Record<Value, string>) =>
  builder.enumType(name, {
    description,
    values: Object.fromEntries(Object.entries<string>(values).map(([value, text]) => [value, { value, description: text }])) as {
      [Key in Value]: { value: Key; description: string };
    },
  });

/*
 * The enums several areas share; each area's own enums live with its types.
 */

export const VehicleTypeEnum = describedEnum("TipoVehiculo", "Un tipo de vehículo de la flota", {
  moto: "Motocicleta (servicio motocicleta)",
  auto: "Automóvil (servicio auto)",
  mototaxi: "Mototaxi de tres ruedas con cabina para pasajeros (servicio mototaxi)",
} satisfies Record<VehicleType, string>);

export const REVIEW_STATE_DESCRIPTIONS = {
  pendiente: "Incompleta, o aún no enviada a revisión",
  en_revision: "Enviada: espera a un administrador",
  aprobado: "Aprobada: el conductor puede trabajar",
  rechazado: "Rechazada con un motivo; el conductor puede corregirla y enviarla de nuevo",
} satisfies Record<(typeof REVIEW_STATES)[number], string>;

export const ReviewStateEnum = describedEnum("EstadoRevision", "Dónde está la solicitud de un conductor", REVIEW_STATE_DESCRIPTIONS);

export const DocumentTypeEnum = describedEnum("TipoDocumento", "Un documento de un conductor del que se sube foto", {
  licencia_frente: "El frente de la licencia de conducción",
  licencia_reverso: "El reverso de la licencia de conducción",
  vehiculo: "El vehículo, con la placa a la vista",
  tarjeta_propiedad: "La tarjeta de propiedad del vehículo",
  soat: "El SOAT (seguro obligatorio) del vehículo",
  tecnomecanica: "La revisión técnico-mecánica del vehículo",
} satisfies Record<(typeof DOCUMENT_TYPES)[number], string>);
