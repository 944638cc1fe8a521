import type { Metric, Registry } from "prom-client";

interface Series<L extends string> {
  labels: Record<L, string>;
  /** Observations per bucket, not cumulative; the last is above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram for the paths every request takes: it finds its series by a key the
 * caller makes of the label values, and makes the labels only for a key it has not met. prom-client's
 * own Histogram validates and hashes the labels of every observation, a measurable part of a ping's
 * CPU. Exposed as prom-client's are (buckets, sum, count), through the same registry.
 */
export class KeyedHistogram<L extends string> {
  readonly type = "histogram";
  readonly aggregator = "sum";
  readonly #series = new Map<string, Series<L>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    // biome-ignore lint/plugin: the registry reads a metric only through get(), which this has; its types name only prom-client's own classes
    registry.registerMetric(this as unknown as Metric);
  }

  /** Counts `value` in the series of `key`; `labels` makes its labels the first time the key is met. */
  observe(key: string, labels: () => Record<L, string>, value: number): void {
    let series = this.#series.get(key);
    if (!series) {
      series = { labels: labels(), counts: new Array(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += value;
    series.count++;
  }

  /** What prom-client's registry reads of a metric when it is scraped. */
  async get() {
    const values = [...this.#series.values()].flatMap(({ labels, counts, sum, count }) => {
      let cumulative = 0;
      const buckets = [...this.bounds, "+Inf" as const].map((le, i) => {
        cumulative += counts[i]!;
        return { metricName: `${this.name}_bucket`, labels: { le, ...labels }, value: cumulative };
      });
      return [
        ...buckets,
        { metricName: `${this.name}_sum`, labels, value: sum },
        { metricName: `${this.name}_count`, labels, value: count },
      ];
    });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#series.clear();
  }
}
