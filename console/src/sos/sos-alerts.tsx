import { lazy, Suspense, useCallback, useState } from "react";
import { useSubscription } from "../api/live";
import { Link } from "../app/router";
import { useSession } from "../auth/session";
import { Badge } from "../components/badge";
import { Notice } from "../components/notice";
import { dateTime } from "../format";
import { AlertasSosDocument } from "../gql/graphql";
import { newer, type Sos, SOS_STATES, senderOf } from "./sos-labels";
import { SosActions } from "./sos-actions";

// Leaflet comes with the first alert, not with every page's first download.
const SosMap = lazy(() => import("./sos-map").then((module) => ({ default: module.SosMap })));

/** A subscription the server ends (its database restarting) is asked for again this soon. */
const RESUBSCRIBE_MS = 2000;

/**
 * Every SOS not resolved yet, on top of every page of a signed-in operator: who sent it, from which
 * trip and when, where (on the map), the link to follow the trip, and what to do. Administrators
 * see every one and act on it; a company's managers see those of the trips done for the company.
 * Each incident shows once, as its newest copy, however many times the server sends it.
 */
export function SosAlerts() {
  const current = useSession();
  const [incidents, setIncidents] = useState<ReadonlyMap<number, Sos>>(new Map());
  const [done, setDone] = useState<string | null>(null);
  const keep = useCallback((sos: Sos) => {
    setIncidents((held) => new Map(held).set(sos.id, newer(held.get(sos.id), sos)));
    if (sos.estado === "resuelto") setDone(`SOS #${sos.id} resuelto.`);
  }, []);
  useSubscription(AlertasSosDocument, current ? {} : null, (data) => keep(data.sosAlerts), { resubscribeMs: RESUBSCRIBE_MS });

  const open = [...incidents.values()].filter((sos) => sos.estado !== "resuelto").sort((a, b) => b.id - a.id);
  if (open.length === 0) return <Notice kind="exito">{done}</Notice>;
  const operator = current?.rol === "admin";
  return (
    <section className="sos" aria-label="Alertas SOS">
      {open.map((sos) => (
        <article key={sos.id} className={sos.escalado ? "sos__alerta sos__alerta--escalada" : "sos__alerta"} role="alert">
          <header className="sos__cabecera">
            <h2>
              SOS #{sos.id} · {senderOf(sos)} · Viaje #{sos.viaje_id}
            </h2>
            <Badge tone={SOS_STATES[sos.estado].tone}>{SOS_STATES[sos.estado].label}</Badge>
            {sos.escalado && <Badge tone="peligro">Escalado</Badge>}
          </header>
          <div className="sos__cuerpo">
            <Suspense fallback={<div className="mapa mapa--sos" />}>
              <SosMap sos={sos} name={senderOf(sos)} />
            </Suspense>
            <dl className="sos__datos">
              <dt>Enviado</dt>
              <dd>{dateTime(sos.creado_en)}</dd>
              <dt>Posición</dt>
              <dd>
                {sos.latitud}, {sos.longitud}
              </dd>
              {sos.remitente && (
                <>
                  <dt>Teléfono</dt>
                  <dd>
                    <a href={`tel:${sos.remitente.telefono}`}>{sos.remitente.telefono}</a>
                  </dd>
                </>
              )}
              <dt>Seguimiento</dt>
              <dd>
                {sos.enlace_seguimiento ? (
                  <a href={sos.enlace_seguimiento} target="_blank" rel="noreferrer">
                    Seguir el viaje en vivo
                  </a>
                ) : (
                  "Sin enlace en esta pantalla"
                )}
              </dd>
              {sos.escalado_en && (
                <>
                  <dt>Escalado</dt>
                  <dd>
                    {dateTime(sos.escalado_en)}
                    {sos.escalado ? ": nadie lo ha atendido" : ": se escaló antes de que lo atendieran"}
                  </dd>
                </>
              )}
            </dl>
          </div>
          <footer className="sos__pie">
            {operator && <SosActions sos={sos} onChanged={keep} />}
            <Link to={`sos/${sos.id}`}>Ver la historia del SOS #{sos.id}</Link>
          </footer>
        </article>
      ))}
    </section>
  );
}
