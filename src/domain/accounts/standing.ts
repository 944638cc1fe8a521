/** An account that may not sign in: deactivated by an administrator or suspended. */
export function accountBlockReason(user: { es_activo: boolean; fecha_suspension: Date | null; motivo_suspension: string | null }) {
  if (user.fecha_suspension) return `La cuenta está suspendida: ${user.motivo_suspension ?? "sin motivo registrado"}`;
  if (!user.es_activo) return "La cuenta está inactiva";
  return null;
}
