import { Badge } from "../../components/badge";
import { date } from "../../format";
import type { EstadoRetiro, TipoCuentaRetiro, TipoDocumentoIdentidad } from "../../gql/graphql";
import { PAYOUT_STATES } from "../../labels";

// What the money pages show alike, for drivers and companies: a payout's state, a payout account's particulars.

/** A payout's state, with why it was refused or failed, or the transfer's reference once paid. */
export function PayoutState({ payout }: { payout: { estado: EstadoRetiro; motivo?: string | null; referencia_pago?: string | null } }) {
  const state = PAYOUT_STATES[payout.estado];
  return (
    <>
      <Badge tone={state?.tone ?? "neutro"}>{state?.label ?? payout.estado}</Badge>
      {(payout.motivo || payout.referencia_pago) && (
        <span className="tabla__secundario">{payout.motivo ?? `Ref. ${payout.referencia_pago}`}</span>
      )}
    </>
  );
}

interface Particulars {
  tipo: TipoCuentaRetiro;
  numero?: string | null;
  titular_nombre?: string | null;
  titular_tipo_documento?: TipoDocumentoIdentidad | null;
  titular_documento?: string | null;
  creado_en: string;
}

/** The mobile or account number, and a bank account's holder; cash has none. */
function identification(account: Particulars): string {
  if (account.tipo === "efectivo") return "Se recoge en la oficina de la plataforma";
  if (account.tipo !== "cuenta_bancaria") return `Celular ${account.numero ?? "—"}`;
  const document = [account.titular_tipo_documento, account.titular_documento].filter(Boolean).join(" ");
  return `Cuenta ${account.numero ?? "—"} · Titular: ${[account.titular_nombre, document].filter(Boolean).join(", ")}`;
}

/**
 * What identifies an account beyond its description, as its owner and administrators read it (the
 * API masks the numbers for anybody else), and when it was registered: a line under its description.
 */
export function AccountParticulars({ account }: { account: Particulars }) {
  return (
    <span className="tabla__secundario">
      {identification(account)} · registrada el {date(account.creado_en)}
    </span>
  );
}
