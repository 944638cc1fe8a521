-- Default rates (COP) of DESIGN; administrators change them through updatePricingRate.
INSERT INTO "tarifas" ("tipo_vehiculo", "tarifa_base", "precio_km", "precio_minuto", "tarifa_minima", "recargo_pico", "recargo_nocturno", "actualizado_en") VALUES
  ('moto', 4000, 2000, 250, 6000, 0.15, 0.20, TIMESTAMP '2026-01-01 00:00:00'),
  ('auto', 6000, 3000, 400, 9000, 0.20, 0.25, TIMESTAMP '2026-01-01 00:00:00'),
  ('mototaxi', 5500, 2500, 350, 8000, 0.18, 0.22, TIMESTAMP '2026-01-01 00:00:00');
