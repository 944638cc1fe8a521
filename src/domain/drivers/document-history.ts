import type { Tx } from "../../db/client.js";
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { subjectDriver } from "./access.js";
import { loadDriver, type LoadedDriver } from "./readiness.js";

/**
 * Keeps the history of a driver's document photos, in the transaction that sets them: a photo
 * different from the document's current one becomes current, and the one it replaces is marked
 * with when. Setting the same photo again records nothing.
 */
export async function recordPhotos(tx: Tx, conductorId: number, photos: Record<string, string>, now: Date): Promise<void> {
  for (const [tipo_documento, url] of Object.entries(photos)) {
    const current = { conductor_id: conductorId, tipo_documento, reemplazado_en: null };
    const latest = await tx.documentPhoto.findFirst({ where: current, orderBy: [{ subido_en: "desc" }, { id: "desc" }] });
    if (latest?.url === url) continue;
    await tx.documentPhoto.updateMany({ where: current, data: { reemplazado_en: now } });
    await tx.documentPhoto.create({ data: { conductor_id: conductorId, tipo_documento, url, subido_en: now } });
  }
}

/** The number and expiry of the document a photo shows, as the driver's records have them now. */
const DOCUMENT_DATA: Record<string, (driver: LoadedDriver) => { numero: string | null; vence: Date | null }> = {
  licencia_frente: ({ licencia }) => ({ numero: licencia?.numero ?? null, vence: licencia?.fecha_expiracion ?? null }),
  licencia_reverso: ({ licencia }) => ({ numero: licencia?.numero ?? null, vence: licencia?.fecha_expiracion ?? null }),
  soat: ({ vehiculo }) => ({ numero: vehiculo?.soat_numero ?? null, vence: vehiculo?.soat_vencimiento ?? null }),
  tecnomecanica: ({ vehiculo }) => ({ numero: vehiculo?.tecnomecanica_numero ?? null, vence: vehiculo?.tecnomecanica_vencimiento ?? null }),
  tarjeta_propiedad: ({ vehiculo }) => ({ numero: vehiculo?.tarjeta_propiedad_numero ?? null, vence: null }),
  vehiculo: ({ vehiculo }) => ({ numero: vehiculo?.placa ?? null, vence: null }),
};

/**
 * Every photo a driver has had for each document, newest first. A current photo stands as the
 * driver's application does (pendiente, en_revision, aprobado, or rechazado with the reason) and
 * carries the document's number and expiry; a replaced one is "reemplazado", and what its
 * document said then was not kept.
 */
export async function documentHistory(deps: Deps, actor: Actor, conductorId?: number | null) {
  return photosOf(deps, await loadDriver(deps.db, subjectDriver(actor, conductorId)));
}

/** A driver's photos as documentHistory describes them, for a caller already allowed to see them. */
export async function photosOf(deps: Pick<Deps, "db">, driver: LoadedDriver) {
  const photos = await deps.db.documentPhoto.findMany({
    where: { conductor_id: driver.conductor_id },
    orderBy: [{ subido_en: "desc" }, { id: "desc" }],
  });
  return photos.map((photo) => {
    const current = photo.reemplazado_en === null;
    const document = current ? DOCUMENT_DATA[photo.tipo_documento]?.(driver) : undefined;
    return {
      ...photo,
      estado: current ? driver.estado_revision : "reemplazado",
      motivo_rechazo: current && driver.estado_revision === "rechazado" ? driver.motivo_rechazo : null,
      numero_documento: document?.numero ?? null,
      fecha_vencimiento: document?.vence ?? null,
    };
  });
}
