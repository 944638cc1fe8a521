import { z } from "zod";
import { isUniqueViolation } from "../../db/client.js";
import { member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { ConflictError, ValidationError } from "../errors.js";
import { localTime } from "../time.js";
import { VEHICLE_TYPES, type VehicleType } from "../service-types.js";
import { integer, isoDate, oneOf, optional, parseChanges, phone, positiveId, text, type Raw } from "../validation.js";
import { ALL_CATEGORIES, LICENCE_CATEGORIES, licenceAllows } from "./licence-rules.js";
import { DRIVER_RULES, subjectDriver } from "./access.js";
import { recordPhotos } from "./document-history.js";
import { documentOwner, photosAmong } from "./documents.js";
import { LICENCE_FIELDS, VEHICLE_FIELDS, fieldsOfKind, type LicenceField, type VehicleField } from "./fields.js";
import { refreshPresence } from "../matching/online-drivers.js";
import { loadDriver } from "./readiness.js";
import { joinableCompany, openRequest } from "../affiliations/requests.js";
import { deliver, nothingTold } from "../notifications/tell.js";

export const driverProfile = (deps: Deps, actor: Actor, conductorId?: number | null) =>
  loadDriver(deps.reads, subjectDriver(actor, conductorId));

const profileSchema = z.object({
  nombre_completo: optional(text(200)),
  telefono: optional(phone()),
  direccion: optional(text(300)),
});

/** Changes only the fields sent. */
export async function updateDriverProfile(deps: Deps, actor: Actor, input: Raw<typeof profileSchema>) {
  const conductorId = member(actor, DRIVER_RULES.edit).id;
  const changes = parseChanges(profileSchema, input);
  await loadDriver(deps.db, conductorId);
  await deps.db.driverProfile.update({ where: { conductor_id: conductorId }, data: changes });
  return loadDriver(deps.db, conductorId);
}

/** Plates are kept in one spelling: upper case, letters and digits only ("abc-12d" is "ABC12D"). */
export const normalizePlate = (plate: string) => plate.toUpperCase().replace(/[^A-Z0-9]/g, "");

// Images: a URL (usually one returned by the document upload) or the image itself in base64.
const image = () => optional(text(1_500_000));
const VEHICLE_PHOTOS = fieldsOfKind(VEHICLE_FIELDS, "photo");
const LICENCE_PHOTOS = fieldsOfKind(LICENCE_FIELDS, "photo");

/**
 * Photo fields that point to uploads must point to the driver's own, and are kept as the plain
 * upload link: the signed link a response showed expires, and another driver's photo is not theirs to claim.
 */
function ownPhotos<T extends Partial<Record<string, unknown>>>(deps: Deps, conductorId: number, changes: T, fields: readonly string[]): T {
  const kept: Record<string, unknown> = { ...changes };
  for (const field of fields) {
    const value = kept[field];
    const upload = typeof value === "string" ? deps.uploads.find(value) : null;
    if (!upload) continue;
    if (documentOwner(upload.key) !== conductorId) throw new ValidationError("debe ser un documento que subiste tú", field);
    kept[field] = upload.link;
  }
  return kept as T;
}
const documentNumber = () => optional(text(40));

const vehicleSchema = z.object({
  marca: optional(text(60)),
  modelo: optional(text(60)),
  anio: optional(integer().min(1970, "debe ser un año entre 1970 y el próximo año")),
  placa: optional(
    text(15)
      .transform(normalizePlate)
      .refine((plate) => /^[A-Z0-9]{5,7}$/.test(plate), "no es una placa válida (5 a 7 letras y números)"),
  ),
  color: optional(text(40)),
  capacidad_pasajeros: optional(integer().min(1, "debe estar entre 1 y 8").max(8, "debe estar entre 1 y 8")),
  tipo: optional(oneOf(VEHICLE_TYPES)),
  empresa_id: optional(positiveId()),
  soat_numero: documentNumber(),
  soat_vencimiento: optional(isoDate({ endOfDay: true })),
  tecnomecanica_numero: documentNumber(),
  tecnomecanica_vencimiento: optional(isoDate({ endOfDay: true })),
  tarjeta_propiedad_numero: documentNumber(),
  foto_vehiculo: image(),
  foto_tarjeta_propiedad: image(),
  foto_soat: image(),
  foto_tecnomecanica: image(),
} satisfies Record<VehicleField, z.ZodType>);

export type VehicleChanges = Raw<typeof vehicleSchema>;

const plateTaken = (placa: string) => new ConflictError(`La placa ${placa} ya está registrada en otro vehículo`);

/** Changes only the fields sent; creates the vehicle on first use. */
export async function updateVehicle(deps: Deps, actor: Actor, input: VehicleChanges) {
  const conductorId = member(actor, DRIVER_RULES.edit).id;
  const { empresa_id, ...parsed } = parseChanges(vehicleSchema, input);
  const changes = ownPhotos(deps, conductorId, parsed, VEHICLE_PHOTOS);
  const driver = await loadDriver(deps.db, conductorId);
  const latestYear = localTime(deps.clock.now()).year + 1;
  if (changes.anio !== undefined && changes.anio > latestYear) {
    throw new ValidationError("debe ser un año entre 1970 y el próximo año", "anio");
  }
  const category = driver.licencia?.tipo;
  if (changes.tipo && category && !licenceAllows(category, changes.tipo)) {
    throw new ValidationError(
      `no es compatible con tu licencia ${category}; ` +
        `para '${changes.tipo}' se necesita una de: ${LICENCE_CATEGORIES[changes.tipo].join(", ")}`,
      "tipo",
    );
  }
  // A company named here is asked to take the driver in; their company changes when it accepts.
  const company = empresa_id === undefined ? null : await joinableCompany(deps, empresa_id);
  if (changes.placa) {
    const owner = await deps.db.vehicle.findUnique({ where: { placa: changes.placa } });
    if (owner && owner.conductor_id !== conductorId) throw plateTaken(changes.placa);
  }
  const told = nothingTold();
  try {
    const vehicle = await deps.db.$transaction(async (tx) => {
      if (company) await openRequest(tx, deps, told, driver.conductor, company);
      const saved = await tx.vehicle.upsert({
        where: { conductor_id: conductorId },
        create: { ...changes, conductor_id: conductorId },
        update: changes,
      });
      await recordPhotos(tx, conductorId, photosAmong("vehicle", changes), deps.clock.now());
      return saved;
    });
    deliver(deps, told);
    // The vehicle type and its documents decide which trips the driver is offered.
    await refreshPresence(deps, conductorId);
    return vehicle;
  } catch (error) {
    if (isUniqueViolation(error)) throw plateTaken(changes.placa!);
    throw error;
  }
}

/** A licence category, in any case: "b1" is B1. */
export const licenceCategory = () =>
  text(5)
    .transform((t) => t.toUpperCase())
    .refine((t) => ALL_CATEGORIES.includes(t), `debe ser una categoría de licencia: ${ALL_CATEGORIES.join(", ")}`);

const licenceSchema = z.object({
  numero: optional(text(30).transform((n) => n.toUpperCase())),
  tipo: optional(licenceCategory()),
  fecha_emision: optional(isoDate()),
  fecha_expiracion: optional(isoDate({ endOfDay: true })),
  imagen_frente: image(),
  imagen_reverso: image(),
} satisfies Record<LicenceField, z.ZodType>);

export type LicenceChanges = Raw<typeof licenceSchema>;

const licenceTaken = (numero: string) => new ConflictError(`La licencia número ${numero} ya está registrada por otro conductor`);

/** Changes only the fields sent; the dates are checked together with the ones already stored. */
export async function updateLicense(deps: Deps, actor: Actor, input: LicenceChanges) {
  const conductorId = member(actor, DRIVER_RULES.edit).id;
  const changes = ownPhotos(deps, conductorId, parseChanges(licenceSchema, input), LICENCE_PHOTOS);
  const driver = await loadDriver(deps.db, conductorId);
  const now = deps.clock.now();
  const vehicle = driver.vehiculo?.tipo as VehicleType | undefined;
  if (changes.tipo && vehicle && !licenceAllows(changes.tipo, vehicle)) {
    throw new ValidationError(`no permite conducir '${vehicle}'; se necesita una de: ${LICENCE_CATEGORIES[vehicle].join(", ")}`, "tipo");
  }
  if (changes.fecha_emision && changes.fecha_emision > now) throw new ValidationError("no puede estar en el futuro", "fecha_emision");
  if (changes.fecha_expiracion && changes.fecha_expiracion <= now) throw new ValidationError("debe estar en el futuro", "fecha_expiracion");
  const emitted = changes.fecha_emision ?? driver.licencia?.fecha_emision;
  const expires = changes.fecha_expiracion ?? driver.licencia?.fecha_expiracion;
  if (emitted && expires && emitted >= expires) {
    throw changes.fecha_emision
      ? new ValidationError("debe ser anterior a la fecha de expiración", "fecha_emision")
      : new ValidationError("debe ser posterior a la fecha de emisión", "fecha_expiracion");
  }
  if (changes.numero) {
    const holder = await deps.db.license.findUnique({ where: { numero: changes.numero } });
    if (holder && holder.conductor_id !== conductorId) throw licenceTaken(changes.numero);
  }
  try {
    const licence = await deps.db.$transaction(async (tx) => {
      const saved = await tx.license.upsert({
        where: { conductor_id: conductorId },
        create: { ...changes, conductor_id: conductorId },
        update: changes,
      });
      await recordPhotos(tx, conductorId, photosAmong("license", changes), now);
      return saved;
    });
    await refreshPresence(deps, conductorId);
    return licence;
  } catch (error) {
    if (isUniqueViolation(error)) throw licenceTaken(changes.numero!);
    throw error;
  }
}
