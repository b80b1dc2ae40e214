import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { SERVE_MALLOC_ENV } from '../../src/cli/malloc-settings.js';
import { expectKnownSettings } from '../support/deploy-settings.js';
import { migratedDataDir, type MigratedDataDir } from '../support/migrated-data-dir.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

const DIR = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));

interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Container {
  name: string;
  command: string[];
  envFrom?: ({ configMapRef: { name: string } } | { secretRef: { name: string } })[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } } }[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  securityContext?: Record<string, unknown>;
  containers: Container[];
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: Record<string, unknown> & { template?: { spec: PodSpec }; ports?: { port: number; targetPort: string | number }[] };
}

const manifests: Manifest[] = readdirSync(DIR)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(readFileSync(`${DIR}${file}`, 'utf8')).map((doc) => doc.toJS() as Manifest));
const find = (kind: string, name?: string) => manifests.filter((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
const one = (kind: string, name?: string) => {
  const found = find(kind, name);
  expect(found, `${kind} ${name ?? ''}`).toHaveLength(1);
  return found[0]!;
};
const source = (kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> => {
  const manifest = one(kind, name);
  return kind === 'ConfigMap' ? manifest.data! : manifest.stringData!;
};

/** The environment a container gets: envFrom's ConfigMaps and Secrets, then env, valueFrom resolved. */
function environment(container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) Object.assign(env, 'configMapRef' in from ? source('ConfigMap', from.configMapRef.name) : source('Secret', from.secretRef.name));
  for (const { name, value, valueFrom } of container.env ?? []) {
    const ref = valueFrom?.secretKeyRef ?? valueFrom?.configMapKeyRef;
    env[name] = ref ? source(valueFrom?.secretKeyRef ? 'Secret' : 'ConfigMap', ref.name)[ref.key]! : value!;
    expect(env[name], `${container.name}: ${name}`).toBeDefined();
  }
  return env;
}

const deployment = one('Deployment', 'calendar-api');
const pod = deployment.spec.template!.spec;
const api = pod.containers[0]!;
const apiEnv = environment(api);
const job = one('Job', 'calendar-migrate');
const migrate = job.spec.template!.spec.containers[0]!;
const portOf = (container: Container, port: string | number) => (typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort);

describe('deploy/kubernetes: the manifests', () => {
  it('has a Deployment, Services, a PodDisruptionBudget, a HorizontalPodAutoscaler, the migration Job, a ConfigMap and Secrets', () => {
    for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'Job', 'ConfigMap', 'Secret']) expect(find(kind).length, kind).toBeGreaterThan(0);
  });

  it('sets only settings src/config.ts knows, valid together, on the nodes and on the Job', () => {
    expectKnownSettings(apiEnv, 'Deployment calendar-api');
    expect(apiEnv['MIGRATE']).toBe('off');
    // serve's allocator setting (src/cli/malloc-settings.ts): glibc reads it from the container's environment.
    for (const [name, value] of Object.entries(SERVE_MALLOC_ENV)) expect(apiEnv[name]).toBe(value);
    const jobEnv = environment(migrate);
    expectKnownSettings(jobEnv, 'Job calendar-migrate');
    expect(jobEnv['DATABASE_SERVING_ROLE']).toBe('calendar_serve');
    expect(jobEnv['DATABASE_URL']).toMatch(/^postgres:\/\/calendar_owner:/);
    expect(apiEnv['DATABASE_URL']).toMatch(/^postgres:\/\/calendar_serve:/);
    expect(migrate.command).toEqual(['node', 'node_modules/event-calendar-api/bin/calendar.js', 'migrate']);
  });

  it('probes /ready for readiness and /health for liveness on the port PORT names; the Services\' ports are the container\'s PORT and METRICS_PORT', () => {
    expect(api.readinessProbe!.httpGet.path).toBe('/ready');
    expect(api.livenessProbe!.httpGet.path).toBe('/health');
    for (const probe of [api.readinessProbe, api.livenessProbe, api.startupProbe]) if (probe) expect(portOf(api, probe.httpGet.port)).toBe(Number(apiEnv['PORT']));
    const targets = find('Service').flatMap((service) => service.spec.ports!.map((port) => portOf(api, port.targetPort)));
    expect(targets.sort()).toEqual([Number(apiEnv['PORT']), Number(apiEnv['METRICS_PORT'])].sort());
  });

  it('stops with a preStop sleep and a grace period longer than it and the drain (5 s)', () => {
    const sleep = api.lifecycle!.preStop!.sleep!.seconds;
    expect(sleep).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(sleep + 5);
  });

  it('runs as non-root on a read-only root filesystem, with the V8 flags and the measured memory', () => {
    for (const spec of [pod, job.spec.template!.spec]) {
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true });
      for (const container of spec.containers) expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    }
    expect(api.command).toEqual(['node', '--max-semi-space-size=16', '--no-allocation-site-pretenuring', 'node_modules/event-calendar-api/bin/calendar.js', 'serve']);
    // The limit CalendarMemoryNearLimit warns at 90 % of; the request above the measured 560 MB (100 000 events) and a third.
    expect(api.resources?.limits?.['memory']).toBe('1Gi');
    expect(readFileSync(fileURLToPath(new URL('../../deploy/prometheus/alerts.yml', import.meta.url)), 'utf8')).toContain('> 0.9 * 1073741824');
    expect(Number(/^(\d+)Mi$/.exec(api.resources?.requests?.['memory'] ?? '')?.[1])).toBeGreaterThanOrEqual(Math.ceil((560 * 4) / 3 / 1.048576));
  });
});

// The probe paths asked of a real `calendar serve` (on a migrated embedded database of its own): never 404.
describe('deploy/kubernetes: the probe paths exist on the service', { timeout: 120_000 }, () => {
  let service: ServiceProcess | undefined;
  let dataDir: MigratedDataDir | undefined;
  let origin: string;

  beforeAll(async () => {
    dataDir = await migratedDataDir();
    service = startServiceProcess({ CALENDAR_DATA_DIR: dataDir.path, DEMO_EVENTS: '0', LOG_LEVEL: 'error' });
    origin = new URL(await service.listening).origin;
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await dataDir?.remove();
  });

  it('answers the readiness path 200 or 503 and the liveness path 200', async () => {
    const probes = [api.readinessProbe, api.livenessProbe, api.startupProbe].filter((probe): probe is Probe => probe !== undefined);
    for (const probe of probes) {
      const response = await fetch(`${origin}${probe.httpGet.path}`);
      expect(response.status, probe.httpGet.path).not.toBe(404);
      expect(probe.httpGet.path === '/ready' ? [200, 503] : [200], probe.httpGet.path).toContain(response.status);
    }
  });
});
