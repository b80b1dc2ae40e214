import parsePrometheusTextFormat, { type PrometheusFamily, type PrometheusSample } from 'parse-prometheus-text-format';

/** A /metrics answer parsed by a Prometheus text-format parser, with look-ups for assertions. */
export interface ParsedMetrics {
  text: string;
  families: PrometheusFamily[];
  family(name: string): PrometheusFamily | undefined;
  /** The sample of `name` whose labels include `labels`; undefined when there is none. */
  sample(name: string, labels?: Record<string, string>): PrometheusSample | undefined;
  /** Its value (a counter's or a gauge's; a histogram's count), 0 when absent. */
  value(name: string, labels?: Record<string, string>): number;
}

/**
 * parse-prometheus-text-format (1.1.1) reads a histogram whose series carry labels besides `le` as
 * one series without labels (it folds every bucket together, prom2json's shape for an unlabelled
 * one). So the text is parsed twice: as it is (which checks every line, histograms included), and
 * with the histograms' TYPE lines left out, where each `_bucket`, `_sum` and `_count` series is
 * read as a family of its own with its labels; a histogram's sample is assembled from those.
 */
export function parseMetrics(text: string): ParsedMetrics {
  const families = parsePrometheusTextFormat(text);
  const histograms = new Set(families.filter((f) => f.type === 'HISTOGRAM').map((f) => f.name));
  const series = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram\n/gm, ''));
  const family = (name: string) => families.find((f) => f.name === name);
  const matching = (samples: PrometheusSample[] | undefined, labels: Record<string, string>) =>
    samples?.filter((m) => Object.entries(labels).every(([key, value]) => m.labels?.[key] === value)) ?? [];
  const sample = (name: string, labels: Record<string, string> = {}): PrometheusSample | undefined => {
    if (!histograms.has(name)) return matching(family(name)?.metrics, labels)[0];
    // Each label set's buckets, sum and count come in turn: a suffix's family appears once per label set.
    const part = (suffix: string) => matching(series.filter((f) => f.name === `${name}${suffix}`).flatMap((f) => f.metrics), labels);
    const count = part('_count')[0];
    if (!count) return undefined;
    const buckets = Object.fromEntries(part('_bucket').map((m) => [m.labels?.['le'] ?? '', m.value ?? '']));
    return { labels: count.labels, count: count.value, sum: part('_sum')[0]?.value, buckets };
  };
  return {
    text,
    families,
    family,
    sample,
    value: (name, labels) => {
      const found = sample(name, labels);
      return Number(found?.value ?? found?.count ?? 0);
    },
  };
}

/** GET <origin>/metrics, checked to be Prometheus' text format, parsed. */
export async function scrape(origin: string): Promise<ParsedMetrics> {
  const response = await fetch(`${origin}/metrics`, { signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: ${text}`);
  if (!response.headers.get('content-type')?.startsWith('text/plain; version=0.0.4')) throw new Error(`/metrics content type ${response.headers.get('content-type')}`);
  return parseMetrics(text);
}
