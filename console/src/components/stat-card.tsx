import type { ReactNode } from "react";

/** One headline figure with its name and, below, what it is made of; named by its name for screen readers. */
export function StatCard({ name, value, detail }: { name: string; value: string; detail?: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset groups form fields; these are figures to read.
    <div className="cifra" role="group" aria-label={name}>
      <span className="cifra__nombre">{name}</span>
      <span className="cifra__valor">{value}</span>
      {detail && <span className="cifra__detalle">{detail}</span>}
    </div>
  );
}
