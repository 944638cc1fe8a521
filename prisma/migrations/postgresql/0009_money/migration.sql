-- AlterTable
ALTER TABLE "viajes" ADD COLUMN     "comision_metodo_pago" INTEGER,
ADD COLUMN     "metodo_pago" TEXT NOT NULL DEFAULT 'efectivo',
ADD COLUMN     "porcentaje_comision" DOUBLE PRECISION NOT NULL DEFAULT 15,
ADD COLUMN     "porcentaje_comision_metodo" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "referencia_pago" TEXT,
ALTER COLUMN "precio_estimado" SET DATA TYPE INTEGER,
ALTER COLUMN "precio_final" SET DATA TYPE INTEGER,
ALTER COLUMN "comision_plataforma" SET DATA TYPE INTEGER,
ALTER COLUMN "ganancia_conductor" SET DATA TYPE INTEGER;

-- AlterTable
ALTER TABLE "tarifas" ADD COLUMN     "comision_metodo_pago" DOUBLE PRECISION NOT NULL DEFAULT 2.5,
ADD COLUMN     "comision_plataforma" DOUBLE PRECISION NOT NULL DEFAULT 15;

-- CreateTable
CREATE TABLE "cuentas_libro" (
    "id" SERIAL NOT NULL,
    "codigo" TEXT NOT NULL,
    "conductor_id" INTEGER,
    "saldo" INTEGER NOT NULL DEFAULT 0,
    "actualizado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "cuentas_libro_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "asientos" (
    "id" SERIAL NOT NULL,
    "clave" TEXT NOT NULL,
    "tipo" TEXT NOT NULL,
    "descripcion" TEXT NOT NULL,
    "viaje_id" INTEGER,
    "creado_por" INTEGER,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "asientos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "movimientos" (
    "id" SERIAL NOT NULL,
    "asiento_id" INTEGER NOT NULL,
    "cuenta_id" INTEGER NOT NULL,
    "concepto" TEXT NOT NULL,
    "monto" INTEGER NOT NULL,

    CONSTRAINT "movimientos_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "cuentas_libro_codigo_key" ON "cuentas_libro"("codigo");

-- CreateIndex
CREATE UNIQUE INDEX "cuentas_libro_conductor_id_key" ON "cuentas_libro"("conductor_id");

-- CreateIndex
CREATE UNIQUE INDEX "asientos_clave_key" ON "asientos"("clave");

-- CreateIndex
CREATE INDEX "asientos_creado_en_idx" ON "asientos"("creado_en");

-- CreateIndex
CREATE INDEX "movimientos_asiento_id_idx" ON "movimientos"("asiento_id");

-- CreateIndex
CREATE INDEX "movimientos_cuenta_id_asiento_id_idx" ON "movimientos"("cuenta_id", "asiento_id");

-- AddForeignKey
ALTER TABLE "movimientos" ADD CONSTRAINT "movimientos_asiento_id_fkey" FOREIGN KEY ("asiento_id") REFERENCES "asientos"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "movimientos" ADD CONSTRAINT "movimientos_cuenta_id_fkey" FOREIGN KEY ("cuenta_id") REFERENCES "cuentas_libro"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Amounts were kept in fractions of a peso: now whole pesos, the driver's net what the rounded
-- commission leaves, and no payment commission (every earlier trip was paid in cash).
UPDATE "viajes" SET "comision_metodo_pago" = 0, "ganancia_conductor" = "precio_final" - "comision_plataforma" WHERE "precio_final" IS NOT NULL;

-- The ledger is only ever added to.
CREATE FUNCTION "libro_solo_se_agrega"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is only ever added to (% on %)', TG_OP, TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER "asientos_solo_se_agregan" BEFORE UPDATE OR DELETE ON "asientos" FOR EACH ROW EXECUTE FUNCTION "libro_solo_se_agrega"();
CREATE TRIGGER "movimientos_solo_se_agregan" BEFORE UPDATE OR DELETE ON "movimientos" FOR EACH ROW EXECUTE FUNCTION "libro_solo_se_agrega"();
