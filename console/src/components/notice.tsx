import type { ReactNode } from "react";

/** A message about the page: errors are announced at once (role=alert), confirmations politely. */
export function Notice({ kind, children }: { kind: "error" | "exito" | "info"; children: ReactNode }) {
  if (!children) return null;
  return (
    <div className={`aviso aviso--${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

export function Loading({ label = "Cargando…" }: { label?: string }) {
  return (
    <p className="cargando" role="status">
      <span className="cargando__rueda" aria-hidden="true" />
      {label}
    </p>
  );
}
