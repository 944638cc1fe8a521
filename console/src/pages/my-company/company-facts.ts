import { date, dateTime } from "../../format";

/** What both a company's managers and administrators read of its record: how to reach it and when it was signed up and reviewed. */
export const recordFacts = (company: {
  nit: string;
  email?: string | null;
  telefono?: string | null;
  direccion?: string | null;
  creado_en: string;
  revisada_en?: string | null;
}): [string, string | null | undefined][] => [
  ["NIT", company.nit],
  ["Correo", company.email],
  ["Teléfono", company.telefono],
  ["Dirección", company.direccion],
  ["Registrada el", date(company.creado_en)],
  ["Revisada el", company.revisada_en ? dateTime(company.revisada_en) : null],
];
