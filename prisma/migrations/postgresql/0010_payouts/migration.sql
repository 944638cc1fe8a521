-- CreateTable
CREATE TABLE "cuentas_retiro" (
    "id" SERIAL NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "tipo" TEXT NOT NULL,
    "numero" TEXT,
    "banco" TEXT,
    "tipo_cuenta" TEXT,
    "titular_nombre" TEXT,
    "titular_tipo_documento" TEXT,
    "titular_documento" TEXT,
    "verificada_en" TIMESTAMP(3),
    "eliminada_en" TIMESTAMP(3),
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cuentas_retiro_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "retiros" (
    "id" SERIAL NOT NULL,
    "conductor_id" INTEGER NOT NULL,
    "cuenta_retiro_id" INTEGER NOT NULL,
    "monto" INTEGER NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'solicitado',
    "motivo" TEXT,
    "referencia_pago" TEXT,
    "solicitado_en" TIMESTAMP(3) NOT NULL,
    "aprobado_en" TIMESTAMP(3),
    "cerrado_en" TIMESTAMP(3),

    CONSTRAINT "retiros_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "cuentas_retiro_conductor_id_idx" ON "cuentas_retiro"("conductor_id");

-- CreateIndex
CREATE INDEX "retiros_conductor_id_id_idx" ON "retiros"("conductor_id", "id");

-- CreateIndex
CREATE INDEX "retiros_estado_id_idx" ON "retiros"("estado", "id");

-- AddForeignKey
ALTER TABLE "retiros" ADD CONSTRAINT "retiros_cuenta_retiro_id_fkey" FOREIGN KEY ("cuenta_retiro_id") REFERENCES "cuentas_retiro"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- At most one open payout per driver, whichever process asks.
CREATE UNIQUE INDEX "retiros_un_abierto_por_conductor" ON "retiros"("conductor_id") WHERE "estado" IN ('solicitado', 'aprobado');
