-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_viajes_compartidos" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "viaje_id" INTEGER NOT NULL,
    "creado_por" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "creado_en" DATETIME NOT NULL,
    "revocado_en" DATETIME,
    CONSTRAINT "viajes_compartidos_viaje_id_fkey" FOREIGN KEY ("viaje_id") REFERENCES "viajes" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_viajes_compartidos" ("creado_en", "creado_por", "id", "revocado_en", "token_hash", "viaje_id") SELECT "creado_en", "creado_por", "id", "revocado_en", "token_hash", "viaje_id" FROM "viajes_compartidos";
DROP TABLE "viajes_compartidos";
ALTER TABLE "new_viajes_compartidos" RENAME TO "viajes_compartidos";
CREATE UNIQUE INDEX "viajes_compartidos_token_hash_key" ON "viajes_compartidos"("token_hash");
CREATE INDEX "viajes_compartidos_viaje_id_idx" ON "viajes_compartidos"("viaje_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

