import L from "leaflet";
import "leaflet/dist/leaflet.css";
import medellin from "../../console/src/map/medellin.geo.json";
import type { Point, SharedTrip } from "./trip.ts";

/** MAP_TILES_URL, which the server writes into the page; absent on machines without a tile server. */
const tilesUrl = () => document.querySelector<HTMLMetaElement>('meta[name="map-tiles"]')?.content || null;

const OUTLINE: L.PathOptions = { color: "#0f766e", weight: 2, fillColor: "#0f766e", fillOpacity: 0.06, interactive: false };
const RIVER: L.PathOptions = { color: "#60a5fa", weight: 3, opacity: 0.8, interactive: false };

const at = (point: Point): L.LatLngExpression => [point.latitud, point.longitud];

/** A dot with a class of its own, so that the page's styles (and people reading the map) tell them apart. */
const dot = (point: Point, className: string, radius: number) =>
  L.circleMarker(at(point), { className, radius, weight: 3, fillOpacity: 1, interactive: false });

/**
 * The trip on a Leaflet map: pickup, destination and the driver, who moves as positions arrive.
 * Tiles when the deployment has a tile server, otherwise the city's outline on a plain background.
 */
export class TripMap {
  readonly #map: L.Map;
  #placed = false;
  #driver: L.CircleMarker | null = null;

  constructor(element: HTMLElement) {
    const tiles = tilesUrl();
    this.#map = L.map(element, { zoomSnap: 0.5, attributionControl: Boolean(tiles) });
    if (tiles) L.tileLayer(tiles, { maxZoom: 19 }).addTo(this.#map);
    else {
      L.geoJSON(medellin as Parameters<typeof L.geoJSON>[0], {
        style: (feature) => (feature?.geometry.type === "LineString" ? RIVER : OUTLINE),
        interactive: false,
      }).addTo(this.#map);
    }
    this.#map.setView([6.2442, -75.5812], 12);
  }

  show(trip: SharedTrip): void {
    if (!this.#placed) {
      this.#placed = true;
      dot(trip.origen, "marcador marcador-recogida", 7).addTo(this.#map);
      dot(trip.destino, "marcador marcador-destino", 7).addTo(this.#map);
      for (const stop of trip.paradas) dot(stop, "marcador marcador-parada", 5).addTo(this.#map);
      const shown = [trip.origen, ...trip.paradas, trip.destino, ...(trip.posicion ? [trip.posicion] : [])];
      this.#map.fitBounds(L.latLngBounds(shown.map(at)), {
        padding: [32, 32],
      });
    }
    if (!trip.posicion) {
      this.#driver?.remove();
      this.#driver = null;
      return;
    }
    if (this.#driver) this.#driver.setLatLng(at(trip.posicion));
    else this.#driver = dot(trip.posicion, "marcador marcador-conductor", 9).addTo(this.#map);
    // The map follows the driver only when they leave it, so that the route stays in view.
    if (!this.#map.getBounds().contains(at(trip.posicion))) this.#map.panTo(at(trip.posicion));
  }
}
