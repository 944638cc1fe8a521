-- CreateTable
CREATE TABLE "contactos_emergencia" (
    "id" SERIAL NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "nombre" TEXT NOT NULL,
    "telefono" TEXT,
    "email" TEXT,
    "creado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "contactos_emergencia_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "viajes_compartidos" (
    "id" SERIAL NOT NULL,
    "viaje_id" INTEGER NOT NULL,
    "creado_por" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "creado_en" TIMESTAMP(3) NOT NULL,
    "revocado_en" TIMESTAMP(3),

    CONSTRAINT "viajes_compartidos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incidentes_sos" (
    "id" SERIAL NOT NULL,
    "viaje_id" INTEGER NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "rol" TEXT NOT NULL,
    "empresa_id" INTEGER,
    "latitud" DOUBLE PRECISION NOT NULL,
    "longitud" DOUBLE PRECISION NOT NULL,
    "creado_en" TIMESTAMP(3) NOT NULL,
    "estado" TEXT NOT NULL DEFAULT 'abierto',
    "atendido_por" INTEGER,
    "atendido_en" TIMESTAMP(3),
    "resuelto_por" INTEGER,
    "resuelto_en" TIMESTAMP(3),
    "nota" TEXT,
    "escalar_en" TIMESTAMP(3),
    "escalado_en" TIMESTAMP(3),
    "compartido_id" INTEGER,

    CONSTRAINT "incidentes_sos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "historial_incidentes_sos" (
    "id" SERIAL NOT NULL,
    "incidente_id" INTEGER NOT NULL,
    "tipo" TEXT NOT NULL,
    "actor_id" INTEGER,
    "detalle" TEXT,
    "creado_en" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "historial_incidentes_sos_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "contactos_emergencia_usuario_id_idx" ON "contactos_emergencia"("usuario_id");

-- CreateIndex
CREATE UNIQUE INDEX "viajes_compartidos_token_hash_key" ON "viajes_compartidos"("token_hash");

-- CreateIndex
CREATE INDEX "viajes_compartidos_viaje_id_idx" ON "viajes_compartidos"("viaje_id");

-- CreateIndex
CREATE INDEX "incidentes_sos_estado_id_idx" ON "incidentes_sos"("estado", "id");

-- CreateIndex
CREATE INDEX "incidentes_sos_escalar_en_idx" ON "incidentes_sos"("escalar_en");

-- CreateIndex
CREATE INDEX "incidentes_sos_viaje_id_usuario_id_creado_en_idx" ON "incidentes_sos"("viaje_id", "usuario_id", "creado_en");

-- CreateIndex
CREATE INDEX "incidentes_sos_empresa_id_id_idx" ON "incidentes_sos"("empresa_id", "id");

-- CreateIndex
CREATE INDEX "historial_incidentes_sos_incidente_id_id_idx" ON "historial_incidentes_sos"("incidente_id", "id");

