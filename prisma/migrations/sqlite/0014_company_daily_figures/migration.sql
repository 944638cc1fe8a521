-- CreateTable
CREATE TABLE "viajes_empresa_dia" (
    "empresa_id" INTEGER NOT NULL,
    "dia" TEXT NOT NULL,
    "estado" TEXT NOT NULL,
    "cantidad" INTEGER NOT NULL,

    PRIMARY KEY ("empresa_id", "dia", "estado")
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

    PRIMARY KEY ("empresa_id", "dia")
);


-- What a trip adds to its company's days: one trip on the day it was requested, in its state; and,
-- once completed, its money on the day it completed. Each write of a trip takes off what its old
-- row added and adds what its new row adds. Bogotá is UTC-5 all year.
CREATE TRIGGER "viajes_empresa_dia_alta" AFTER INSERT ON "viajes" WHEN NEW."empresa_id" IS NOT NULL
BEGIN
  INSERT INTO "viajes_empresa_dia" ("empresa_id", "dia", "estado", "cantidad")
    VALUES (NEW."empresa_id", date(NEW."fecha_solicitud", '-5 hours'), NEW."estado", 1)
    ON CONFLICT ("empresa_id", "dia", "estado") DO UPDATE SET "cantidad" = "cantidad" + 1;
END;

CREATE TRIGGER "viajes_empresa_dia_cambio" AFTER UPDATE OF "estado", "empresa_id", "fecha_solicitud" ON "viajes"
  WHEN OLD."estado" IS NOT NEW."estado" OR OLD."empresa_id" IS NOT NEW."empresa_id" OR OLD."fecha_solicitud" IS NOT NEW."fecha_solicitud"
BEGIN
  UPDATE "viajes_empresa_dia" SET "cantidad" = "cantidad" - 1
    WHERE "empresa_id" = OLD."empresa_id" AND "dia" = date(OLD."fecha_solicitud", '-5 hours') AND "estado" = OLD."estado";
  INSERT INTO "viajes_empresa_dia" ("empresa_id", "dia", "estado", "cantidad")
    SELECT NEW."empresa_id", date(NEW."fecha_solicitud", '-5 hours'), NEW."estado", 1 WHERE NEW."empresa_id" IS NOT NULL
    ON CONFLICT ("empresa_id", "dia", "estado") DO UPDATE SET "cantidad" = "cantidad" + 1;
END;

CREATE TRIGGER "viajes_empresa_dia_baja" AFTER DELETE ON "viajes" WHEN OLD."empresa_id" IS NOT NULL
BEGIN
  UPDATE "viajes_empresa_dia" SET "cantidad" = "cantidad" - 1
    WHERE "empresa_id" = OLD."empresa_id" AND "dia" = date(OLD."fecha_solicitud", '-5 hours') AND "estado" = OLD."estado";
END;

CREATE TRIGGER "ingresos_empresa_dia_alta" AFTER INSERT ON "viajes"
  WHEN NEW."empresa_id" IS NOT NULL AND NEW."estado" = 'completado' AND NEW."fecha_fin" IS NOT NULL
BEGIN
  INSERT INTO "ingresos_empresa_dia" ("empresa_id", "dia", "viajes", "precio_final", "comision_plataforma", "comision_metodo_pago", "comision_empresa", "ganancia_conductor")
    VALUES (NEW."empresa_id", date(NEW."fecha_fin", '-5 hours'), 1, COALESCE(NEW."precio_final", 0), COALESCE(NEW."comision_plataforma", 0),
      COALESCE(NEW."comision_metodo_pago", 0), COALESCE(NEW."comision_empresa", 0), COALESCE(NEW."ganancia_conductor", 0))
    ON CONFLICT ("empresa_id", "dia") DO UPDATE SET
      "viajes" = "viajes" + 1,
      "precio_final" = "precio_final" + excluded."precio_final",
      "comision_plataforma" = "comision_plataforma" + excluded."comision_plataforma",
      "comision_metodo_pago" = "comision_metodo_pago" + excluded."comision_metodo_pago",
      "comision_empresa" = "comision_empresa" + excluded."comision_empresa",
      "ganancia_conductor" = "ganancia_conductor" + excluded."ganancia_conductor";
END;

CREATE TRIGGER "ingresos_empresa_dia_cambio" AFTER UPDATE OF "estado", "empresa_id", "fecha_fin", "precio_final", "comision_plataforma",
  "comision_metodo_pago", "comision_empresa", "ganancia_conductor" ON "viajes"
  WHEN (OLD."empresa_id" IS NOT NULL AND OLD."estado" = 'completado' AND OLD."fecha_fin" IS NOT NULL)
    OR (NEW."empresa_id" IS NOT NULL AND NEW."estado" = 'completado' AND NEW."fecha_fin" IS NOT NULL)
BEGIN
  UPDATE "ingresos_empresa_dia" SET
      "viajes" = "viajes" - 1,
      "precio_final" = "precio_final" - COALESCE(OLD."precio_final", 0),
      "comision_plataforma" = "comision_plataforma" - COALESCE(OLD."comision_plataforma", 0),
      "comision_metodo_pago" = "comision_metodo_pago" - COALESCE(OLD."comision_metodo_pago", 0),
      "comision_empresa" = "comision_empresa" - COALESCE(OLD."comision_empresa", 0),
      "ganancia_conductor" = "ganancia_conductor" - COALESCE(OLD."ganancia_conductor", 0)
    WHERE OLD."estado" = 'completado' AND OLD."fecha_fin" IS NOT NULL
      AND "empresa_id" = OLD."empresa_id" AND "dia" = date(OLD."fecha_fin", '-5 hours');
  INSERT INTO "ingresos_empresa_dia" ("empresa_id", "dia", "viajes", "precio_final", "comision_plataforma", "comision_metodo_pago", "comision_empresa", "ganancia_conductor")
    SELECT NEW."empresa_id", date(NEW."fecha_fin", '-5 hours'), 1, COALESCE(NEW."precio_final", 0), COALESCE(NEW."comision_plataforma", 0),
      COALESCE(NEW."comision_metodo_pago", 0), COALESCE(NEW."comision_empresa", 0), COALESCE(NEW."ganancia_conductor", 0)
    WHERE NEW."empresa_id" IS NOT NULL AND NEW."estado" = 'completado' AND NEW."fecha_fin" IS NOT NULL
    ON CONFLICT ("empresa_id", "dia") DO UPDATE SET
      "viajes" = "viajes" + 1,
      "precio_final" = "precio_final" + excluded."precio_final",
      "comision_plataforma" = "comision_plataforma" + excluded."comision_plataforma",
      "comision_metodo_pago" = "comision_metodo_pago" + excluded."comision_metodo_pago",
      "comision_empresa" = "comision_empresa" + excluded."comision_empresa",
      "ganancia_conductor" = "ganancia_conductor" + excluded."ganancia_conductor";
END;

CREATE TRIGGER "ingresos_empresa_dia_baja" AFTER DELETE ON "viajes"
  WHEN OLD."empresa_id" IS NOT NULL AND OLD."estado" = 'completado' AND OLD."fecha_fin" IS NOT NULL
BEGIN
  UPDATE "ingresos_empresa_dia" SET
      "viajes" = "viajes" - 1,
      "precio_final" = "precio_final" - COALESCE(OLD."precio_final", 0),
      "comision_plataforma" = "comision_plataforma" - COALESCE(OLD."comision_plataforma", 0),
      "comision_metodo_pago" = "comision_metodo_pago" - COALESCE(OLD."comision_metodo_pago", 0),
      "comision_empresa" = "comision_empresa" - COALESCE(OLD."comision_empresa", 0),
      "ganancia_conductor" = "ganancia_conductor" - COALESCE(OLD."ganancia_conductor", 0)
    WHERE "empresa_id" = OLD."empresa_id" AND "dia" = date(OLD."fecha_fin", '-5 hours');
END;

-- The days of the trips already there.
INSERT INTO "viajes_empresa_dia" ("empresa_id", "dia", "estado", "cantidad")
  SELECT "empresa_id", date("fecha_solicitud", '-5 hours'), "estado", COUNT(*) FROM "viajes"
  WHERE "empresa_id" IS NOT NULL GROUP BY 1, 2, 3;
INSERT INTO "ingresos_empresa_dia" ("empresa_id", "dia", "viajes", "precio_final", "comision_plataforma", "comision_metodo_pago", "comision_empresa", "ganancia_conductor")
  SELECT "empresa_id", date("fecha_fin", '-5 hours'), COUNT(*), COALESCE(SUM("precio_final"), 0), COALESCE(SUM("comision_plataforma"), 0),
    COALESCE(SUM("comision_metodo_pago"), 0), COALESCE(SUM("comision_empresa"), 0), COALESCE(SUM("ganancia_conductor"), 0)
  FROM "viajes" WHERE "empresa_id" IS NOT NULL AND "estado" = 'completado' AND "fecha_fin" IS NOT NULL GROUP BY 1, 2;
