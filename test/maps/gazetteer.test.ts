import { describe, expect, it } from "vitest";
import { colombiaGazetteer, normalize } from "../../src/domain/maps/gazetteer.js";
import data from "../../src/domain/maps/data/colombia.json" with { type: "json" };

const city = async (address: string) => (await colombiaGazetteer.geocode(address))?.ciudad ?? null;

describe("the Colombian gazetteer", () => {
  it("holds every department and over 1,100 municipalities, each department with its capital", () => {
    expect(Object.keys(data.departments)).toHaveLength(33);
    expect(colombiaGazetteer.size).toBeGreaterThanOrEqual(1100);
    for (const code of Object.keys(data.departments)) {
      expect(
        data.places.some(([, department]) => department === code),
        code,
      ).toBe(true);
    }
    expect(data.places.filter((p) => p[4] === 1).length).toBeGreaterThanOrEqual(32);
  });

  it("normalises accents, case and punctuation", () => {
    expect(normalize("  Bogotá D.C. ")).toBe("bogota d c");
    expect(normalize("MEDELLÍN")).toBe("medellin");
  });

  it.each([
    ["Medellin, Antioquia", "Medellín"],
    ["medellín", "Medellín"],
    ["MEDELLIN", "Medellín"],
    ["Calle 10 # 43-12, Medellín", "Medellín"],
    ["Cra 7 # 32-16, Bogotá", "Bogotá D.C."],
    ["bogota d.c.", "Bogotá D.C."],
    ["Cartagena", "Cartagena de Indias"],
    ["Itagüí", "Itagui"],
    ["Montería, Córdoba", "Montería"],
    ["Avenida 30 de Agosto 45, Pereira, Risaralda", "Pereira"],
    ["San Andrés de Cuerquía", "San Andrés de Cuerquía"],
    ["Vivo en el centro de Manizales cerca del parque", "Manizales"],
  ])("%s is in %s", async (address, expected) => {
    expect(await city(address)).toBe(expected);
  });

  it("settles shared names by the department given, else the department capital", async () => {
    expect((await colombiaGazetteer.geocode("Rionegro, Santander"))?.departamento).toBe("Santander");
    expect((await colombiaGazetteer.geocode("Rionegro, Antioquia"))?.departamento).toBe("Antioquia");
    expect((await colombiaGazetteer.geocode("Armenia"))?.departamento).toBe("Quindío");
    expect((await colombiaGazetteer.geocode("Armenia, Antioquia"))?.departamento).toBe("Antioquia");
    expect((await colombiaGazetteer.geocode("Caldas, Antioquia"))?.departamento).toBe("Antioquia");
  });

  it("reads a department alone as its capital", async () => {
    expect(await city("Antioquia")).toBe("Medellín");
    expect(await city("Valle del Cauca")).toBe("Cali");
  });

  it("returns the coordinates of the place and echoes the address", async () => {
    expect(await colombiaGazetteer.geocode("  Calle 10 # 43-12, Medellín ")).toEqual({
      latitud: 6.25184,
      longitud: -75.56359,
      direccion: "Calle 10 # 43-12, Medellín",
      ciudad: "Medellín",
      departamento: "Antioquia",
      pais: "Colombia",
    });
  });

  it("finds nothing for text naming no place", async () => {
    expect(await colombiaGazetteer.geocode("Calle falsa 123")).toBeNull();
    expect(await colombiaGazetteer.geocode("zzz")).toBeNull();
  });

  it("reverse-geocodes to the nearest place, and not at all far from Colombia", async () => {
    const place = await colombiaGazetteer.reverse({ latitud: 6.2518, longitud: -75.5636 });
    expect(place).toMatchObject({ ciudad: "Medellín", departamento: "Antioquia", pais: "Colombia", latitud: 6.2518, longitud: -75.5636 });
    expect((await colombiaGazetteer.reverse({ latitud: 3.4516, longitud: -76.532 }))?.ciudad).toBe("Cali");
    expect(await colombiaGazetteer.reverse({ latitud: 40.4168, longitud: -3.7038 })).toBeNull();
  });
});
