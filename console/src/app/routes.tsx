import { type ComponentType, lazy, type ReactNode } from "react";
import type { Role } from "../auth/session";
import { NotFoundPage } from "../pages/not-found/not-found-page";

/** A page module loaded when first opened: the map and the charts stay out of the first download. */
const page = <P extends object>(load: () => Promise<ComponentType<P>>) => lazy(async () => ({ default: await load() }));

const HomePage = page(() => import("../pages/home/home-page").then((m) => m.HomePage));
const DriverPage = page(() => import("../pages/driver/driver-page").then((m) => m.DriverPage));
const UsersPage = page(() => import("../pages/users/users-page").then((m) => m.UsersPage));
const DriversPage = page(() => import("../pages/drivers/drivers-page").then((m) => m.DriversPage));
const CompaniesPage = page(() => import("../pages/companies/companies-page").then((m) => m.CompaniesPage));
const PayoutsPage = page(() => import("../pages/payouts/payouts-page").then((m) => m.PayoutsPage));
const AuditPage = page(() => import("../pages/audit/audit-page").then((m) => m.AuditPage));
const LiveMapPage = page(() => import("../pages/live-map/live-map-page").then((m) => m.LiveMapPage));
const TripsPage = page(() => import("../pages/trips/trips-page").then((m) => m.TripsPage));
const PricingPage = page(() => import("../pages/pricing/pricing-page").then((m) => m.PricingPage));
const MyCompanyPage = page(() => import("../pages/my-company/my-company-page").then((m) => m.MyCompanyPage));
const AffiliationsPage = page(() => import("../pages/affiliations/affiliations-page").then((m) => m.AffiliationsPage));
const ManagersPage = page(() => import("../pages/managers/managers-page").then((m) => m.ManagersPage));
const CompanyLiveMapPage = page(() => import("../pages/live-map/live-map-page").then((m) => m.CompanyLiveMapPage));
const CompanyTripsPage = page(() => import("../pages/company-trips/company-trips-page").then((m) => m.CompanyTripsPage));
const FleetPage = page(() => import("../pages/fleet/fleet-page").then((m) => m.FleetPage));
const FleetDriverPage = page(() => import("../pages/fleet/fleet-driver-page").then((m) => m.FleetDriverPage));
const SosPage = page(() => import("../pages/sos/sos-page").then((m) => m.SosPage));
const SosDetailPage = page(() => import("../pages/sos/sos-page").then((m) => m.SosDetailPage));
const ReservationsPage = page(() => import("../pages/reservations/reservations-page").then((m) => m.ReservationsPage));
const CompanyReservationsPage = page(() =>
  import("../pages/reservations/company-reservations-page").then((m) => m.CompanyReservationsPage),
);
const CompanyMoneyPage = page(() => import("../pages/company-money/company-money-page").then((m) => m.CompanyMoneyPage));

/** A section's page; `id` is the route's next segment ("conductores/12"), when there is one. */
type Route = (id: string | undefined) => ReactNode;

/** A list at the section's own path, and one of its records at "section/<number>". */
const listAndDetail =
  (list: () => ReactNode, detail: (id: number) => ReactNode): Route =>
  (id) => {
    if (id === undefined) return list();
    return /^\d+$/.test(id) ? detail(Number(id)) : <NotFoundPage />;
  };

/** The SOS list and one SOS's history: the same pages for both roles, whose data the API limits. */
const sos = listAndDetail(
  () => <SosPage />,
  (id) => <SosDetailPage sosId={id} />,
);

/**
 * Each role's routes by their first segment. A path only another role has is no page at all for
 * this one; a path both have ("mapa", "viajes", "reservas", "conductores", "sos") opens each role's own page, whose
 * data the API limits to what that role may see.
 */
const ROUTES: Record<Role, Record<string, Route>> = {
  admin: {
    "": () => <HomePage />,
    conductores: listAndDetail(
      () => <DriversPage />,
      (id) => <DriverPage driverId={id} />,
    ),
    empresas: () => <CompaniesPage />,
    retiros: () => <PayoutsPage />,
    auditoria: () => <AuditPage />,
    mapa: () => <LiveMapPage />,
    viajes: () => <TripsPage />,
    reservas: () => <ReservationsPage />,
    sos,
    usuarios: () => <UsersPage />,
    tarifas: () => <PricingPage />,
  },
  empresa: {
    "": () => <MyCompanyPage />,
    mapa: () => <CompanyLiveMapPage />,
    viajes: () => <CompanyTripsPage />,
    reservas: () => <CompanyReservationsPage />,
    sos,
    conductores: listAndDetail(
      () => <FleetPage />,
      (id) => <FleetDriverPage driverId={id} />,
    ),
    solicitudes: () => <AffiliationsPage />,
    gestores: () => <ManagersPage />,
    dinero: () => <CompanyMoneyPage />,
  },
};

/** The page of a route under /consola/, for the signed-in operator's role. */
export function pageFor(rol: Role, path: string): ReactNode {
  const [section = "", id] = path.split("/");
  const routes = ROUTES[rol];
  return Object.hasOwn(routes, section) ? routes[section]!(id) : <NotFoundPage />;
}
