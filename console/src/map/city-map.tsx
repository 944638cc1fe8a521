import L from "leaflet";
import "leaflet/dist/leaflet.css";
import { useEffect, useRef, useState } from "react";
import medellin from "./medellin.geo.json";

/** MAP_TILES_URL, which the server writes into the page; absent on machines without a tile server. */
const tilesUrl = () => document.querySelector<HTMLMetaElement>('meta[name="map-tiles"]')?.content || null;

const OUTLINE: L.PathOptions = { color: "#0f766e", weight: 2, fillColor: "#0f766e", fillOpacity: 0.06 };
const RIVER: L.PathOptions = { color: "#60a5fa", weight: 3, opacity: 0.8 };

/** A tooltip's content as DOM text, so what people typed (a name, an address) is never read as HTML. */
export function tooltipText(text: string) {
  const span = document.createElement("span");
  span.textContent = text;
  return span;
}

function drawCity(element: HTMLElement, label: string) {
  const tiles = tilesUrl();
  const map = L.map(element, { zoomSnap: 0.5, attributionControl: Boolean(tiles) });
  if (tiles) L.tileLayer(tiles, { maxZoom: 19 }).addTo(map);
  const city = L.geoJSON(medellin as Parameters<typeof L.geoJSON>[0], {
    style: (feature) => (feature?.geometry.type === "LineString" ? RIVER : OUTLINE),
    interactive: false,
  }).addTo(map);
  map.fitBounds(city.getBounds(), { padding: [16, 16] });
  map.getContainer().setAttribute("aria-label", label);
  return map;
}

/**
 * A Leaflet map of Medellín: tiles when the deployment has a tile server, otherwise the city's
 * outline and river on a plain background. Returns the map once it exists, for the page's layers.
 */
export function useCityMap(label: string) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let created: L.Map | null = null;
    // A map removed while it zooms with an animation fails when the animation ends: it waits for it.
    let zooming = false;
    // Leaflet fits the city to the container's size, which a map in a dialog lacks until the dialog
    // opens: the map is drawn once its container has a size, and redrawn when that size changes.
    const sizes = new ResizeObserver(() => {
      if (created) created.invalidateSize();
      else if (element.clientWidth > 0) {
        created = drawCity(element, label);
        created.on("zoomanim", () => {
          zooming = true;
        });
        created.on("zoomend", () => {
          zooming = false;
        });
        setMap(created);
      }
    });
    sizes.observe(element);
    return () => {
      sizes.disconnect();
      const removed = created;
      if (removed && zooming) removed.once("zoomend", () => removed.remove());
      else removed?.remove();
      setMap(null);
    };
  }, [label]);

  return { container, map, hasTiles: tilesUrl() !== null };
}
