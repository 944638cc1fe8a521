import type { Db, Tx } from "../../db/client.js";
import { ForbiddenError } from "../errors.js";

/** Administrator operations: the caller must be an active administrator. */
export async function assertAdmin(db: Db | Tx, callerId: number) {
  const caller = await db.user.findUnique({ where: { id: callerId } });
  if (!caller || caller.tipo_usuario !== "admin" || !caller.es_activo || caller.fecha_suspension) {
    throw new ForbiddenError("Esta operación es solo para administradores");
  }
  return caller;
}
