import { ValidationError } from "./errors.js";

/** How a trip is paid: cash goes to the driver; the others are collected by the platform. */
export const PAYMENT_METHODS = ["efectivo", "billetera_digital", "tarjeta"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Methods where the platform collects the fare and owes the driver their net. */
export type PlatformMethod = Exclude<PaymentMethod, "efectivo">;

export const collectedByPlatform = (method: PaymentMethod): method is PlatformMethod => method !== "efectivo";

const NAMES: Record<PlatformMethod, string> = { billetera_digital: "billetera digital", tarjeta: "tarjeta" };

/**
 * Collects platform-paid fares. `capture` is called once per trip, in the transaction that
 * completes it; a real provider must treat `viaje_id` as its idempotency key, since a rolled-back
 * completion is tried again.
 */
export interface PaymentProvider {
  readonly methods: readonly PlatformMethod[];
  capture(charge: { viaje_id: number; monto: number; metodo: PlatformMethod }): Promise<{ referencia: string }>;
}

/** The embedded default: a charge counts as captured when the trip completes. */
export const embeddedPayments: PaymentProvider = {
  methods: ["billetera_digital", "tarjeta"],
  capture: async ({ viaje_id, metodo }) => ({ referencia: `local-${metodo}-${viaje_id}` }),
};

/** Refuses a method no configured provider collects; cash is always accepted. */
export function assertAccepted(payments: PaymentProvider | null, method: PaymentMethod): void {
  if (!collectedByPlatform(method) || payments?.methods.includes(method)) return;
  throw new ValidationError(`no admite ${NAMES[method]} por ahora; elige efectivo`, "metodo_pago");
}
