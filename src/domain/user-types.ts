/** The kinds of account (spec 2.1). */
export const USER_TYPES = ["pasajero", "conductor", "admin", "empresa"] as const;
export type UserType = (typeof USER_TYPES)[number];
