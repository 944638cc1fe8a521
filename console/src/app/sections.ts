import type { Role } from "../auth/session";
import type { IconName } from "../components/icons";

export interface Section {
  /** The route under /consola/. */
  path: string;
  label: string;
  icon: IconName;
}

/**
 * The sections each role sees, in the sidebar's order. A manager's are their own company's only;
 * the administrators' are never shown to them (nor routed, see routes.tsx).
 */
export const SECTIONS: Record<Role, Section[]> = {
  admin: [
    { path: "", label: "Inicio", icon: "inicio" },
    { path: "mapa", label: "Mapa en vivo", icon: "mapa" },
    { path: "viajes", label: "Viajes", icon: "viajes" },
    { path: "reservas", label: "Reservas", icon: "reservas" },
    { path: "sos", label: "Incidentes SOS", icon: "sos" },
    { path: "usuarios", label: "Usuarios", icon: "usuarios" },
    { path: "conductores", label: "Conductores", icon: "conductores" },
    { path: "empresas", label: "Empresas", icon: "empresas" },
    { path: "tarifas", label: "Tarifas y comisiones", icon: "tarifas" },
    { path: "retiros", label: "Retiros y liquidación", icon: "retiros" },
    { path: "auditoria", label: "Auditoría", icon: "auditoria" },
  ],
  empresa: [
    { path: "", label: "Mi empresa", icon: "empresas" },
    { path: "mapa", label: "Mapa en vivo", icon: "mapa" },
    { path: "viajes", label: "Viajes", icon: "viajes" },
    { path: "reservas", label: "Reservas", icon: "reservas" },
    { path: "sos", label: "Incidentes SOS", icon: "sos" },
    { path: "conductores", label: "Conductores", icon: "conductores" },
    { path: "solicitudes", label: "Solicitudes", icon: "solicitudes" },
    { path: "gestores", label: "Gestores", icon: "usuarios" },
    { path: "dinero", label: "Dinero y retiros", icon: "retiros" },
  ],
};
