import type { ReadsOf } from "../../db/planned-reads.js";
import { AccountDisabledError, DomainError, ForbiddenError, NotFoundError, ValidationError } from "../errors.js";
import { accountBlockReason } from "../accounts/standing.js";
import { localDate } from "../time.js";

/** Everything that decides whether a driver may work. */
export const DRIVER_WITH_DOCUMENTS = { conductor: true, licencia: true, vehiculo: true, estado: true } as const;

/** A driver with everything that decides whether they may work; null when the id is nobody's driver. */
export async function findDriver(db: ReadsOf<"driverProfile">, conductorId: number) {
  const profile = await db.driverProfile.findUnique({ where: { conductor_id: conductorId }, include: DRIVER_WITH_DOCUMENTS });
  return profile?.conductor.tipo_usuario === "conductor" ? profile : null;
}

export async function loadDriver(db: ReadsOf<"driverProfile">, conductorId: number) {
  const profile = await findDriver(db, conductorId);
  if (!profile) throw new NotFoundError(`No existe un conductor con id ${conductorId}`);
  return profile;
}

export type LoadedDriver = NonNullable<Awaited<ReturnType<typeof findDriver>>>;

/** Dates as a query on them: before, after or between instants. */
type DateCondition = { gt?: Date; lt?: Date; lte?: Date };

/**
 * Documents a driver needs in force to go online or take a trip: their key (as reminders record
 * it), how to name them for people, and where their expiry is kept.
 */
export const DOCUMENTS = [
  {
    key: "licencia",
    label: "la licencia de conducción",
    expired: "vencida",
    read: (d: Documents) => d.licencia?.fecha_expiracion,
    expiring: (when: DateCondition) => ({ licencia: { fecha_expiracion: when } }),
  },
  {
    key: "soat",
    label: "el SOAT",
    expired: "vencido",
    read: (d: Documents) => d.vehiculo?.soat_vencimiento,
    expiring: (when: DateCondition) => ({ vehiculo: { soat_vencimiento: when } }),
  },
  {
    key: "tecnomecanica",
    label: "la revisión técnico-mecánica",
    expired: "vencida",
    read: (d: Documents) => d.vehiculo?.tecnomecanica_vencimiento,
    expiring: (when: DateCondition) => ({ vehiculo: { tecnomecanica_vencimiento: when } }),
  },
] as const;

/** A document that expires: the licence, the SOAT or the technical inspection. */
export type ExpiringDocument = (typeof DOCUMENTS)[number]["key"];

type Documents = Pick<LoadedDriver, "licencia" | "vehiculo">;

/** Throws unless the driver may operate now: approved, account in good standing, documents in force. */
export function assertCanOperate(driver: LoadedDriver, now: Date): void {
  const blocked = accountBlockReason(driver.conductor);
  if (blocked) throw new AccountDisabledError(blocked);
  if (!driver.aprobado) throw new ForbiddenError("El conductor aún no está aprobado para operar");
  if (!driver.vehiculo?.tipo) throw new ValidationError("El conductor no tiene un vehículo registrado");
  assertDocumentsInForce(driver, now);
}

/** Licence, SOAT and technical inspection must not have expired; the error names the document. */
export function assertDocumentsInForce(driver: LoadedDriver, now: Date): void {
  for (const document of DOCUMENTS) {
    const expiry = document.read(driver);
    if (!expiry) throw new ValidationError(`Falta registrar la fecha de vencimiento de ${document.label}`);
    if (expiry <= now) throw new ValidationError(`${capitalize(document.label)} está ${document.expired} desde ${localDate(expiry)}`);
  }
}

/** Until when the driver may operate (the first document to expire), or null when they may not now. */
export function operableUntil(driver: LoadedDriver, now: Date): Date | null {
  try {
    assertCanOperate(driver, now);
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
  return new Date(Math.min(...DOCUMENTS.map((document) => document.read(driver)!.getTime())));
}

/** The documents whose expiry date has passed, named for people ("el SOAT"). */
export const expiredDocuments = (driver: Documents, now: Date): string[] =>
  DOCUMENTS.filter((document) => {
    const expiry = document.read(driver);
    return expiry != null && expiry <= now;
  }).map((document) => document.label);

/** The same test as a query on driver profiles: some document has expired. */
export const withExpiredDocuments = (now: Date) => ({ OR: DOCUMENTS.map((document) => document.expiring({ lte: now })) });

/** Driver profiles with some document expiring after `now` and by `until`: still in force, not for long. */
export const withDocumentsExpiring = (now: Date, until: Date) => ({
  OR: DOCUMENTS.map((document) => document.expiring({ gt: now, lte: until })),
});

/** The driver's documents that have expired or expire by `until`, soonest first. */
export const documentsDueBy = (driver: Documents, until: Date): Array<{ documento: ExpiringDocument; vence: Date }> =>
  DOCUMENTS.flatMap((document) => {
    const vence = document.read(driver);
    return vence != null && vence <= until ? [{ documento: document.key, vence }] : [];
  }).sort((a, b) => a.vence.getTime() - b.vence.getTime());

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
