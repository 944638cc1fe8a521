-- CreateTable
CREATE TABLE "viajes_empresa_dia" (
    "empresa_id" INTEGER NOT NULL,
    "dia" TEXT NOT NULL,
    "estado" TEXT NOT NULL,
    "cantidad" INTEGER NOT NULL,

    CONSTRAINT "viajes_empresa_dia_pkey" PRIMARY KEY ("empresa_id","dia","estado")
);

-- CreateTable
CREATE TABLE "ingresos_empresa_dia" (
    "empresa_id" INTEGER NOT NULL,
    "dia" TEXT NOT NULL,
    "viajes" INTEGER NOT NULL,
    "precio_final" BIGINT NOT NULL,
    "comision_plataforma" BIGINT NOT NULL,
    "comision_metodo_pago" BIGINT NOT NULL,
    "comision_empresa" BIGINT NOT NULL,
    "ganancia_conductor" BIGINT NOT NULL,

    CONSTRAINT "ingresos_empresa_dia_pkey" PRIMARY KEY ("empresa_id","dia")
);


-- What a trip adds to its company's days: one trip on the day it was requested, in its state; and,
-- once completed, its money on the day it completed. Each write of a trip takes off what its old
-- row added and adds what its new row adds. Bogotá is UTC-5 all year; dates are stored in UTC.
CREATE FUNCTION "dia_bogota"(instante TIMESTAMP) RETURNS TEXT IMMUTABLE LANGUAGE sql
  AS $$ SELECT to_char(instante - interval '5 hours', 'YYYY-MM-DD') $$;

CREATE FUNCTION "sumar_viajes_empresa_dia"(empresa INTEGER, dia TEXT, estado TEXT, delta INTEGER) RETURNS VOID LANGUAGE sql AS $$
  INSERT INTO "viajes_empresa_dia" ("empresa_id", "dia", "estado", "cantidad") VALUES (empresa, dia, estado, delta)
  ON CONFLICT ("empresa_id", "dia", "estado") DO UPDATE SET "cantidad" = "viajes_empresa_dia"."cantidad" + delta
$$;

CREATE FUNCTION "sumar_ingresos_empresa_dia"(empresa INTEGER, dia TEXT, signo INTEGER, viaje "viajes") RETURNS VOID LANGUAGE sql AS $$
  INSERT INTO "ingresos_empresa_dia" ("empresa_id", "dia", "viajes", "precio_final", "comision_plataforma", "comision_metodo_pago", "comision_empresa", "ganancia_conductor")
  VALUES (empresa, dia, signo, signo * COALESCE(viaje."precio_final", 0), signo * COALESCE(viaje."comision_plataforma", 0),
    signo * COALESCE(viaje."comision_metodo_pago", 0), signo * COALESCE(viaje."comision_empresa", 0), signo * COALESCE(viaje."ganancia_conductor", 0))
  ON CONFLICT ("empresa_id", "dia") DO UPDATE SET
    "viajes" = "ingresos_empresa_dia"."viajes" + excluded."viajes",
    "precio_final" = "ingresos_empresa_dia"."precio_final" + excluded."precio_final",
    "comision_plataforma" = "ingresos_empresa_dia"."comision_plataforma" + excluded."comision_plataforma",
    "comision_metodo_pago" = "ingresos_empresa_dia"."comision_metodo_pago" + excluded."comision_metodo_pago",
    "comision_empresa" = "ingresos_empresa_dia"."comision_empresa" + excluded."comision_empresa",
    "ganancia_conductor" = "ingresos_empresa_dia"."ganancia_conductor" + excluded."ganancia_conductor"
$$;

-- Two rows of the same table change in key order, so that two trips' writes at once never wait on
-- each other crosswise.
CREATE FUNCTION "cifras_empresa_dia"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  antes_cuenta BOOLEAN := TG_OP <> 'INSERT' AND OLD."empresa_id" IS NOT NULL;
  ahora_cuenta BOOLEAN := TG_OP <> 'DELETE' AND NEW."empresa_id" IS NOT NULL;
  antes_ingreso BOOLEAN := antes_cuenta AND OLD."estado" = 'completado' AND OLD."fecha_fin" IS NOT NULL;
  ahora_ingreso BOOLEAN := ahora_cuenta AND NEW."estado" = 'completado' AND NEW."fecha_fin" IS NOT NULL;
  antes_clave TEXT[];
  ahora_clave TEXT[];
BEGIN
  IF antes_cuenta THEN antes_clave := ARRAY[lpad(OLD."empresa_id"::TEXT, 10, '0'), "dia_bogota"(OLD."fecha_solicitud"), OLD."estado"]; END IF;
  IF ahora_cuenta THEN ahora_clave := ARRAY[lpad(NEW."empresa_id"::TEXT, 10, '0'), "dia_bogota"(NEW."fecha_solicitud"), NEW."estado"]; END IF;
  IF antes_clave IS DISTINCT FROM ahora_clave THEN
    IF antes_cuenta AND (NOT ahora_cuenta OR antes_clave < ahora_clave) THEN
      PERFORM "sumar_viajes_empresa_dia"(OLD."empresa_id", antes_clave[2], OLD."estado", -1);
      IF ahora_cuenta THEN PERFORM "sumar_viajes_empresa_dia"(NEW."empresa_id", ahora_clave[2], NEW."estado", 1); END IF;
    ELSE
      PERFORM "sumar_viajes_empresa_dia"(NEW."empresa_id", ahora_clave[2], NEW."estado", 1);
      IF antes_cuenta THEN PERFORM "sumar_viajes_empresa_dia"(OLD."empresa_id", antes_clave[2], OLD."estado", -1); END IF;
    END IF;
  END IF;
  antes_clave := NULL;
  ahora_clave := NULL;
  IF antes_ingreso THEN antes_clave := ARRAY[lpad(OLD."empresa_id"::TEXT, 10, '0'), "dia_bogota"(OLD."fecha_fin")]; END IF;
  IF ahora_ingreso THEN ahora_clave := ARRAY[lpad(NEW."empresa_id"::TEXT, 10, '0'), "dia_bogota"(NEW."fecha_fin")]; END IF;
  IF antes_ingreso AND (NOT ahora_ingreso OR antes_clave <= ahora_clave) THEN
    PERFORM "sumar_ingresos_empresa_dia"(OLD."empresa_id", antes_clave[2], -1, OLD);
    IF ahora_ingreso THEN PERFORM "sumar_ingresos_empresa_dia"(NEW."empresa_id", ahora_clave[2], 1, NEW); END IF;
  ELSIF ahora_ingreso THEN
    PERFORM "sumar_ingresos_empresa_dia"(NEW."empresa_id", ahora_clave[2], 1, NEW);
    IF antes_ingreso THEN PERFORM "sumar_ingresos_empresa_dia"(OLD."empresa_id", antes_clave[2], -1, OLD); END IF;
  END IF;
  RETURN NULL;
END
$$;

-- Only the trips of a company: a request, which has no driver yet, runs no function.
CREATE TRIGGER "cifras_empresa_dia_alta" AFTER INSERT ON "viajes"
  FOR EACH ROW WHEN (NEW."empresa_id" IS NOT NULL) EXECUTE FUNCTION "cifras_empresa_dia"();
CREATE TRIGGER "cifras_empresa_dia_baja" AFTER DELETE ON "viajes"
  FOR EACH ROW WHEN (OLD."empresa_id" IS NOT NULL) EXECUTE FUNCTION "cifras_empresa_dia"();
CREATE TRIGGER "cifras_empresa_dia_cambio" AFTER UPDATE OF "estado", "empresa_id", "fecha_solicitud", "fecha_fin", "precio_final",
  "comision_plataforma", "comision_metodo_pago", "comision_empresa", "ganancia_conductor" ON "viajes"
  FOR EACH ROW WHEN (OLD."empresa_id" IS NOT NULL OR NEW."empresa_id" IS NOT NULL)
  EXECUTE FUNCTION "cifras_empresa_dia"();

-- The days of the trips already there.
INSERT INTO "viajes_empresa_dia" ("empresa_id", "dia", "estado", "cantidad")
  SELECT "empresa_id", "dia_bogota"("fecha_solicitud"), "estado", COUNT(*) FROM "viajes"
  WHERE "empresa_id" IS NOT NULL GROUP BY 1, 2, 3;
INSERT INTO "ingresos_empresa_dia" ("empresa_id", "dia", "viajes", "precio_final", "comision_plataforma", "comision_metodo_pago", "comision_empresa", "ganancia_conductor")
  SELECT "empresa_id", "dia_bogota"("fecha_fin"), COUNT(*), COALESCE(SUM("precio_final"), 0), COALESCE(SUM("comision_plataforma"), 0),
    COALESCE(SUM("comision_metodo_pago"), 0), COALESCE(SUM("comision_empresa"), 0), COALESCE(SUM("ganancia_conductor"), 0)
  FROM "viajes" WHERE "empresa_id" IS NOT NULL AND "estado" = 'completado' AND "fecha_fin" IS NOT NULL GROUP BY 1, 2;
