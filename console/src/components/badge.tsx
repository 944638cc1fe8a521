export type Tone = "neutro" | "exito" | "alerta" | "peligro" | "info";

export function Badge({ tone, children }: { tone: Tone; children: string }) {
  return <span className={`etiqueta etiqueta--${tone}`}>{children}</span>;
}
