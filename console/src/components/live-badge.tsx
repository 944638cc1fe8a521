import type { LiveStatus } from "../api/live";
import { Badge, type Tone } from "./badge";

const STATUS: Record<LiveStatus, { label: string; tone: Tone }> = {
  conectando: { label: "Conectando…", tone: "alerta" },
  en_vivo: { label: "En vivo", tone: "exito" },
  sin_conexion: { label: "Sin conexión en vivo", tone: "peligro" },
};

/** Whether what a live view shows is current: without the connection it may be out of date. */
export function LiveBadge({ status }: { status: LiveStatus }) {
  return <Badge tone={STATUS[status].tone}>{STATUS[status].label}</Badge>;
}
