/** A payout's states: asked for, approved, then paid; or turned down, withdrawn by the driver, or failed after approval. */
export const PAYOUT_STATES = ["solicitado", "aprobado", "pagado", "rechazado", "cancelado", "fallido"] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/** While open the amount stays reserved, and the driver may not ask for another. */
export const OPEN_PAYOUT_STATES = ["solicitado", "aprobado"] as const satisfies readonly PayoutState[];
