// The deployment artifacts (Dockerfile, compose.yaml, deploy/k8s/) checked
// offline: against their published schemas, against each other (ports, grace
// periods, names) and against the code (entry points that the build produces,
// variables the apps read, probe paths that answer).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { parse, parseAllDocuments } from 'yaml';
import { HealthController } from '../../libs/gateway/src/health/health.controller';
import { ALLOCATOR_SETTINGS } from '../../scripts/allocator-settings';
import { APP_ENTRIES, isAppName, type AppName } from '../../scripts/app-entries';
import { findRepoRoot } from '../support/repo-root';
import { startStats, startWeather } from '../support/stack';

const ROOT = findRepoRoot(__dirname);
const DIST = join(ROOT, 'dist');
const run = promisify(execFile);

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Every TypeScript source the apps run (apps, libs, scripts), to find the variables they read. */
function sourceText(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'generated') walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const dir of ['apps', 'libs', 'scripts']) walk(join(ROOT, dir));
  return files.map((file) => readFileSync(file, 'utf8')).join('\n');
}

/**
 * Variables the artifacts may set for work that lands separately. Once the code
 * reads one, the test asks to remove it here.
 */
const READ_BY_PENDING_WORK: string[] = [];

function assertVariablesAreRead(names: Iterable<string>, where: string): void {
  const source = sourceText();
  const isRead = (name: string) => new RegExp(`\\b${name}\\b`).test(source);
  for (const name of new Set(names)) {
    if (READ_BY_PENDING_WORK.includes(name)) {
      assert.ok(!isRead(name), `${name} is read by the apps now: remove it from READ_BY_PENDING_WORK`);
      continue;
    }
    assert.ok(isRead(name), `${where} sets ${name}, which no app reads (a typo, or a variable that was renamed)`);
  }
}

const SHUTDOWN_GRACE_ENV = 'S2SP_SHUTDOWN_GRACE_MS';

function seconds(duration: string): number {
  const match = /^(\d+)s$/.exec(duration);
  assert.ok(match, `a duration in seconds, e.g. 30s; got ${duration}`);
  return Number(match[1]);
}

describe('Dockerfile', () => {
  const lines = read('Dockerfile')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages = lines.filter((line) => line.startsWith('FROM '));
  const runtime = lines.slice(lines.indexOf(stages[stages.length - 1]));
  const ignored = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  test('is multi-stage; the runtime stage installs production dependencies only and runs as a user other than root', () => {
    assert.ok(stages.length >= 2, 'a build stage and a runtime stage');
    const dependencies = lines.slice(lines.indexOf(stages[1]), lines.indexOf(stages[2]));
    assert.ok(
      dependencies.some((line) => /^RUN npm ci .*--omit=dev/.test(line)),
      'npm ci --omit=dev for what the runtime copies',
    );
    assert.ok(
      !runtime.some((line) => /^RUN npm (ci|install)/.test(line) && !line.includes('--omit=dev')),
      'no dev dependencies in the runtime',
    );
    const users = runtime.filter((line) => line.startsWith('USER '));
    assert.equal(users.length, 1);
    assert.ok(!['root', '0'].includes(users[0].slice('USER '.length).split(':')[0]), users[0]);
    assert.ok(
      runtime.indexOf(users[0]) < runtime.findIndex((line) => line.startsWith('ENTRYPOINT')),
      'the user is set before the entry point',
    );
  });

  test('the runtime sets the allocator settings the data-plane bench measures', () => {
    const settings = Object.fromEntries(
      runtime
        .filter((line) => line.startsWith('ENV '))
        .flatMap((line) => line.slice('ENV '.length).split(/\s+/))
        .map((pair) => pair.split('=') as [string, string]),
    );
    for (const [name, value] of Object.entries(ALLOCATOR_SETTINGS)) assert.equal(settings[name], value, name);
  });

  test('every COPY from the build context exists and is not excluded by .dockerignore', () => {
    const sources = lines
      .filter((line) => line.startsWith('COPY ') && !line.includes('--from='))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    assert.ok(sources.length > 0);
    for (const source of sources) {
      assert.ok(existsSync(join(ROOT, source)), `COPY ${source}: no such file in the repository`);
      assert.ok(!ignored.includes(source), `COPY ${source}: .dockerignore excludes it`);
    }
  });

  test('what the runtime copies from the build stage is what `npm run build` produces, and the entry point starts each app', () => {
    const fromBuild = runtime
      .filter((line) => line.startsWith('COPY --from=build'))
      .map((line) => line.split(/\s+/)[2]);
    for (const path of fromBuild)
      assert.ok(existsSync(join(ROOT, path.replace(/^\/app\//, ''))), `COPY --from=build ${path}: not built`);
    const entrypoint = JSON.parse(
      runtime.find((line) => line.startsWith('ENTRYPOINT '))!.slice('ENTRYPOINT '.length),
    ) as string[];
    assert.deepEqual(entrypoint, ['node', 'dist/scripts/app-entry.js']);
    const healthcheck = runtime.find((line) => line.startsWith('HEALTHCHECK '));
    assert.match(healthcheck ?? '', /"dist\/scripts\/app-health\.js"/);
    for (const script of ['app-entry.js', 'app-health.js'])
      assert.ok(existsSync(join(DIST, 'scripts', script)), script);
    for (const [app, entry] of Object.entries(APP_ENTRIES))
      assert.ok(existsSync(join(DIST, entry.main)), `${app}: ${entry.main} is not built`);
    const command = JSON.parse(runtime.find((line) => line.startsWith('CMD '))!.slice('CMD '.length)) as string[];
    assert.ok(isAppName(command[0]), `CMD names an app: ${command[0]}`);
    const exposed = runtime
      .filter((line) => line.startsWith('EXPOSE '))
      .flatMap((line) => line.split(/\s+/).slice(1).map(Number));
    for (const entry of Object.values(APP_ENTRIES))
      assert.ok(exposed.includes(entry.defaultPort), `EXPOSE ${entry.defaultPort}`);
  });

  test('the entry point refuses an unknown app with exit code 2 and names the choices', async () => {
    const failure = await run(process.execPath, [join(DIST, 'scripts', 'app-entry.js'), 'web'], { cwd: ROOT }).then(
      () => assert.fail('app-entry started "web"'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failure.code, 2);
    assert.match(failure.stderr, /gateway, agents, weather-server, stats-server \(got "web"\)/);
  });

  test('the health check passes while an app answers ready and fails once it is gone', async () => {
    const weather = await startWeather();
    const check = () =>
      run(process.execPath, [join(DIST, 'scripts', 'app-health.js'), 'weather-server'], {
        cwd: ROOT,
        env: { ...process.env, WEATHER_PORT: String(weather.port) },
      });
    try {
      await check();
    } finally {
      await weather.close();
    }
    const failure = await check().then(
      () => assert.fail('healthy with nothing listening'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failure.code, 1);
    assert.match(failure.stderr, /weather-server not ready/);
  });
});

interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  stop_grace_period?: string;
  ports?: string[];
  volumes?: string[];
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
  const schema = JSON.parse(read('test/schemas/compose-spec/compose-spec.json')) as object;
  // The schema names its draft without the trailing '#' Ajv registers it under; it is draft-07 either way.
  const validate = new Ajv({ allErrors: true, strict: false, validateSchema: false }).compile(schema);
  const apps = Object.entries(compose.services).filter(([, service]) => isAppName(service.command?.[0]));

  test('is valid against the published Compose schema, which a broken file fails', () => {
    assert.ok(validate(compose), JSON.stringify(validate.errors, null, 2));
    const broken = structuredClone(compose) as { services: Record<string, Record<string, unknown>> };
    broken.services.gateway.replica = 2; // a typo of deploy.replicas
    assert.equal(validate(broken), false, 'the schema is really applied');
  });

  test('runs PostgreSQL, Redis, an OpenTelemetry collector and the four apps, with replicas of the gateway, agents and weather server', () => {
    assert.deepEqual(apps.map(([, service]) => service.command![0]).sort(), Object.keys(APP_ENTRIES).sort());
    for (const name of ['postgres', 'redis', 'otel-collector']) assert.ok(compose.services[name], name);
    for (const name of ['gateway', 'agents', 'weather-server'])
      assert.ok((compose.services[name].deploy?.replicas ?? 1) >= 2, `${name} replicas`);
    for (const volume of compose.services['otel-collector'].volumes ?? []) {
      const source = volume.split(':')[0];
      if (source.startsWith('./')) assert.ok(existsSync(join(ROOT, source)), `${source} exists`);
    }
  });

  test('every app shares PostgreSQL and Redis, listens on all interfaces on its port, and has more time to stop than its grace period', () => {
    for (const [name, service] of apps) {
      const app = service.command![0] as AppName;
      const env = service.environment ?? {};
      assert.match(env.DATABASE_URL ?? '', /^postgresql:\/\/.*@postgres:5432\//, `${name} DATABASE_URL`);
      assert.match(env.REDIS_URL ?? '', /^redis:\/\/redis:6379/, `${name} REDIS_URL`);
      const prefix = APP_ENTRIES[app].portEnv.replace(/_PORT$/, '');
      assert.equal(env[`${prefix}_HOST`], '0.0.0.0', `${name} listens beyond loopback`);
      assert.equal(Number(env[APP_ENTRIES[app].portEnv]), APP_ENTRIES[app].defaultPort, `${name} port`);
      assert.ok(
        seconds(service.stop_grace_period ?? '10s') * 1000 > Number(env[SHUTDOWN_GRACE_ENV]),
        `${name}: stop_grace_period above ${SHUTDOWN_GRACE_ENV}`,
      );
    }
    const gateway = compose.services.gateway;
    assert.ok(
      gateway.ports?.some((port) => port.endsWith(`:${gateway.environment!.GATEWAY_PORT}`)),
      'the gateway publishes its port',
    );
  });

  test('every variable it sets for the apps is one they read', () => {
    assertVariablesAreRead(
      apps.flatMap(([, service]) => Object.keys(service.environment ?? {})),
      'compose.yaml',
    );
  });
});

const K8S_MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [key: string]: any;
}

function k8sObjects(): Array<{ file: string; object: K8sObject }> {
  const files = [
    ...readdirSync(join(ROOT, 'deploy', 'k8s')).map((name) => join('deploy', 'k8s', name)),
    join('deploy', 'secrets.example.yaml'),
  ];
  return files.flatMap((file) =>
    parseAllDocuments(read(file)).map((document) => {
      assert.deepEqual(document.errors, [], `${file} parses`);
      return { file, object: document.toJS() as K8sObject };
    }),
  );
}

describe('Kubernetes manifests (deploy/k8s/, deploy/secrets.example.yaml)', () => {
  const objects = k8sObjects();
  const ofKind = (kind: string) => objects.filter(({ object }) => object.kind === kind).map(({ object }) => object);
  const deployments = ofKind('Deployment');
  const configMap = ofKind('ConfigMap')[0];

  test('every object is valid against the Kubernetes OpenAPI schema (kubernetes-models), which a broken one fails', () => {
    for (const { file, object } of objects) {
      const Model = K8S_MODELS[`${object.apiVersion}/${object.kind}`];
      assert.ok(Model, `${file}: ${object.apiVersion} ${object.kind} is not one the test knows`);
      assert.doesNotThrow(
        () => new Model(object as never).validate(),
        `${file}: ${object.kind} ${object.metadata.name}`,
      );
    }
    const broken = structuredClone(deployments[0]);
    broken.spec.template.spec.containers[0].readinessProbe = { httpGet: { path: '/health', port: { name: 'http' } } };
    assert.throws(() => new Deployment(broken).validate(), /port/, 'the schema is really applied');
  });

  test('one Deployment per app, each with a Service, an autoscaler and a disruption budget that select it', () => {
    assert.deepEqual(
      deployments.map((deployment) => deployment.spec.template.spec.containers[0].args[0]).sort(),
      Object.keys(APP_ENTRIES).sort(),
    );
    for (const deployment of deployments) {
      const name = deployment.metadata.name;
      const podLabels = deployment.spec.template.metadata.labels as Record<string, string>;
      const selects = (selector: Record<string, string>) =>
        Object.entries(selector).every(([key, value]) => podLabels[key] === value);
      assert.ok(selects(deployment.spec.selector.matchLabels), `${name}: its selector matches its pods`);
      const service = ofKind('Service').find((candidate) => candidate.metadata.name === name);
      assert.ok(service && selects(service.spec.selector), `${name}: a Service selects it`);
      const containerPorts = deployment.spec.template.spec.containers[0].ports.map(
        (port: { name: string }) => port.name,
      );
      for (const port of service.spec.ports)
        assert.ok(
          containerPorts.includes(port.targetPort),
          `${name}: Service port ${port.name} targets a container port`,
        );
      const autoscaler = ofKind('HorizontalPodAutoscaler').find(
        (candidate) => candidate.spec.scaleTargetRef.name === name,
      );
      assert.ok(
        autoscaler && autoscaler.spec.scaleTargetRef.kind === 'Deployment',
        `${name}: a HorizontalPodAutoscaler`,
      );
      assert.ok(autoscaler.spec.minReplicas >= 2, `${name}: at least two replicas, so a disruption leaves one`);
      const budget = ofKind('PodDisruptionBudget').find((candidate) => selects(candidate.spec.selector.matchLabels));
      assert.ok(budget, `${name}: a PodDisruptionBudget`);
    }
  });

  test("the gateway reaches every agents pod: its target is a headless Service of the agents' gRPC port, balanced round robin", () => {
    const gateway = deployments.find((deployment) => deployment.metadata.name === 'gateway')!;
    const agents = deployments.find((deployment) => deployment.metadata.name === 'agents')!;
    const env = Object.fromEntries(
      (gateway.spec.template.spec.containers[0].env as Array<{ name: string; value: string }>).map(
        ({ name, value }) => [name, value],
      ),
    );
    const target = /^dns:\/\/\/([a-z0-9-]+):(\d+)$/.exec(env.GATEWAY_AGENTS_URL);
    assert.ok(target, `GATEWAY_AGENTS_URL names a DNS target: ${env.GATEWAY_AGENTS_URL}`);
    const service = ofKind('Service').find((candidate) => candidate.metadata.name === target[1]);
    assert.ok(service, `a Service ${target[1]}`);
    assert.equal(service.spec.clusterIP, 'None', 'headless: its name resolves to the pods, not to one virtual IP');
    const podLabels = agents.spec.template.metadata.labels as Record<string, string>;
    assert.ok(
      Object.entries(service.spec.selector as Record<string, string>).every(([key, value]) => podLabels[key] === value),
      'it selects the agents pods',
    );
    const grpcPort = agents.spec.template.spec.containers[0].ports.find(
      (port: { name: string }) => port.name === 'grpc',
    );
    assert.equal(
      Number(target[2]),
      grpcPort.containerPort,
      'on their gRPC port (a headless Service does not map ports)',
    );
    assert.notEqual(
      env.GATEWAY_AGENTS_LOAD_BALANCING ?? configMap.data.GATEWAY_AGENTS_LOAD_BALANCING ?? 'round_robin',
      'pick_first',
    );
  });

  test('each app runs as a user other than root, on its port, probed where it answers, with requests and limits', () => {
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      const container = pod.containers[0];
      const app = container.args[0] as AppName;
      const entry = APP_ENTRIES[app];
      assert.equal(pod.securityContext.runAsNonRoot, true, app);
      assert.ok(pod.securityContext.runAsUser > 0, app);
      const env = Object.fromEntries(
        (container.env as Array<{ name: string; value: string }>).map(({ name, value }) => [name, value]),
      );
      assert.equal(Number(env[entry.portEnv]), entry.defaultPort, `${app}: ${entry.portEnv}`);
      assert.equal(env[entry.portEnv.replace(/_PORT$/, '_HOST')], '0.0.0.0', `${app} listens beyond loopback`);
      const mainPort = container.ports[0];
      assert.equal(mainPort.containerPort, entry.defaultPort, `${app}: container port`);
      if (entry.probe === 'grpc') {
        for (const probe of ['readinessProbe', 'livenessProbe'])
          assert.equal(container[probe].grpc.port, entry.defaultPort, `${app}: ${probe} on gRPC health`);
      } else {
        assert.deepEqual(
          container.readinessProbe.httpGet,
          { path: '/health', port: mainPort.name },
          `${app}: readiness on /health`,
        );
        assert.deepEqual(
          container.livenessProbe.httpGet,
          { path: '/health/live', port: mainPort.name },
          `${app}: liveness on /health/live`,
        );
      }
      for (const kind of ['requests', 'limits'])
        for (const resource of ['cpu', 'memory'])
          assert.ok(container.resources[kind][resource], `${app}: ${kind}.${resource}`);
    }
  });

  test('the grace period of the pods is above the apps’ own, and liveness cannot cut a drain short', () => {
    const graceMs = Number(configMap.data[SHUTDOWN_GRACE_ENV]);
    assert.ok(graceMs > 0);
    assert.ok(Number(configMap.data.S2SP_SHUTDOWN_NOT_READY_DELAY_MS) < graceMs);
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      assert.ok(
        pod.terminationGracePeriodSeconds * 1000 > graceMs,
        `${deployment.metadata.name}: terminationGracePeriodSeconds`,
      );
      const liveness = pod.containers[0].livenessProbe;
      assert.ok(
        liveness.periodSeconds * liveness.failureThreshold >= pod.terminationGracePeriodSeconds,
        `${deployment.metadata.name}: liveness tolerance`,
      );
    }
  });

  test('configuration comes from the ConfigMap and Secrets the manifests define, and every variable is one the apps read', () => {
    const secrets = ofKind('Secret');
    const names: string[] = Object.keys(configMap.data);
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      const container = pod.containers[0];
      for (const source of container.envFrom) {
        if (source.configMapRef) assert.equal(source.configMapRef.name, configMap.metadata.name);
        if (source.secretRef) {
          const secret = secrets.find((candidate) => candidate.metadata.name === source.secretRef.name);
          assert.ok(secret, `${deployment.metadata.name}: Secret ${source.secretRef.name} is defined`);
          names.push(...Object.keys(secret.stringData));
        }
      }
      names.push(...container.env.map((variable: { name: string }) => variable.name));
      const mounted = new Set(
        pod.volumes
          .filter((volume: { secret?: unknown }) => volume.secret)
          .map((volume: { secret: { secretName: string } }) => volume.secret.secretName),
      );
      for (const secretName of mounted)
        assert.ok(
          secrets.some((candidate) => candidate.metadata.name === secretName),
          `Secret ${secretName} is defined`,
        );
    }
    for (const required of ['DATABASE_URL', 'REDIS_URL'])
      assert.ok(names.includes(required), `${required} is configured`);
    assertVariablesAreRead(names, 'deploy/k8s/');
    const authFiles = Object.keys(secrets.find((secret) => secret.metadata.name === 's2sp-auth')?.stringData ?? {});
    for (const variable of ['S2SP_AUTH_JWKS_FILE', 'S2SP_AUTH_SIGNING_KEY_FILE']) {
      assert.ok(
        authFiles.some((file) => configMap.data[variable].endsWith(`/${file}`)),
        `${variable} names a file of Secret s2sp-auth`,
      );
    }
  });

  test('the HTTP probe paths answer on the apps as they start (readiness 200, liveness 200)', async () => {
    // The gateway's routes, without starting it (its /health needs the agents; test/e2e/graceful-shutdown.test.ts calls it).
    const gatewayRoutes = [HealthController.prototype.check, HealthController.prototype.live].map(
      (handler) => Reflect.getMetadata('path', handler) as string,
    );
    assert.deepEqual(gatewayRoutes, ['health', 'health/live']);
    const weather = await startWeather();
    const stats = await startStats([weather.url]);
    try {
      for (const server of [weather, stats]) {
        for (const path of ['/health', '/health/live']) {
          const response = await fetch(`${server.url}${path}`);
          assert.equal(response.status, 200, `${server.url}${path}`);
        }
      }
    } finally {
      await stats.close();
      await weather.close();
    }
  });
});

test('the artifacts cite only files of the repository that exist', () => {
  const texts = [
    'Dockerfile',
    'compose.yaml',
    ...readdirSync(join(ROOT, 'deploy', 'k8s')).map((name) => join('deploy', 'k8s', name)),
  ];
  for (const file of texts) {
    for (const [cited] of read(file).matchAll(
      /(?<![\w/])(?:scripts|libs|deploy|apps|test)\/[\w./-]+\.(?:ts|yaml|md)\b/g,
    )) {
      assert.ok(existsSync(join(ROOT, cited)), `${relative(ROOT, join(ROOT, file))} cites ${cited}`);
    }
  }
});
