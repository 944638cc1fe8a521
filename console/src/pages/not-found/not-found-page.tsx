import { Link } from "../../app/router";
import { PageHeader } from "../../components/page-header";

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Página no encontrada" description="La dirección no corresponde a ninguna sección de la consola." />
      <p>
        <Link to="">Volver al inicio</Link>
      </p>
    </>
  );
}
