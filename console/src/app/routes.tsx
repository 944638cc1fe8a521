import { type ComponentType, lazy, type ReactNode } from "react";
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

/** The page of a route under /consola/. */
export function pageFor(path: string): ReactNode {
  const [section = "", id] = path.split("/");
  switch (section) {
    case "":
      return <HomePage />;
    case "conductores":
      if (id === undefined) return <DriversPage />;
      return /^\d+$/.test(id) ? <DriverPage driverId={Number(id)} /> : <NotFoundPage />;
    case "empresas":
      return <CompaniesPage />;
    case "retiros":
      return <PayoutsPage />;
    case "auditoria":
      return <AuditPage />;
    case "mapa":
      return <LiveMapPage />;
    case "viajes":
      return <TripsPage />;
    case "usuarios":
      return <UsersPage />;
    case "tarifas":
      return <PricingPage />;
    default:
      return <NotFoundPage />;
  }
}
