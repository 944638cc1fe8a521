import type { Tx } from "../../db/client.js";

/** The company a trip is done for once its driver accepts it, and that company's share in force when it was requested. */
export async function tripCompany(tx: Tx, empresaId: number | null, requestedAt: Date) {
  if (empresaId === null) return { empresa_id: null, porcentaje_empresa: null };
  const change = await tx.companyShareChange.findFirst({
    where: { empresa_id: empresaId, desde: { lte: requestedAt } },
    orderBy: [{ desde: "desc" }, { id: "desc" }],
    select: { porcentaje: true },
  });
  return { empresa_id: empresaId, porcentaje_empresa: change?.porcentaje ?? 0 };
}
