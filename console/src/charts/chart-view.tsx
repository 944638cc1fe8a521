import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  type ChartType,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { useEffect, useRef } from "react";

// Only the pieces the console draws, so the rest of Chart.js stays out of the bundle.
Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  DoughnutController,
  ArcElement,
  CategoryScale,
  LinearScale,
  Tooltip,
  Legend,
);
Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily;
Chart.defaults.color = "#5b6675";
Chart.defaults.maintainAspectRatio = false;

/** The series colours, in order: teal, blue, amber, red, violet, grey. */
export const PALETTE = ["#0f766e", "#2563eb", "#d97706", "#b42318", "#7c3aed", "#64748b"];

/**
 * A Chart.js chart on a canvas (no inline styles or scripts, so it works under the page's
 * Content-Security-Policy). `label` describes it for screen readers, who cannot see the canvas.
 */
export function ChartView<T extends ChartType>({ config, label }: { config: ChartConfiguration<T>; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Drawn anew when the configuration changes; callers memoize it on their data.
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, config);
    return () => chart.destroy();
  }, [config]);

  return (
    <div className="grafico">
      <canvas ref={canvas} role="img" aria-label={label} />
    </div>
  );
}
