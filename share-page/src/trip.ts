/** A trip as the server shows it to whoever holds its link (src/domain/safety/shared-trip.ts). */
export interface SharedTrip {
  estado: "pendiente" | "aceptado" | "en_ruta" | "en_curso" | "completado" | "cancelado";
  pasajero: string | null;
  conductor: string | null;
  vehiculo: { tipo: string | null; marca: string | null; color: string | null; placa: string | null } | null;
  posicion: (Point & { en: string }) | null;
  origen: Place;
  destino: Place;
  paradas: Array<Place & { visitada: boolean }>;
  llegada_estimada: string | null;
  terminado_en: string | null;
}

export interface Point {
  latitud: number;
  longitud: number;
}

export interface Place extends Point {
  direccion: string;
}

export const STATE_NAMES: Record<SharedTrip["estado"], string> = {
  pendiente: "Buscando conductor",
  aceptado: "Conductor asignado",
  en_ruta: "El conductor va a la recogida",
  en_curso: "En viaje",
  completado: "Viaje completado",
  cancelado: "Viaje cancelado",
};

export const VEHICLE_NAMES: Record<string, string> = { moto: "Moto", auto: "Carro", mototaxi: "Mototaxi" };

/** Whether the trip is over (the page then shows how it ended until the link stops showing it). */
export const isOver = (trip: SharedTrip) => trip.estado === "completado" || trip.estado === "cancelado";
