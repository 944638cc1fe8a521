import { TripMap } from "./map.ts";
import type { SharedTrip } from "./trip.ts";
import { heardAt, showConnection, showHeard, showLink, showTrip } from "./view.ts";
import "../../console/src/styles/base.css";
import "./styles.css";

/** How often the page asks for the trip while the live channel is down, and how long it polls before trying the channel again. */
const POLL_MS = 5000;
const RETRY_LIVE_MS = 30_000;

const POLLING = `Sin conexión en vivo: se actualiza cada ${POLL_MS / 1000} segundos`;
const UNREACHABLE = "Sin conexión con el servidor; se reintenta en unos segundos";

/** The link's own address, /seguimiento/<token>: the token is all that authorises what the page reads. */
const base = location.pathname.replace(/\/+$/, "");

/** Follows the trip live over Server-Sent Events, and polls the same view when they fail, saying so. */
function follow(map: TripMap): void {
  let polling: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let over = false;

  // The live channel is never open here: the server closes it after `terminado`, and polling runs only once it failed.
  const stop = () => {
    over = true;
    clearInterval(polling);
    clearTimeout(retry);
  };
  const ended = () => {
    stop();
    showLink("terminado");
  };
  const heard = (event: MessageEvent<string>) => JSON.parse(event.data) as { servidor_en: string; viaje?: SharedTrip };

  function live(): void {
    const source = new EventSource(`${base}/eventos`);
    source.addEventListener("open", () => showConnection("En vivo", "vivo"));
    source.addEventListener("viaje", (event) => {
      const { viaje, servidor_en } = heard(event);
      if (viaje) showTrip(viaje, map);
      heardAt(servidor_en);
    });
    source.addEventListener("latido", (event) => heardAt(heard(event).servidor_en));
    source.addEventListener("terminado", ended);
    source.addEventListener("error", () => {
      // No reconnecting of its own: polling takes over, and tries the channel again later.
      source.close();
      if (!over) poll();
    });
  }

  async function ask(): Promise<void> {
    try {
      const response = await fetch(`${base}/estado`, { cache: "no-store" });
      if (response.status === 404) {
        stop();
        showLink("desconocido");
        return;
      }
      if (response.status === 429)
        return showConnection("Demasiadas consultas desde tu conexión; se reintenta en unos segundos", "sin-conexion");
      if (!response.ok) return showConnection(UNREACHABLE, "sin-conexion");
      const state = (await response.json()) as { enlace: string; viaje?: SharedTrip; servidor_en: string };
      if (state.enlace !== "activo") return ended();
      if (state.viaje) showTrip(state.viaje, map);
      heardAt(state.servidor_en);
      showConnection(POLLING, "sondeo");
    } catch {
      showConnection(UNREACHABLE, "sin-conexion");
    }
  }

  function poll(): void {
    showConnection(POLLING, "sondeo");
    void ask();
    polling = setInterval(() => void ask(), POLL_MS);
    retry = setTimeout(() => {
      clearInterval(polling);
      if (!over) live();
    }, RETRY_LIVE_MS);
  }

  live();
  setInterval(showHeard, 1000);
}

if (document.body.dataset.enlace === "activo") follow(new TripMap(document.getElementById("mapa")!));
