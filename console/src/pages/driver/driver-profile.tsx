import { useState } from "react";
import { Badge } from "../../components/badge";
import { type Column, DataTable } from "../../components/data-table";
import { Facts } from "../../components/facts";
import { Notice } from "../../components/notice";
import { date, dateTime } from "../../format";
import type { FichaConductorFragment, FotoConductorFragment } from "../../gql/graphql";
import { labelOf, REVIEW_STATES, VEHICLE_TYPES } from "../../labels";
import { DocumentViewer, type Photo } from "./document-viewer";
import { DOCUMENT_TYPES, missingPart } from "./documents";

export type Profile = FichaConductorFragment;

/** A driver's name as their profile gives it, or their account's. */
export const profileName = (profile: Profile) => profile.nombre_completo || `${profile.usuario.nombre} ${profile.usuario.apellido}`;

const expiring = (number: string | null | undefined, expires: string | null | undefined) =>
  [number, expires && `vence ${date(expires)}`].filter(Boolean).join(", ");

/** A driver's application, licence and vehicle, side by side: what administrators review and a company's managers consult. */
export function DriverProfileCards({ profile }: { profile: Profile }) {
  const state = REVIEW_STATES[profile.estado_revision];
  const vehicle = profile.vehiculo;
  return (
    <div className="columnas">
      <section className="tarjeta">
        <div className="tarjeta__cabecera">
          <h2>Solicitud</h2>
          <Badge tone={state.tone}>{state.label}</Badge>
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
            ["Tipo", vehicle?.tipo ? labelOf(VEHICLE_TYPES, vehicle.tipo) : null],
            ["Placa", vehicle?.placa],
            ["Marca y modelo", [vehicle?.marca, vehicle?.modelo, vehicle?.anio].filter(Boolean).join(" ")],
            ["Color", vehicle?.color],
            ["Tarjeta de propiedad", vehicle?.tarjeta_propiedad_numero],
            ["SOAT", expiring(vehicle?.soat_numero, vehicle?.soat_vencimiento)],
            ["Técnico-mecánica", expiring(vehicle?.tecnomecanica_numero, vehicle?.tecnomecanica_vencimiento)],
          ]}
        />
      </section>
    </div>
  );
}

/**
 * A driver's document photos: the current ones as thumbnails, and every one they ever had in a
 * table; either opens in the viewer. The links are signed and expire with the page.
 */
export function DocumentPhotos({ photos }: { photos: readonly FotoConductorFragment[] }) {
  const [viewing, setViewing] = useState<{ photos: readonly Photo[]; index: number } | null>(null);
  const current = photos.filter((photo) => !photo.reemplazado_en);

  const historyColumns: Column<FotoConductorFragment>[] = [
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
          onClick={() => setViewing({ photos, index: photos.findIndex((photo) => photo.id === row.id) })}
        >
          Ver<span className="solo-lector"> {DOCUMENT_TYPES[row.tipo_documento]}</span>
        </button>
      ),
    },
  ];

  return (
    <>
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
        <DataTable caption="Todas las fotos que tuvo el conductor" columns={historyColumns} rows={photos} rowKey={(row) => row.id} />
      </section>
      <DocumentViewer photos={viewing?.photos ?? []} start={viewing?.index ?? null} onClose={() => setViewing(null)} />
    </>
  );
}
