import type { IconName } from "../components/icons";

/** The console's sections, in the sidebar's order; `path` is the route under /consola/. */
export const SECTIONS: { path: string; label: string; icon: IconName }[] = [
  { path: "", label: "Inicio", icon: "inicio" },
  { path: "mapa", label: "Mapa en vivo", icon: "mapa" },
  { path: "viajes", label: "Viajes", icon: "viajes" },
  { path: "usuarios", label: "Usuarios", icon: "usuarios" },
  { path: "conductores", label: "Conductores", icon: "conductores" },
  { path: "empresas", label: "Empresas", icon: "empresas" },
  { path: "tarifas", label: "Tarifas y comisiones", icon: "tarifas" },
  { path: "retiros", label: "Retiros y liquidación", icon: "retiros" },
  { path: "auditoria", label: "Auditoría", icon: "auditoria" },
];
