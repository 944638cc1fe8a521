import { useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Link } from "../../app/router";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { ReasonDialog } from "../../components/reason-dialog";
import { date } from "../../format";
import { AprobarConductorDocument, RechazarConductorDocument, RevisionConductorDocument } from "../../gql/graphql";
import { DocumentPhotos, DriverProfileCards, profileName } from "./driver-profile";

export function DriverPage({ driverId }: { driverId: number }) {
  const { data, error, loading, reload } = useQuery(RevisionConductorDocument, { conductor_id: driverId }, (result) => ({
    profile: success(result.driverProfile),
    photos: success(result.driverDocumentHistory).data,
  }));
  const approve = useMutation(AprobarConductorDocument, (result) => success(result.approveDriver));
  const reject = useMutation(RechazarConductorDocument, (result) => success(result.rejectDriver));
  const [asking, setAsking] = useState<"aprobar" | "rechazar" | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const profile = data?.profile;
  const name = profile ? profileName(profile) : "Conductor";
  // Only an application sent to review can be decided (the API refuses the others).
  const inReview = profile?.estado_revision === "en_revision";

  async function decide(action: "aprobar" | "rechazar", motivo?: string) {
    const result =
      action === "aprobar"
        ? await approve.run({ conductor_id: driverId })
        : await reject.run({ conductor_id: driverId, motivo: motivo ?? "" });
    if (!result) return;
    setAsking(null);
    setDone(
      result.repetido
        ? "El conductor ya estaba en ese estado; no cambió nada."
        : action === "aprobar"
          ? `${name} quedó aprobado y puede conectarse.`
          : `La solicitud de ${name} quedó rechazada; se le informó el motivo.`,
    );
    reload();
  }

  return (
    <>
      <p>
        <Link to="conductores">← Volver a la revisión</Link>
      </p>
      <PageHeader
        title={name}
        description={profile ? `${profile.email} · solicitud del ${date(profile.fecha_solicitud ?? profile.fecha_creacion)}` : undefined}
      >
        {profile && (
          <>
            <button type="button" className="boton" onClick={() => setAsking("aprobar")} disabled={!inReview}>
              Aprobar
            </button>
            <button type="button" className="boton boton--peligro" onClick={() => setAsking("rechazar")} disabled={!inReview}>
              Rechazar
            </button>
          </>
        )}
      </PageHeader>
      <Notice kind="exito">{done}</Notice>
      <Notice kind="error">{error}</Notice>
      {profile && !inReview && !done && (
        <Notice kind="info">Esta solicitud no está en revisión: solo se aprueban o rechazan las que el conductor envió a revisión.</Notice>
      )}
      {!data && loading && <Loading />}
      {profile && (
        <>
          <DriverProfileCards profile={profile} />
          <DocumentPhotos photos={data?.photos ?? []} />
        </>
      )}
      <ConfirmDialog
        open={asking === "aprobar"}
        title="Aprobar conductor"
        message={`${name} podrá conectarse y recibir viajes. ¿Aprobar la solicitud?`}
        confirm="Aprobar"
        busy={approve.running}
        error={approve.error}
        onClose={() => setAsking(null)}
        onConfirm={() => decide("aprobar")}
      />
      <ReasonDialog
        open={asking === "rechazar"}
        title="Rechazar solicitud"
        message={`El conductor verá el motivo y podrá corregir y volver a enviar su solicitud.`}
        label="Motivo del rechazo"
        confirm="Rechazar"
        danger
        busy={reject.running}
        error={reject.error}
        onClose={() => setAsking(null)}
        onConfirm={(motivo) => decide("rechazar", motivo)}
      />
    </>
  );
}
