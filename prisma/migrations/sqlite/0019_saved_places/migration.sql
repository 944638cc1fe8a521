-- CreateTable
CREATE TABLE "lugares_favoritos" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "usuario_id" INTEGER NOT NULL,
    "tipo" TEXT NOT NULL,
    "nombre" TEXT NOT NULL,
    "direccion" TEXT NOT NULL,
    "latitud" REAL NOT NULL,
    "longitud" REAL NOT NULL,
    "referencia" TEXT,
    "creado_en" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "lugares_favoritos_usuario_id_tipo_idx" ON "lugares_favoritos"("usuario_id", "tipo");


-- One casa and one trabajo per person; favoritos are counted by the service (src/domain/places/saved-places.ts).
CREATE UNIQUE INDEX "lugares_favoritos_uno_por_tipo" ON "lugares_favoritos"("usuario_id", "tipo") WHERE "tipo" IN ('casa', 'trabajo');
