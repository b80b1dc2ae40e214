import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { parse } from 'yaml';
import { operatorTool } from '../support/operator-tool.js';
import { exportedMetricNames, promqlMetricNames } from '../support/promql-metric-names.js';
import { migratedDataDir, type MigratedDataDir } from '../support/migrated-data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { freePort } from '../support/throwaway-postgres.js';

const execFileAsync = promisify(execFile);
const PROMETHEUS_DIR = fileURLToPath(new URL('../../deploy/prometheus/', import.meta.url));
const DASHBOARD = fileURLToPath(new URL('../../deploy/grafana/calendar-dashboard.json', import.meta.url));
const DATABASE_URL = process.env['DATABASE_URL'] || undefined;
const promtool = operatorTool('promtool', ['/usr/bin/promtool', '/usr/local/bin/promtool'], 'prometheus');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
}
interface RuleFile {
  groups: { name: string; rules: Rule[] }[];
}
interface RuleTests {
  rule_files: string[];
  tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
}

const readYaml = <T>(file: string): T => parse(readFileSync(`${PROMETHEUS_DIR}${file}`, 'utf8')) as T;
const rules = (file: string): Rule[] => readYaml<RuleFile>(file).groups.flatMap((group) => group.rules);
const alerts = rules('alerts.yml');
const recorded = rules('recording.yml');

interface Dashboard {
  panels: { id: number; type: string; title: string; targets?: { expr: string }[] }[];
  templating: { list: { name: string; query?: string | { query: string } }[] };
}
const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');

/** The PromQL of the dashboard's variables: the metric of `label_values(metric, label)`, or the query itself. */
const variableQueries = dashboard.templating.list.flatMap(({ query }) => {
  const text = typeof query === 'string' ? query : query?.query;
  if (!text || text === 'prometheus') return [];
  return [/^label_values\((.+),\s*\w+\)$/.exec(text)?.[1] ?? text];
});

/** What the issue asks the dashboard to show, each with a metric one of its panels must read. */
const DASHBOARD_REQUIRED = {
  requests: 'calendar_http_requests_total',
  errors: 'calendar_http_requests_total',
  latency: 'calendar_http_request_duration_seconds_bucket',
  'cache hit ratio': 'calendar_response_cache_lookups_total',
  'executions waiting': 'calendar_executions_waiting',
  'data version': 'calendar_data_version',
  purges: 'calendar_cdn_purges_total',
  'Redis breaker': 'calendar_redis_available',
  memory: 'process_resident_memory_bytes',
  pool: 'calendar_db_pool_connections',
};

/** What the issue asks the alerts to cover, each with the metric its alert must read. */
const REQUIRED = {
  'service down': 'up',
  '5xx rate': 'job:calendar_graphql_requests_5xx:rate5m',
  '503 rate': 'job:calendar_graphql_requests_503:rate5m',
  'p95 latency': 'job:calendar_graphql_request_duration_seconds:p95_5m',
  'data version lagging': 'calendar_data_version',
  'data version lagging the database': 'calendar_database_data_version',
  'CDN purge failures': 'calendar_cdn_purges_total',
  'Redis breaker open': 'calendar_redis_available',
  'executions waiting': 'calendar_executions_waiting',
  'memory near its limit': 'process_resident_memory_bytes',
};

/** Series Prometheus makes itself for every target, not the service. */
const PROMETHEUS_SERIES = new Set(['up']);

/**
 * Families the service exports only in some setups, with the setup: without DATABASE_URL the scrape below
 * cannot show them, so they are accepted by name; with it they must be in the scrape (so this list cannot drift).
 */
const EXPORTED_ON_POSTGRESQL = new Map([
  ['calendar_db_pool_connections', 'on PostgreSQL only'],
  ['calendar_db_pool_idle_connections', 'on PostgreSQL only'],
  ['calendar_db_pool_waiting_requests', 'on PostgreSQL only'],
  ['calendar_db_pool_max_connections', 'on PostgreSQL only'],
  ['calendar_cluster_workers', 'with WORKERS > 1 only (which needs PostgreSQL)'],
  ['calendar_cluster_workers_reporting', 'with WORKERS > 1 only (which needs PostgreSQL)'],
  ['calendar_cluster_worker_restarts_total', 'with WORKERS > 1 only (which needs PostgreSQL)'],
]);

describe('PromQL metric names: what the check below reads from an expression', () => {
  it('takes selectors bare and with matchers, and leaves out functions, keywords, grouping labels, ranges and numbers', () => {
    const names = promqlMetricNames(
      'histogram_quantile(0.95, sum by (le, job) (rate(a_bucket{route="graphql",status=~"5.."}[5m]))) / on (job) group_left () b:rec:rate5m > 0.9 * 1e3 and c offset 5m unless sum(d) without (instance) or e[$__rate_interval]',
    );
    expect([...names].sort()).toEqual(['a_bucket', 'b:rec:rate5m', 'c', 'd', 'e']);
  });

  it('maps a histogram\'s _bucket, _sum and _count series to its family from the TYPE lines', () => {
    const names = exportedMetricNames('# HELP h x\n# TYPE h histogram\nh_bucket{le="1"} 0\n# TYPE c_total counter\nc_total 1\n');
    expect([...names].sort()).toEqual(['c_total', 'h', 'h_bucket', 'h_count', 'h_sum']);
  });
});

describe('deploy/prometheus: the alerts cover what the issue asks, each with a promtool test case', () => {
  it('has an alert reading each required signal', () => {
    for (const [signal, metric] of Object.entries(REQUIRED)) {
      const reading = alerts.filter((rule) => promqlMetricNames(rule.expr).has(metric));
      expect(reading.map((rule) => rule.alert), `an alert on ${signal} (${metric})`).not.toEqual([]);
    }
  });

  it('tests every alert in alerts.test.yml, firing at least once', () => {
    const tests = readYaml<RuleTests>('alerts.test.yml');
    expect(tests.rule_files.sort()).toEqual(['alerts.yml', 'recording.yml']);
    const cases = tests.tests.flatMap((test) => test.alert_rule_test ?? []);
    for (const { alert } of alerts) {
      const firing = cases.filter((c) => c.alertname === alert && c.exp_alerts.length > 0);
      expect(firing.length, `a firing test case of ${alert}`).toBeGreaterThan(0);
    }
    // And no test case of an alert that no longer exists.
    for (const c of cases) expect(alerts.map((rule) => rule.alert)).toContain(c.alertname);
  });
});

describe('deploy/grafana: the dashboard shows what the issue asks', () => {
  it('has a panel reading each required metric, every panel with a query, ids unique', () => {
    const reads = (metric: string) => graphs.filter((panel) => panel.targets?.some((target) => promqlMetricNames(target.expr).has(metric)));
    for (const [what, metric] of Object.entries(DASHBOARD_REQUIRED)) expect(reads(metric).length, `a panel on ${what} (${metric})`).toBeGreaterThan(0);
    for (const panel of graphs) expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
  });
});

describe.skipIf(!promtool.run)('deploy/prometheus: promtool', () => {
  it('check rules: recording.yml and alerts.yml are valid rule files', async () => {
    const { stdout } = await execFileAsync(promtool.require(), ['check', 'rules', 'recording.yml', 'alerts.yml'], { cwd: PROMETHEUS_DIR });
    expect(stdout).toContain(`SUCCESS: ${recorded.length} rules found`);
    expect(stdout).toContain(`SUCCESS: ${alerts.length} rules found`);
  });

  it('test rules: every case of alerts.test.yml passes', async () => {
    const { stdout } = await execFileAsync(promtool.require(), ['test', 'rules', 'alerts.test.yml'], { cwd: PROMETHEUS_DIR }).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`promtool test rules failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
    expect(stdout).toContain('SUCCESS');
  });
});

// A real `calendar serve` (the compiled dist/), its /metrics scraped: on PostgreSQL with two workers (the pool and
// cluster families too) when DATABASE_URL is set, else on the embedded database; Redis at a closed port either way
// (its gauge is registered with the first connection, 0 while it is down).
describe('deploy/prometheus and deploy/grafana name only metrics the service exports', { timeout: 120_000 }, () => {
  let service: ServiceProcess | undefined;
  let dataDir: MigratedDataDir | undefined;
  let exported: Set<string>;
  const schema = `test_deploy_${randomBytes(5).toString('hex')}`;

  beforeAll(async () => {
    dataDir = DATABASE_URL ? undefined : await migratedDataDir();
    const database: Record<string, string> = dataDir ? { CALENDAR_DATA_DIR: dataDir.path } : { DATABASE_URL: DATABASE_URL!, DATABASE_SCHEMA: schema, WORKERS: '2' };
    service = startServiceProcess({ ...database, DEMO_EVENTS: '0', LOG_LEVEL: 'error', REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    const url = new URL(await service.listening);
    const response = await fetch(`${url.origin}/metrics`);
    expect(response.status).toBe(200);
    exported = exportedMetricNames(await response.text());
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await dataDir?.remove();
    if (DATABASE_URL) {
      const client = new pg.Client(DATABASE_URL);
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    }
  });

  /** The names an expression selects that are neither exported, recorded nor Prometheus' own. */
  function unknown(expr: string): string[] {
    const known = (name: string) => exported.has(name) || PROMETHEUS_SERIES.has(name) || recorded.some((rule) => rule.record === name) || (!DATABASE_URL && EXPORTED_ON_POSTGRESQL.has(name));
    return [...promqlMetricNames(expr)].filter((name) => !known(name));
  }

  it('scraped the families the checks rely on', () => {
    for (const name of ['calendar_http_requests_total', 'calendar_http_request_duration_seconds_bucket', 'calendar_data_version', 'calendar_redis_available', 'process_resident_memory_bytes']) {
      expect(exported, name).toContain(name);
    }
    if (DATABASE_URL) for (const [name, setup] of EXPORTED_ON_POSTGRESQL) expect(exported.has(name), `${name} (exported ${setup})`).toBe(true);
  });

  it('every alert and recording rule', () => {
    for (const rule of [...recorded, ...alerts]) {
      expect(unknown(rule.expr), `${rule.alert ?? rule.record}: ${rule.expr}`).toEqual([]);
    }
  });

  it('every dashboard panel and variable', () => {
    for (const panel of graphs) for (const { expr } of panel.targets ?? []) expect(unknown(expr), `panel "${panel.title}": ${expr}`).toEqual([]);
    expect(variableQueries.length).toBeGreaterThan(0);
    for (const query of variableQueries) expect(unknown(query), `variable query ${query}`).toEqual([]);
  });
});
