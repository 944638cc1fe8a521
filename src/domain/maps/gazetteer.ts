import { createRequire } from "node:module";
import { greatCircleKm, type Point } from "../geo.js";
import type { Geocoder, Place } from "../map-providers.js";

interface GazetteerData {
  departments: Record<string, string>;
  places: Array<[nombre: string, departamento: string, latitud: number, longitud: number, capital: 0 | 1]>;
}

interface Entry extends Point {
  nombre: string;
  departamento: string;
  capital: boolean;
  key: string;
}

/** Lower case, no accents, punctuation as spaces: "Bogotá D.C." and "bogota dc" meet at "bogota d c". */
export const normalize = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

// Everyday names of places the data spells in full.
const ALIASES: Record<string, string> = {
  bogota: "Bogotá D.C.",
  "santa fe de bogota": "Bogotá D.C.",
  "bogota dc": "Bogotá D.C.",
  cartagena: "Cartagena de Indias",
  cucuta: "Cúcuta",
};

/** A point farther than this from every place is not in Colombia as far as the gazetteer knows. */
const REVERSE_MAX_KM = 60;

/** A municipality: its name and its department's. */
interface Municipality {
  nombre: string;
  departamento: string;
}

function createGazetteer(
  data: GazetteerData,
): Geocoder & { size: number; nearest(point: Point, options?: { capitalReach?: number }): Municipality | null } {
  const entries: Entry[] = data.places.map(([nombre, code, latitud, longitud, capital]) => ({
    nombre,
    departamento: data.departments[code] ?? code,
    latitud,
    longitud,
    capital: capital === 1,
    key: normalize(nombre),
  }));
  const byName = new Map<string, Entry[]>();
  for (const entry of entries) byName.set(entry.key, [...(byName.get(entry.key) ?? []), entry]);
  for (const [alias, name] of Object.entries(ALIASES)) {
    byName.set(
      alias,
      entries.filter((e) => e.nombre === name),
    );
  }
  const departments = new Map(Object.values(data.departments).map((name) => [normalize(name), name]));
  // Longest names first, so "San Andres de Cuerquia" wins over "San Andres" inside a free text.
  const namesByLength = [...byName.keys()].filter((k) => k.length >= 4).sort((a, b) => b.length - a.length);

  const toPlace = (entry: Entry, direccion: string): Place => ({
    latitud: entry.latitud,
    longitud: entry.longitud,
    direccion,
    ciudad: entry.nombre,
    departamento: entry.departamento,
    pais: "Colombia",
  });

  /** Among places sharing a name, the one in the department the text names, else a capital, else the first. */
  const pick = (candidates: Entry[], departmentHints: Set<string>) =>
    candidates.find((c) => departmentHints.has(c.departamento)) ?? candidates.find((c) => c.capital) ?? candidates[0];

  function find(address: string): Entry | undefined {
    const segments = address
      .split(/[,;\n]/)
      .map(normalize)
      .filter(Boolean);
    const hints = new Set(segments.map((s) => departments.get(s)).filter((d): d is string => d !== undefined));
    // A whole segment naming a place, the last one first: addresses end with the city. A segment
    // that names a department ("Córdoba") is read as the department here, not as a town.
    for (const segment of [...segments].reverse()) {
      const candidates = departments.has(segment) ? undefined : byName.get(segment);
      if (candidates?.length) return pick(candidates, hints);
    }
    // A place named somewhere inside the text.
    const text = ` ${segments.join(" ")} `;
    const inside = namesByLength.find((name) => text.includes(` ${name} `));
    if (inside) return pick(byName.get(inside)!, hints);
    // Only a department: its capital.
    const [department] = hints;
    return department ? entries.find((e) => e.departamento === department && e.capital) : undefined;
  }

  /**
   * The municipality whose point is nearest, or null farther than REVERSE_MAX_KM from all of them.
   * With `capitalReach`, a department capital counts that many times nearer: a capital is the big
   * city, which spreads far beyond the distance to its neighbours' centres.
   */
  function nearest(point: Point, { capitalReach = 1 } = {}): Entry | null {
    // Compared on a flat projection around the point, which this near the equator orders places as
    // the sphere does, without trigonometry per place: a console lists hundreds of pickups at once.
    const squeeze = Math.cos((point.latitud * Math.PI) / 180);
    let found: Entry | null = null;
    let best = Infinity;
    for (const entry of entries) {
      const flat = (entry.latitud - point.latitud) ** 2 + ((entry.longitud - point.longitud) * squeeze) ** 2;
      const seen = entry.capital ? flat / capitalReach ** 2 : flat;
      if (seen < best) [found, best] = [entry, seen];
    }
    return found && greatCircleKm(point, found) <= REVERSE_MAX_KM ? found : null;
  }

  /** Places with a name (or an everyday name) that has a word starting with the search: "san" finds San Gil and Puerto Santander. */
  function named(search: string): Entry[] {
    const found = new Set<Entry>();
    for (const [name, places] of byName) {
      if (name.startsWith(search) || name.includes(` ${search}`)) for (const place of places) found.add(place);
    }
    return [...found];
  }

  return {
    size: entries.length,
    async search(query) {
      const matches = named(normalize(query));
      if (matches.length > 0) return matches.map((entry) => toPlace(entry, `${entry.nombre}, ${entry.departamento}`));
      // A whole address ("Calle 10 # 43-12, Medellín") names its town somewhere.
      const entry = find(query);
      return entry ? [toPlace(entry, query.trim())] : [];
    },
    async geocode(address) {
      const entry = find(address);
      return entry ? toPlace(entry, address.trim()) : null;
    },
    nearest,
    async reverse(point) {
      const place = nearest(point);
      if (!place) return null;
      return {
        ...toPlace(place, `Cerca de ${place.nombre}, ${place.departamento}`),
        latitud: point.latitud,
        longitud: point.longitud,
      };
    },
  };
}

const require = createRequire(import.meta.url);
/** Every Colombian municipality, built by scripts/build-gazetteer.mjs. */
export const colombiaGazetteer = createGazetteer(require("./data/colombia.json") as GazetteerData);
