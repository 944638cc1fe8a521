import { type ReactNode, useEffect, useState } from "react";
import { useSession } from "../auth/session";
import { SosAlerts } from "../sos/sos-alerts";
import { Icon } from "../components/icons";
import { Link, usePath } from "./router";
import { SECTIONS } from "./sections";
import { signOut } from "./sign-out";

/** The section a route belongs to: its first segment ("conductores/12" is in "conductores"). */
const sectionOf = (path: string) => path.split("/")[0] ?? "";

/**
 * The frame of every signed-in page: the sidebar with the operator's sections (a drawer behind the
 * menu button on narrow screens), the operator and the way out, and above the page the SOS alerts.
 */
export function Layout({ children }: { children: ReactNode }) {
  const current = useSession();
  const path = usePath();
  const [menuOpen, setMenuOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);

  // A followed link closes the drawer, and focus moves to the new page's content.
  function followed() {
    setMenuOpen(false);
    requestAnimationFrame(() => document.getElementById("contenido")?.focus({ preventScroll: true }));
  }

  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: KeyboardEvent) => event.key === "Escape" && setMenuOpen(false);
    window.addEventListener("keydown", close);
    return () => window.removeEventListener("keydown", close);
  }, [menuOpen]);

  async function leave() {
    setLeaving(true);
    await signOut();
  }

  return (
    <div className={menuOpen ? "marco marco--menu-abierto" : "marco"}>
      <a className="saltar" href="#contenido">
        Ir al contenido
      </a>
      <header className="barra">
        <button
          type="button"
          className="boton-icono barra__menu"
          aria-expanded={menuOpen}
          aria-controls="navegacion"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <Icon name="menu" />
          <span className="solo-lector">Menú</span>
        </button>
        <Link to="" className="barra__marca">
          <img src="/consola/favicon.svg" alt="" width="28" height="28" />
          <span>Consola</span>
        </Link>
        <div className="barra__usuario">
          <span className="barra__nombre" title={current?.email}>
            {current?.empresa ? `${current.nombre} · ${current.empresa}` : current?.nombre}
          </span>
          <button
            type="button"
            className="boton boton--secundario boton--compacto"
            onClick={leave}
            disabled={leaving}
            aria-label="Cerrar sesión"
          >
            <Icon name="salir" />
            <span>Cerrar sesión</span>
          </button>
        </div>
      </header>
      <nav id="navegacion" className="lateral" aria-label="Secciones">
        <ul>
          {(current ? SECTIONS[current.rol] : []).map((section) => (
            <li key={section.path}>
              <Link
                to={section.path}
                className="lateral__enlace"
                aria-current={sectionOf(path) === section.path ? "page" : undefined}
                onClick={followed}
              >
                <Icon name={section.icon} />
                <span>{section.label}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <button type="button" className="velo" tabIndex={-1} aria-hidden="true" onClick={() => setMenuOpen(false)} />
      <main id="contenido" className="pagina" tabIndex={-1}>
        <SosAlerts />
        {children}
      </main>
    </div>
  );
}
