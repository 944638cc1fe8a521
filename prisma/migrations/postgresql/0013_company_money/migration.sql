-- AlterTable
ALTER TABLE "empresas" ADD COLUMN     "porcentaje_comision" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "viajes" ADD COLUMN     "comision_empresa" INTEGER,
ADD COLUMN     "empresa_id" INTEGER,
ADD COLUMN     "porcentaje_empresa" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "cuentas_libro" ADD COLUMN     "empresa_id" INTEGER;

-- AlterTable
ALTER TABLE "cuentas_retiro" ADD COLUMN     "empresa_id" INTEGER,
ALTER COLUMN "conductor_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "retiros" ADD COLUMN     "empresa_id" INTEGER,
ALTER COLUMN "conductor_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "historial_porcentaje_empresa" (
    "id" SERIAL NOT NULL,
    "empresa_id" INTEGER NOT NULL,
    "porcentaje" DOUBLE PRECISION NOT NULL,
    "desde" TIMESTAMP(3) NOT NULL,
    "admin_id" INTEGER,

    CONSTRAINT "historial_porcentaje_empresa_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "recordatorios_documentos" (
    "id" SERIAL NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "documento" TEXT NOT NULL,
    "vence_en" TIMESTAMP(3) NOT NULL,
    "dias" INTEGER NOT NULL,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "recordatorios_documentos_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "historial_porcentaje_empresa_empresa_id_desde_idx" ON "historial_porcentaje_empresa"("empresa_id", "desde");

-- CreateIndex
CREATE UNIQUE INDEX "recordatorios_documentos_conductor_id_documento_vence_en_di_key" ON "recordatorios_documentos"("conductor_id", "documento", "vence_en", "dias");

-- CreateIndex
CREATE INDEX "viajes_empresa_id_fecha_solicitud_idx" ON "viajes"("empresa_id", "fecha_solicitud");

-- CreateIndex
CREATE UNIQUE INDEX "cuentas_libro_empresa_id_key" ON "cuentas_libro"("empresa_id");

-- CreateIndex
CREATE INDEX "cuentas_retiro_empresa_id_idx" ON "cuentas_retiro"("empresa_id");

-- CreateIndex
CREATE INDEX "retiros_empresa_id_id_idx" ON "retiros"("empresa_id", "id");


-- One open payout per company, as 0010 keeps one per driver.
CREATE UNIQUE INDEX "retiros_un_abierto_por_empresa" ON "retiros"("empresa_id") WHERE "estado" IN ('solicitado', 'aprobado');
