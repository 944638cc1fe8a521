import { type ReactNode, useEffect } from "react";

/** The page's title (also the tab's) and its main actions. */
export function PageHeader({ title, description, children }: { title: string; description?: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Consola`;
  }, [title]);
  return (
    <header className="pagina__cabecera">
      <div>
        <h1>{title}</h1>
        {description && <p className="pagina__descripcion">{description}</p>}
      </div>
      {children && <div className="pagina__acciones">{children}</div>}
    </header>
  );
}
