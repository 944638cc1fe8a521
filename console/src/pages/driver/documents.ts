/** The document photos a driver uploads, as operators call them. */
export const DOCUMENT_TYPES: Record<string, string> = {
  licencia_frente: "Licencia (frente)",
  licencia_reverso: "Licencia (reverso)",
  vehiculo: "Vehículo",
  tarjeta_propiedad: "Tarjeta de propiedad",
  soat: "SOAT",
  tecnomecanica: "Técnico-mecánica",
};

/** A missing part of an application ("licencia.numero") in words. */
export function missingPart(part: string) {
  const [area, field = ""] = part.split(".");
  const words = field.replace(/_/g, " ");
  return area === "vehiculo" ? `Vehículo: ${words}` : area === "licencia" ? `Licencia: ${words}` : words || part;
}
