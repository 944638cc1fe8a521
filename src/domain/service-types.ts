/** Service types a passenger can ask for and the vehicle type that serves each (docs/trips.md). */
export const SERVICE_TYPES = ["motocicleta", "auto", "mototaxi"] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

export const VEHICLE_TYPES = ["moto", "auto", "mototaxi"] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];

export const VEHICLE_FOR_SERVICE: Record<ServiceType, VehicleType> = {
  motocicleta: "moto",
  auto: "auto",
  mototaxi: "mototaxi",
};

export const serviceForVehicle = (vehicle: VehicleType): ServiceType =>
  SERVICE_TYPES.find((service) => VEHICLE_FOR_SERVICE[service] === vehicle)!;
