import type { Db, Tx } from "../../db/client.js";
import { ForbiddenError } from "../errors.js";

/** Whether the user is an administrator in good standing. */
export async function isAdmin(db: Db | Tx, userId: number): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId } });
  return user?.tipo_usuario === "admin" && user.es_activo && !user.fecha_suspension;
}

/** Administrator operations: the caller must be an active administrator. */
export async function assertAdmin(db: Db | Tx, callerId: number): Promise<void> {
  if (!(await isAdmin(db, callerId))) throw new ForbiddenError("Esta operación es solo para administradores");
}
