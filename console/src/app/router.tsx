import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from "react";

/** Where the server serves the console; client routes are paths under it (src/http/console.ts serves them the page). */
const BASE = "/consola";
const CHANGED = "consola:ruta";

/** The route: the path under /consola/ without surrounding slashes ("" is the home page). */
const currentPath = () => window.location.pathname.slice(BASE.length).replace(/^\/+|\/+$/g, "");

function subscribe(listener: () => void) {
  window.addEventListener("popstate", listener);
  window.addEventListener(CHANGED, listener);
  return () => {
    window.removeEventListener("popstate", listener);
    window.removeEventListener(CHANGED, listener);
  };
}

export const usePath = () => useSyncExternalStore(subscribe, currentPath);

const hrefOf = (path: string) => `${BASE}/${path}`;

function navigate(path: string) {
  window.history.pushState(null, "", hrefOf(path));
  window.dispatchEvent(new Event(CHANGED));
  window.scrollTo(0, 0);
}

/** A link to a client route: a real anchor (new tab, copy link), followed here without reloading. */
export function Link({ to, onClick, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  function follow(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  }
  return <a href={hrefOf(to)} onClick={follow} {...rest} />;
}
