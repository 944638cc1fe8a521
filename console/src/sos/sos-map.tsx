import L from "leaflet";
import { useEffect } from "react";
import { tooltipText, useCityMap } from "../map/city-map";
import type { Sos } from "./sos-labels";

/** Where an SOS was sent from, on the city map. Loaded with the first alert, not with the console. */
export function SosMap({ sos, name }: { sos: Sos; name: string }) {
  const { container, map, hasTiles } = useCityMap(`Mapa: dónde se envió el SOS #${sos.id}`);
  const { latitud, longitud } = sos;
  useEffect(() => {
    if (!map) return;
    const marker = L.circleMarker([latitud, longitud], { radius: 9, weight: 3, fillOpacity: 1, className: "punto-sos" })
      .bindTooltip(tooltipText(`${name}: aquí envió el SOS`))
      .addTo(map);
    map.setView([latitud, longitud], 14, { animate: false });
    return () => {
      marker.remove();
    };
  }, [map, latitud, longitud, name]);
  return <div ref={container} className={hasTiles ? "mapa mapa--sos" : "mapa mapa--sos mapa--sin-teselas"} />;
}
