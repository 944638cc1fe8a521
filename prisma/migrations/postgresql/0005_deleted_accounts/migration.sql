-- AlterTable
ALTER TABLE "usuarios" ADD COLUMN     "eliminado_en" TIMESTAMP(3);

