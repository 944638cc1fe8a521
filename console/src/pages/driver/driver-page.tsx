import { useState } from "react";
import { useMutation, useQuery } from "../../api/hooks";
import { success } from "../../api/result";
import { Link } from "../../app/router";
import { Badge } from "../../components/badge";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { type Column, DataTable } from "../../components/data-table";
import { Loading, Notice } from "../../components/notice";
import { PageHeader } from "../../components/page-header";
import { ReasonDialog } from "../../components/reason-dialog";
import { date, dateTime } from "../../format";
import { AprobarConductorDocument, RechazarConductorDocument, RevisionConductorDocument } from "../../gql/graphql";
import { labelOf, REVIEW_STATES, VEHICLE_TYPES } from "../../labels";
import { DocumentViewer, type Photo } from "./document-viewer";
import { DOCUMENT_TYPES, missingPart } from "./documents";

type HistoryRow = Photo & { estado: string; fecha_vencimiento?: string | null; numero_documento?: string | null };

/** Label/value pairs, skipping the values the driver has not given. */
function Facts({ items }: { items: [string, string | number | null | undefined][] }) {
  return (
    <dl className="definiciones">
      {items.map(([label, value]) => (
        <div key={label} className="definiciones__fila">
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === "" ? "—" : value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function DriverPage({ driverId }: { driverId: number }) {
  const { data, error, loading, reload } = useQuery(RevisionConductorDocument, { conductor_id: driverId }, (result) => ({
    profile: success(result.driverProfile),
    photos: success(result.driverDocumentHistory).data,
  }));
  const approve = useMutation(AprobarConductorDocument, (result) => success(result.approveDriver));
  const reject = useMutation(RechazarConductorDocument, (result) => success(result.rejectDriver));
  const [asking, setAsking] = useState<"aprobar" | "rechazar" | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [viewing, setViewing] = useState<{ photos: readonly Photo[]; index: number } | null>(null);

  const profile = data?.profile;
  const name = profile ? profile.nombre_completo || `${profile.usuario.nombre} ${profile.usuario.apellido}` : "Conductor";
  const current = (data?.photos ?? []).filter((photo) => !photo.reemplazado_en);
  const state = profile ? REVIEW_STATES[profile.estado_revision] : undefined;
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

  const historyColumns: Column<HistoryRow>[] = [
    { header: "Documento", cell: (row) => DOCUMENT_TYPES[row.tipo_documento] ?? row.tipo_documento },
    { header: "Subida", cell: (row) => dateTime(row.subido_en) },
    {
      header: "Estado",
      cell: (row) => (row.reemplazado_en ? <Badge tone="neutro">Reemplazada</Badge> : <Badge tone="info">Vigente</Badge>),
    },
    { header: "Número", cell: (row) => row.numero_documento ?? "—" },
    { header: "Vence", cell: (row) => date(row.fecha_vencimiento) },
    {
      header: "Foto",
      kind: "acciones",
      cell: (row) => (
        <button
          type="button"
          className="boton boton--secundario boton--compacto"
          onClick={() => setViewing({ photos: data?.photos ?? [], index: (data?.photos ?? []).findIndex((photo) => photo.id === row.id) })}
        >
          Ver<span className="solo-lector"> {DOCUMENT_TYPES[row.tipo_documento]}</span>
        </button>
      ),
    },
  ];

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
          <div className="columnas">
            <section className="tarjeta">
              <div className="tarjeta__cabecera">
                <h2>Solicitud</h2>
                {state && <Badge tone={state.tone}>{state.label}</Badge>}
              </div>
              <Facts
                items={[
                  ["Teléfono", profile.telefono],
                  ["Dirección", profile.direccion],
                  ["Cuenta", profile.usuario.es_activo ? "Activa" : "Suspendida"],
                  ["Completa", `${profile.completitud.porcentaje} %`],
                  ["Aprobada el", profile.fecha_aprobacion ? dateTime(profile.fecha_aprobacion) : null],
                  ["Motivo del rechazo", profile.motivo_rechazo],
                ]}
              />
              {profile.completitud.faltantes.length > 0 && (
                <Notice kind="info">Falta: {profile.completitud.faltantes.map(missingPart).join(", ")}.</Notice>
              )}
              {profile.documentos_vencidos.length > 0 && (
                <Notice kind="error">Documentos vencidos: {profile.documentos_vencidos.join(", ")}.</Notice>
              )}
            </section>
            <section className="tarjeta">
              <h2>Licencia de conducción</h2>
              <Facts
                items={[
                  ["Número", profile.licencia?.numero],
                  ["Categoría", profile.licencia?.tipo],
                  ["Expedida", profile.licencia?.fecha_emision ? date(profile.licencia.fecha_emision) : null],
                  ["Vence", profile.licencia?.fecha_expiracion ? date(profile.licencia.fecha_expiracion) : null],
                ]}
              />
            </section>
            <section className="tarjeta">
              <h2>Vehículo</h2>
              <Facts
                items={[
                  ["Tipo", profile.vehiculo?.tipo ? labelOf(VEHICLE_TYPES, profile.vehiculo.tipo) : null],
                  ["Placa", profile.vehiculo?.placa],
                  ["Marca y modelo", [profile.vehiculo?.marca, profile.vehiculo?.modelo, profile.vehiculo?.anio].filter(Boolean).join(" ")],
                  ["Color", profile.vehiculo?.color],
                  ["Tarjeta de propiedad", profile.vehiculo?.tarjeta_propiedad_numero],
                  [
                    "SOAT",
                    [
                      profile.vehiculo?.soat_numero,
                      profile.vehiculo?.soat_vencimiento && `vence ${date(profile.vehiculo.soat_vencimiento)}`,
                    ]
                      .filter(Boolean)
                      .join(", "),
                  ],
                  [
                    "Técnico-mecánica",
                    [
                      profile.vehiculo?.tecnomecanica_numero,
                      profile.vehiculo?.tecnomecanica_vencimiento && `vence ${date(profile.vehiculo.tecnomecanica_vencimiento)}`,
                    ]
                      .filter(Boolean)
                      .join(", "),
                  ],
                ]}
              />
            </section>
          </div>
          <section className="tarjeta">
            <h2>Documentos vigentes</h2>
            {current.length === 0 ? (
              <p>El conductor no ha subido fotos de sus documentos.</p>
            ) : (
              <ul className="miniaturas">
                {current.map((photo, index) => (
                  <li key={photo.id}>
                    <button type="button" className="miniatura" onClick={() => setViewing({ photos: current, index })}>
                      <img src={photo.url} alt="" loading="lazy" />
                      <span>{DOCUMENT_TYPES[photo.tipo_documento] ?? photo.tipo_documento}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="tarjeta">
            <h2>Historial de documentos</h2>
            <DataTable
              caption="Todas las fotos que tuvo el conductor"
              columns={historyColumns}
              rows={data?.photos ?? []}
              rowKey={(row) => row.id}
            />
          </section>
        </>
      )}
      <DocumentViewer photos={viewing?.photos ?? []} start={viewing?.index ?? null} onClose={() => setViewing(null)} />
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
