/** The demo accounts `npm run seed` creates (listed in the README). */
export const DEMO_PASSWORDS = {
  admin: "Admin#2024demo",
  passenger: "Viajero#2024",
  driver: "Conductor#2024",
  manager: "Empresa#2024",
};

/** A fleet that operates, with a share of the commission, the car drivers, and one manager. */
export const DEMO_COMPANY = {
  empresa: { nombre: "Flota Medellín", nit: "900555111-2", email: "flota@demo.co", telefono: "6044445566" },
  porcentaje: 10,
  gestor: { email: "gestor@demo.co", nombre: "Gabriela", apellido: "Gestora", telefono: "3000000010" },
  conductores: ["diana.auto@demo.co", "mateo.auto@demo.co"],
};

export const DEMO_ADMIN = { email: "admin@demo.co", nombre: "Andrea", apellido: "Admin", telefono: "3000000001" };

export const DEMO_PASSENGERS = [
  {
    email: "ana.pasajera@demo.co",
    nombre: "Ana",
    apellido: "Restrepo",
    telefono: "3001110001",
    direccion: "Parque Lleras, El Poblado",
    latitud: 6.2086,
    longitud: -75.5659,
  },
  {
    email: "luis.pasajero@demo.co",
    nombre: "Luis",
    apellido: "Gómez",
    telefono: "3001110002",
    direccion: "Estadio Atanasio Girardot, Laureles",
    latitud: 6.2568,
    longitud: -75.5904,
  },
];

/** Two drivers of each vehicle type, spread over Medellín. */
export const DEMO_DRIVERS = [
  {
    email: "carlos.moto@demo.co",
    nombre: "Carlos",
    apellido: "Mejía",
    telefono: "3002220001",
    tipo: "moto",
    licencia: "A2",
    placa: "ABC12D",
    marca: "Yamaha",
    modelo: "FZ 2.0",
    capacidad: 1,
    latitud: 6.2101,
    longitud: -75.5702,
  },
  {
    email: "sara.moto@demo.co",
    nombre: "Sara",
    apellido: "Londoño",
    telefono: "3002220002",
    tipo: "moto",
    licencia: "A2",
    placa: "XYZ34E",
    marca: "Honda",
    modelo: "CB 190R",
    capacidad: 1,
    latitud: 6.2518,
    longitud: -75.5636,
  },
  {
    email: "diana.auto@demo.co",
    nombre: "Diana",
    apellido: "Zapata",
    telefono: "3002220003",
    tipo: "auto",
    licencia: "B1",
    placa: "KLM567",
    marca: "Chevrolet",
    modelo: "Onix",
    capacidad: 4,
    latitud: 6.2075,
    longitud: -75.568,
  },
  {
    email: "mateo.auto@demo.co",
    nombre: "Mateo",
    apellido: "Úsuga",
    telefono: "3002220004",
    tipo: "auto",
    licencia: "C1",
    placa: "QRS890",
    marca: "Renault",
    modelo: "Logan",
    capacidad: 4,
    latitud: 6.2442,
    longitud: -75.5812,
  },
  {
    email: "jorge.mototaxi@demo.co",
    nombre: "Jorge",
    apellido: "Arango",
    telefono: "3002220005",
    tipo: "mototaxi",
    licencia: "B1",
    placa: "MTX123",
    marca: "Bajaj",
    modelo: "RE 4S",
    capacidad: 3,
    latitud: 6.223,
    longitud: -75.575,
  },
  {
    email: "paula.mototaxi@demo.co",
    nombre: "Paula",
    apellido: "Ríos",
    telefono: "3002220006",
    tipo: "mototaxi",
    licencia: "C1",
    placa: "MTX456",
    marca: "TVS",
    modelo: "King",
    capacidad: 3,
    latitud: 6.268,
    longitud: -75.566,
  },
];

/** A small solid-colour PNG standing in for every demo document photo. */
export const DEMO_PHOTO_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAEAQMAAACTPww9AAAAA1BMVEUdTthVdjWUAAAAC0lEQVQI12NggAAAAAgAAS8g3TEAAAAASUVORK5CYII=",
  "base64",
);
