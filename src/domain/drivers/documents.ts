import { randomUUID } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import { authorize, member, type Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { PayloadTooLargeError, ValidationError } from "../errors.js";
import { oneOf, fieldParser } from "../validation.js";
import { DRIVER_RULES } from "./access.js";
import { recordPhotos } from "./document-history.js";
import { loadDriver } from "./readiness.js";

export const DOCUMENT_TYPES = ["licencia_frente", "licencia_reverso", "vehiculo", "tarjeta_propiedad", "soat", "tecnomecanica"] as const;
const parseDocumentType = fieldParser("tipo_documento", oneOf(DOCUMENT_TYPES));
type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Where each photo is kept: the licence or vehicle field it fills. */
const PHOTO_FIELD: Record<DocumentType, { record: "license" | "vehicle"; field: string }> = {
  licencia_frente: { record: "license", field: "imagen_frente" },
  licencia_reverso: { record: "license", field: "imagen_reverso" },
  vehiculo: { record: "vehicle", field: "foto_vehiculo" },
  tarjeta_propiedad: { record: "vehicle", field: "foto_tarjeta_propiedad" },
  soat: { record: "vehicle", field: "foto_soat" },
  tecnomecanica: { record: "vehicle", field: "foto_tecnomecanica" },
};

const ACCEPTED: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png" };

/** Each driver's photos live under their own folder, which says whose they are. */
export const documentFolder = (conductorId: number) => `conductores/${conductorId}/`;

/** The driver an upload key belongs to, or null for a key outside the drivers' folders. */
export function documentOwner(key: string): number | null {
  const match = /^conductores\/(\d+)\//.exec(key);
  return match ? Number(match[1]) : null;
}

/** Document photos are for their driver and administrators. */
export const authorizeDocumentRead = (actor: Actor, key: string) => authorize(actor, DRIVER_RULES.read, documentOwner(key));

/**
 * Stores a photo of one of a driver's documents, keeps it as that document's photo (the apps
 * reload the profile to find it there) and returns its URL. The image type is read from the
 * bytes, never from the file name.
 */
export async function storeDocument(deps: Deps, actor: Actor, input: { tipo_documento: unknown; documento: Blob | null | undefined }) {
  const conductorId = member(actor, DRIVER_RULES.edit).id;
  const tipo = parseDocumentType(input.tipo_documento);
  if (!input.documento) throw new ValidationError("es obligatorio", "documento");
  await loadDriver(deps.db, conductorId);
  const limitMb = deps.uploads.maxBytes / (1024 * 1024);
  if (input.documento.size > deps.uploads.maxBytes) {
    throw new PayloadTooLargeError(`El archivo supera el tamaño máximo de ${limitMb} MB`);
  }
  const bytes = Buffer.from(await input.documento.arrayBuffer());
  const detected = await fileTypeFromBuffer(bytes);
  const extension = detected && ACCEPTED[detected.mime];
  if (!extension) throw new ValidationError("debe ser una imagen JPG o PNG", "documento");
  const url = await deps.uploads.save(`${documentFolder(conductorId)}${tipo}-${randomUUID()}.${extension}`, bytes);
  const { record, field } = PHOTO_FIELD[tipo];
  const photo = { [field]: url };
  const where = { conductor_id: conductorId };
  await deps.db.$transaction(async (tx) => {
    if (record === "license") await tx.license.upsert({ where, create: { ...where, ...photo }, update: photo });
    else await tx.vehicle.upsert({ where, create: { ...where, ...photo }, update: photo });
    await recordPhotos(tx, conductorId, { [tipo]: url }, deps.clock.now());
  });
  return { tipo_documento: tipo, url };
}

/** The document photos among a licence's or a vehicle's changes, by document type, for their history. */
export const photosAmong = (record: "license" | "vehicle", changes: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(PHOTO_FIELD).flatMap(([tipo, place]) => {
      const url = changes[place.field];
      return place.record === record && typeof url === "string" ? [[tipo, url]] : [];
    }),
  );
