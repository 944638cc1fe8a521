import type { Reservation } from "../../db/models.js";
import { colombiaGazetteer } from "../maps/gazetteer.js";

/**
 * A department capital counts this many times nearer: Medellín's or Bogotá's neighbourhoods lie
 * farther from their city's point than from a neighbouring town's (Parque Lleras is nearer
 * Envigado's centre than Medellín's).
 */
const CAPITAL_REACH = 2;

/**
 * A reservation's zone: the municipality of its pickup ("Medellín", "Envigado", "Bello"), which
 * the console groups and filters by. The offline gazetteer knows each municipality by one point,
 * so the zone is the one whose point is nearest, a capital's at half its distance; near a boundary
 * it may name the neighbour. Null when the pickup is far from every municipality.
 */
export const pickupZone = (booking: Pick<Reservation, "origen_latitud" | "origen_longitud">): string | null =>
  colombiaGazetteer.nearest({ latitud: booking.origen_latitud, longitud: booking.origen_longitud }, { capitalReach: CAPITAL_REACH })
    ?.nombre ?? null;
