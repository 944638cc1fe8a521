import L from "leaflet";
import type { ConductorEnMapaFragment } from "../../gql/graphql";
import { labelOf, VEHICLE_TYPES } from "../../labels";
import { tooltipText } from "../../map/city-map";
import { DRIVER_STATES, stateClass } from "./driver-states";

/** The drivers as circles on the map, one per driver, moved and recoloured in place as updates arrive. */
export class DriverLayer {
  private readonly markers = new Map<number, L.CircleMarker>();
  private readonly group: L.LayerGroup;

  constructor(map: L.Map) {
    this.group = L.layerGroup().addTo(map);
  }

  private tooltip(driver: ConductorEnMapaFragment) {
    return tooltipText(
      `${driver.nombre} · ${labelOf(VEHICLE_TYPES, driver.tipo_vehiculo)} · ${DRIVER_STATES[driver.estado]}${driver.viaje_activo_id ? ` (viaje #${driver.viaje_activo_id})` : ""}`,
    );
  }

  put(driver: ConductorEnMapaFragment) {
    const marker = this.markers.get(driver.conductor_id);
    if (marker) {
      marker.setLatLng([driver.latitud, driver.longitud]).setTooltipContent(this.tooltip(driver));
      // Leaflet sets className only when it draws the circle; a new state swaps it on the element.
      marker.getElement()?.setAttribute("class", `leaflet-interactive ${stateClass(driver.estado)}`);
      return;
    }
    const created = L.circleMarker([driver.latitud, driver.longitud], {
      radius: 8,
      weight: 2,
      fillOpacity: 0.95,
      className: stateClass(driver.estado),
    })
      .bindTooltip(this.tooltip(driver))
      .addTo(this.group);
    this.markers.set(driver.conductor_id, created);
  }

  remove(driverId: number) {
    this.markers.get(driverId)?.remove();
    this.markers.delete(driverId);
  }

  clear() {
    this.group.clearLayers();
    this.markers.clear();
  }
}
