import { useState } from "react";
import { useMutation } from "../api/hooks";
import { success } from "../api/result";
import { Notice } from "../components/notice";
import { ReasonDialog } from "../components/reason-dialog";
import { AtenderSosDocument, EnlaceSosDocument, ResolverSosDocument } from "../gql/graphql";
import type { Sos } from "./sos-labels";

/**
 * What an operator does with an SOS: take it ("Atender"), close it with a note ("Resolver"), and
 * make a new link to follow the trip when the alert's own is not at hand (after a reload: links are
 * kept only as hashes). `onChanged` gets the incident as it is after each.
 */
export function SosActions({ sos, onChanged }: { sos: Sos; onChanged: (sos: Sos) => void }) {
  const acknowledge = useMutation(AtenderSosDocument, (data) => success(data.acknowledgeSos));
  const resolve = useMutation(ResolverSosDocument, (data) => success(data.resolveSos));
  const share = useMutation(EnlaceSosDocument, (data) => success(data.shareSosTrip));
  const [resolving, setResolving] = useState(false);
  const label = ` SOS ${sos.id}`;

  async function take() {
    const taken = await acknowledge.run({ incidente_id: sos.id });
    if (taken) onChanged(taken);
  }
  async function close(nota: string) {
    const closed = await resolve.run({ incidente_id: sos.id, nota });
    if (!closed) return;
    setResolving(false);
    onChanged(closed);
  }
  async function link() {
    const shared = await share.run({ incidente_id: sos.id });
    if (shared) onChanged(shared);
  }

  return (
    <div className="sos__acciones">
      {sos.estado === "abierto" && (
        <button type="button" className="boton boton--peligro" onClick={take} disabled={acknowledge.running}>
          Atender<span className="solo-lector">{label}</span>
        </button>
      )}
      {sos.estado === "atendido" && (
        <button
          type="button"
          className="boton"
          onClick={() => {
            resolve.clearError();
            setResolving(true);
          }}
        >
          Resolver<span className="solo-lector">{label}</span>
        </button>
      )}
      {sos.estado !== "resuelto" && !sos.enlace_seguimiento && (
        <button type="button" className="boton boton--secundario" onClick={link} disabled={share.running}>
          Crear enlace de seguimiento<span className="solo-lector">{label}</span>
        </button>
      )}
      <Notice kind="error">{acknowledge.error ?? share.error}</Notice>
      <ReasonDialog
        open={resolving}
        title={`Resolver el SOS #${sos.id}`}
        message="Cuenta qué se hizo: queda en la historia del SOS y en la auditoría."
        label="Nota"
        confirm="Resolver"
        busy={resolve.running}
        error={resolve.error}
        onClose={() => setResolving(false)}
        onConfirm={close}
      />
    </div>
  );
}
