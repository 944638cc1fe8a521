-- AlterTable
ALTER TABLE "viajes" ADD COLUMN "comision_empresa" INTEGER;
ALTER TABLE "viajes" ADD COLUMN "empresa_id" INTEGER;
ALTER TABLE "viajes" ADD COLUMN "porcentaje_empresa" REAL;

-- AlterTable
ALTER TABLE "cuentas_libro" ADD COLUMN "empresa_id" INTEGER;

-- CreateTable
CREATE TABLE "historial_porcentaje_empresa" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "empresa_id" INTEGER NOT NULL,
    "porcentaje" REAL NOT NULL,
    "desde" DATETIME NOT NULL,
    "admin_id" INTEGER
);

-- CreateTable
CREATE TABLE "recordatorios_documentos" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "conductor_id" INTEGER NOT NULL,
    "documento" TEXT NOT NULL,
    "vence_en" DATETIME NOT NULL,
    "dias" INTEGER NOT NULL,
    "creado_en" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_empresas" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "nombre" TEXT NOT NULL,
    "nit" TEXT NOT NULL,
    "email" TEXT,
    "telefono" TEXT,
    "direccion" TEXT,
    "estado" TEXT NOT NULL DEFAULT 'activa',
    "motivo_rechazo" TEXT,
    "revisada_en" DATETIME,
    "porcentaje_comision" REAL NOT NULL DEFAULT 0,
    "creado_en" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actualizado_en" DATETIME NOT NULL
);
INSERT INTO "new_empresas" ("actualizado_en", "creado_en", "direccion", "email", "estado", "id", "motivo_rechazo", "nit", "nombre", "revisada_en", "telefono") SELECT "actualizado_en", "creado_en", "direccion", "email", "estado", "id", "motivo_rechazo", "nit", "nombre", "revisada_en", "telefono" FROM "empresas";
DROP TABLE "empresas";
ALTER TABLE "new_empresas" RENAME TO "empresas";
CREATE UNIQUE INDEX "empresas_nit_key" ON "empresas"("nit");
CREATE INDEX "empresas_nombre_idx" ON "empresas"("nombre");
CREATE TABLE "new_cuentas_retiro" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "conductor_id" INTEGER,
    "empresa_id" INTEGER,
    "tipo" TEXT NOT NULL,
    "numero" TEXT,
    "banco" TEXT,
    "tipo_cuenta" TEXT,
    "titular_nombre" TEXT,
    "titular_tipo_documento" TEXT,
    "titular_documento" TEXT,
    "verificada_en" DATETIME,
    "eliminada_en" DATETIME,
    "creado_en" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_cuentas_retiro" ("banco", "conductor_id", "creado_en", "eliminada_en", "id", "numero", "tipo", "tipo_cuenta", "titular_documento", "titular_nombre", "titular_tipo_documento", "verificada_en") SELECT "banco", "conductor_id", "creado_en", "eliminada_en", "id", "numero", "tipo", "tipo_cuenta", "titular_documento", "titular_nombre", "titular_tipo_documento", "verificada_en" FROM "cuentas_retiro";
DROP TABLE "cuentas_retiro";
ALTER TABLE "new_cuentas_retiro" RENAME TO "cuentas_retiro";
CREATE INDEX "cuentas_retiro_conductor_id_idx" ON "cuentas_retiro"("conductor_id");
CREATE INDEX "cuentas_retiro_empresa_id_idx" ON "cuentas_retiro"("empresa_id");
CREATE TABLE "new_retiros" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "conductor_id" INTEGER,
    "empresa_id" INTEGER,
    "cuenta_retiro_id" INTEGER NOT NULL,
    "monto" INTEGER NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'solicitado',
    "motivo" TEXT,
    "referencia_pago" TEXT,
    "solicitado_en" DATETIME NOT NULL,
    "aprobado_en" DATETIME,
    "cerrado_en" DATETIME,
    CONSTRAINT "retiros_cuenta_retiro_id_fkey" FOREIGN KEY ("cuenta_retiro_id") REFERENCES "cuentas_retiro" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_retiros" ("aprobado_en", "cerrado_en", "conductor_id", "cuenta_retiro_id", "estado", "id", "monto", "motivo", "referencia_pago", "solicitado_en") SELECT "aprobado_en", "cerrado_en", "conductor_id", "cuenta_retiro_id", "estado", "id", "monto", "motivo", "referencia_pago", "solicitado_en" FROM "retiros";
DROP TABLE "retiros";
ALTER TABLE "new_retiros" RENAME TO "retiros";
CREATE INDEX "retiros_conductor_id_id_idx" ON "retiros"("conductor_id", "id");
CREATE INDEX "retiros_empresa_id_id_idx" ON "retiros"("empresa_id", "id");
CREATE INDEX "retiros_estado_id_idx" ON "retiros"("estado", "id");
-- Rebuilding the table dropped this index of 0010's, which the schema cannot express: one open payout per holder.
CREATE UNIQUE INDEX "retiros_un_abierto_por_conductor" ON "retiros"("conductor_id") WHERE "estado" IN ('solicitado', 'aprobado');
CREATE UNIQUE INDEX "retiros_un_abierto_por_empresa" ON "retiros"("empresa_id") WHERE "estado" IN ('solicitado', 'aprobado');
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "historial_porcentaje_empresa_empresa_id_desde_idx" ON "historial_porcentaje_empresa"("empresa_id", "desde");

-- CreateIndex
CREATE UNIQUE INDEX "recordatorios_documentos_conductor_id_documento_vence_en_dias_key" ON "recordatorios_documentos"("conductor_id", "documento", "vence_en", "dias");

-- CreateIndex
CREATE INDEX "viajes_empresa_id_fecha_solicitud_idx" ON "viajes"("empresa_id", "fecha_solicitud");

-- CreateIndex
CREATE UNIQUE INDEX "cuentas_libro_empresa_id_key" ON "cuentas_libro"("empresa_id");

