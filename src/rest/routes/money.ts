import { z } from "zod";
import { BANK_ACCOUNT_TYPES, HOLDER_DOCUMENT_TYPES, PAYOUT_ACCOUNT_KINDS } from "../../domain/money/payout-accounts.js";
import { PAYOUT_STATES } from "../../domain/money/payout-states.js";
import { PAYOUT_ACTIONS } from "../../domain/money/payouts.js";
import { optional } from "../../domain/validation.js";
import { legacyChoice, legacyId, legacyInt, legacyText } from "../legacy-fields.js";
import { BALANCE, MOVEMENT, PAGINATION, PAYOUT, PAYOUT_ACCOUNT, selection } from "../resources.js";
import { defineRoute, operation, type GraphQLData } from "../route.js";

/*
 * A driver's money: balance, movements, payouts and where they are paid, and the administrators'
 * review of payouts. Every call needs the caller's session token (Authorization: Bearer), whatever
 * LEGACY_AUTH says: an id in the body never moves or shows money.
 */

const driver = { conductor_id: optional(legacyId()) };
const admin = { admin_id: optional(legacyId()) };
const paging = { page: optional(legacyInt()), per_page: optional(legacyInt()) };

const PAYOUT_FIELDS = selection(PAYOUT);
const ACCOUNT_FIELDS = selection(PAYOUT_ACCOUNT);
const PAYOUT_PAGE = `... on PaginaRetiros { items { ${PAYOUT_FIELDS} } pagination { page per_page total total_pages } }`;
const PAYOUTS = z.object({ retiros: z.array(PAYOUT), pagination: PAGINATION });
const payouts = ({ items, pagination }: GraphQLData) => ({ retiros: items, pagination });
const payoutState = { estado: optional(legacyChoice(PAYOUT_STATES)) };

const REVIEW = `mutation Review($accion: AccionRetiro!, $retiro_id: Int!, $motivo: String, $referencia_pago: String) {
  reviewPayout(accion: $accion, retiro_id: $retiro_id, motivo: $motivo, referencia_pago: $referencia_pago) {
    ...LegacyError ... on Retiro { ${PAYOUT_FIELDS} }
  }
}`;

export const moneyRoutes = [
  defineRoute({
    method: "GET",
    path: "/conductor/get_saldo.php",
    summary: "El saldo del conductor: disponible para retirar, reservado en retiros, deuda y total retirado (requiere Bearer)",
    input: z.object(driver),
    caller: "conductor_id",
    document: operation(`query Balance {
      driverBalance { ...LegacyError ... on SaldoConductor { ${selection(BALANCE)} } }
    }`),
    variables: () => ({}),
    output: z.object({ saldo: BALANCE }),
    respond: (saldo) => ({ saldo }),
  }),
  defineRoute({
    method: "GET",
    path: "/conductor/get_movimientos.php",
    summary: "Los movimientos del saldo del conductor, los más recientes primero, por páginas (requiere Bearer)",
    input: z.object({ ...driver, ...paging }),
    caller: "conductor_id",
    document: operation(`query Movements($page: Int, $per_page: Int) {
      driverMovements(page: $page, per_page: $per_page) {
        ...LegacyError
        ... on PaginaMovimientos { items { ${selection(MOVEMENT)} } pagination { page per_page total total_pages } }
      }
    }`),
    variables: ({ page, per_page }) => ({ page, per_page }),
    output: z.object({ movimientos: z.array(MOVEMENT), pagination: PAGINATION }),
    respond: ({ items, pagination }) => ({ movimientos: items, pagination }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/solicitar_retiro.php",
    summary: "El conductor pide que le paguen a una de sus cuentas verificadas; el monto se reserva en el acto (requiere Bearer)",
    input: z.object({ ...driver, monto: legacyInt(), cuenta_retiro_id: legacyId() }),
    caller: "conductor_id",
    document: operation(`mutation RequestPayout($monto: Int!, $cuenta_retiro_id: Int!) {
      requestPayout(monto: $monto, cuenta_retiro_id: $cuenta_retiro_id) { ...LegacyError ... on Retiro { ${PAYOUT_FIELDS} } }
    }`),
    variables: ({ monto, cuenta_retiro_id }) => ({ monto, cuenta_retiro_id }),
    output: z.object({ retiro: PAYOUT }),
    respond: (retiro) => ({ message: "Retiro solicitado; te avisaremos cuando se apruebe", retiro }),
  }),
  defineRoute({
    method: "GET",
    path: "/conductor/get_retiros.php",
    summary: "Los retiros del conductor, los más recientes primero, por páginas (requiere Bearer)",
    input: z.object({ ...driver, ...paging, ...payoutState }),
    caller: "conductor_id",
    document: operation(`query Payouts($page: Int, $per_page: Int, $estado: EstadoRetiro) {
      payouts(page: $page, per_page: $per_page, estado: $estado) { ...LegacyError ${PAYOUT_PAGE} }
    }`),
    variables: ({ page, per_page, estado }) => ({ page, per_page, estado }),
    output: PAYOUTS,
    respond: payouts,
  }),
  defineRoute({
    method: "GET",
    path: "/conductor/cuentas_retiro.php",
    summary: "Las cuentas donde el conductor cobra (requiere Bearer)",
    input: z.object(driver),
    caller: "conductor_id",
    document: operation(`query PayoutAccounts {
      payoutAccounts { ...LegacyError ... on QueryPayoutAccountsSuccess { data { ${ACCOUNT_FIELDS} } } }
    }`),
    variables: () => ({}),
    output: z.object({ cuentas: z.array(PAYOUT_ACCOUNT) }),
    respond: (result) => ({ cuentas: result.data }),
  }),
  defineRoute({
    method: "POST",
    path: "/conductor/cuentas_retiro.php",
    summary:
      "El conductor registra dónde cobrar: nequi o daviplata (celular), cuenta_bancaria (banco, tipo, número, titular) o efectivo; " +
      "un administrador la verifica (requiere Bearer)",
    input: z.object({
      ...driver,
      tipo: legacyChoice(PAYOUT_ACCOUNT_KINDS),
      numero: optional(legacyText()),
      banco: optional(legacyText()),
      tipo_cuenta: optional(legacyChoice(BANK_ACCOUNT_TYPES)),
      titular_nombre: optional(legacyText()),
      titular_tipo_documento: optional(legacyChoice(HOLDER_DOCUMENT_TYPES)),
      titular_documento: optional(legacyText()),
    }),
    caller: "conductor_id",
    document: operation(`mutation AddPayoutAccount($input: CuentaRetiroInput!) {
      addPayoutAccount(input: $input) { ...LegacyError ... on CuentaRetiro { ${ACCOUNT_FIELDS} } }
    }`),
    variables: ({ conductor_id: _caller, ...input }) => ({ input }),
    output: z.object({ cuenta: PAYOUT_ACCOUNT }),
    respond: (cuenta) => ({ message: "Cuenta registrada; un administrador la verificará", cuenta }),
  }),
  defineRoute({
    method: "DELETE",
    path: "/conductor/cuentas_retiro.php",
    summary: "El conductor deja de usar una cuenta de retiro (requiere Bearer)",
    input: z.object({ ...driver, cuenta_retiro_id: legacyId() }),
    caller: "conductor_id",
    document: operation(`mutation RemovePayoutAccount($cuenta_retiro_id: Int!) {
      removePayoutAccount(cuenta_retiro_id: $cuenta_retiro_id) { ...LegacyError ... on CuentaRetiro { id } }
    }`),
    variables: ({ cuenta_retiro_id }) => ({ cuenta_retiro_id }),
    output: z.object({ cuenta_retiro_id: z.int() }),
    respond: (cuenta) => ({ message: "Cuenta eliminada", cuenta_retiro_id: cuenta.id }),
  }),
  defineRoute({
    method: "GET",
    path: "/admin/retiros.php",
    summary: "Los retiros de todos los conductores, por estado y por páginas (administradores, requiere Bearer)",
    input: z.object({ ...admin, ...paging, ...payoutState, conductor_id: optional(legacyId()) }),
    caller: "admin_id",
    document: operation(`query AllPayouts($page: Int, $per_page: Int, $estado: EstadoRetiro, $conductor_id: Int) {
      allPayouts(page: $page, per_page: $per_page, estado: $estado, conductor_id: $conductor_id) { ...LegacyError ${PAYOUT_PAGE} }
    }`),
    variables: ({ page, per_page, estado, conductor_id }) => ({ page, per_page, estado, conductor_id }),
    output: PAYOUTS,
    respond: payouts,
  }),
  defineRoute({
    method: "POST",
    path: "/admin/retiros.php",
    summary:
      "Un administrador aprueba o rechaza (motivo) un retiro solicitado, o marca pagado (referencia_pago) o fallido (motivo) uno " +
      "aprobado (requiere Bearer)",
    input: z.object({
      ...admin,
      accion: legacyChoice(PAYOUT_ACTIONS),
      retiro_id: legacyId(),
      motivo: optional(legacyText()),
      referencia_pago: optional(legacyText()),
    }),
    caller: "admin_id",
    document: operation(REVIEW),
    variables: ({ admin_id: _caller, ...input }) => input,
    output: z.object({ retiro: PAYOUT }),
    respond: (retiro) => ({ message: `Retiro ${retiro.estado}`, retiro }),
  }),
];
