#!/usr/bin/env node
// Builds src/domain/maps/data/colombia.json, the offline gazetteer: every Colombian municipality
// (and non-municipalised area) with its department and coordinates, taken from the GeoNames-based
// data of the country-state-city package. Run again after upgrading that package:
//   node scripts/build-gazetteer.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const states = require("country-state-city/lib/assets/state.json");
const cities = require("country-state-city/lib/assets/city.json");
const OUTPUT = "src/domain/maps/data/colombia.json";
const { version } = require("country-state-city/package.json");

// Department capitals, used to settle names several departments share ("Florencia", "Armenia").
const CAPITALS = {
  AMA: "Leticia",
  ANT: "Medellín",
  ARA: "Arauca",
  ATL: "Barranquilla",
  BOL: "Cartagena de Indias",
  BOY: "Tunja",
  CAL: "Manizales",
  CAQ: "Florencia",
  CAS: "Yopal",
  CAU: "Popayán",
  CES: "Valledupar",
  CHO: "Quibdó",
  COR: "Montería",
  CUN: "Bogotá D.C.",
  DC: "Bogotá D.C.",
  GUA: "Inírida",
  GUV: "San José del Guaviare",
  HUI: "Neiva",
  LAG: "Riohacha",
  MAG: "Santa Marta",
  MET: "Villavicencio",
  NAR: "Pasto",
  NSA: "Cúcuta",
  PUT: "Mocoa",
  QUI: "Armenia",
  RIS: "Pereira",
  SAP: "San Andrés",
  SAN: "Bucaramanga",
  SUC: "Sincelejo",
  TOL: "Ibagué",
  VAC: "Cali",
  VAU: "Mitú",
  VID: "Puerto Carreño",
};

const departments = Object.fromEntries(states.filter((s) => s.countryCode === "CO").map((s) => [s.isoCode, s.name]));
const seen = new Set();
const places = cities
  .filter(([, country]) => country === "CO")
  // The capital district is listed under Cundinamarca too; it belongs to itself.
  .filter(([name, , department]) => !(name === "Bogotá D.C." && department === "CUN"))
  .map(([name, , department, lat, lng]) => [
    name,
    department,
    Number(Number(lat).toFixed(5)),
    Number(Number(lng).toFixed(5)),
    CAPITALS[department] === name ? 1 : 0,
  ])
  .filter(([name, department]) => {
    const key = `${name}|${department}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  })
  .sort((a, b) => a[0].localeCompare(b[0], "es") || a[1].localeCompare(b[1]));

const missingCapitals = Object.entries(CAPITALS).filter(
  ([code, name]) => !places.some((p) => p[0] === name && (p[1] === code || code === "CUN")),
);
if (missingCapitals.length) throw new Error(`capitals not found: ${missingCapitals.map(([c, n]) => `${n} (${c})`).join(", ")}`);

const previous = (() => {
  try {
    return readFileSync(OUTPUT, "utf8");
  } catch {
    return "";
  }
})();
const gazetteer = {
  source: `GeoNames via country-state-city@${version}`,
  fields: ["nombre", "departamento", "latitud", "longitud", "capital"],
  departments,
  places,
};
const json = `${JSON.stringify(gazetteer)}\n`;
writeFileSync(OUTPUT, json);
console.log(
  `${OUTPUT}: ${places.length} places in ${Object.keys(departments).length} departments${previous === json ? " (unchanged)" : ""}`,
);
