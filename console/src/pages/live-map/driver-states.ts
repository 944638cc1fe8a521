import type { EstadoConductorEnVivo } from "../../gql/graphql";

/** How each state of a connected driver is named; its colour is the CSS class `estado-conductor--<state>`. */
export const DRIVER_STATES: Record<EstadoConductorEnVivo, string> = {
  libre: "Libre",
  en_viaje: "En viaje",
  documentos_vencidos: "Documentos vencidos",
};

export const stateClass = (state: EstadoConductorEnVivo) => `estado-conductor estado-conductor--${state}`;
