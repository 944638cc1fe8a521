-- CreateTable
CREATE TABLE "sesiones" (
    "id" SERIAL NOT NULL,
    "usuario_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expira_en" TIMESTAMP(3) NOT NULL,
    "revocada_en" TIMESTAMP(3),
    "direccion_ip" TEXT,

    CONSTRAINT "sesiones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auditoria" (
    "id" SERIAL NOT NULL,
    "admin_id" INTEGER,
    "via" TEXT NOT NULL,
    "accion" TEXT NOT NULL,
    "objetivo_tipo" TEXT NOT NULL,
    "objetivo_id" INTEGER NOT NULL,
    "detalles" TEXT,
    "direccion_ip" TEXT,
    "creado_en" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auditoria_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sesiones_token_hash_key" ON "sesiones"("token_hash");

-- CreateIndex
CREATE INDEX "sesiones_usuario_id_revocada_en_idx" ON "sesiones"("usuario_id", "revocada_en");

-- CreateIndex
CREATE INDEX "auditoria_creado_en_idx" ON "auditoria"("creado_en");

-- CreateIndex
CREATE INDEX "auditoria_admin_id_creado_en_idx" ON "auditoria"("admin_id", "creado_en");

-- CreateIndex
CREATE INDEX "auditoria_accion_creado_en_idx" ON "auditoria"("accion", "creado_en");

-- CreateIndex
CREATE INDEX "auditoria_objetivo_tipo_objetivo_id_creado_en_idx" ON "auditoria"("objetivo_tipo", "objetivo_id", "creado_en");

-- AddForeignKey
ALTER TABLE "sesiones" ADD CONSTRAINT "sesiones_usuario_id_fkey" FOREIGN KEY ("usuario_id") REFERENCES "usuarios"("id") ON DELETE CASCADE ON UPDATE CASCADE;

