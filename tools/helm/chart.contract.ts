// The Helm chart's contract, asserted on `helm template` output: one Deployment, Service, autoscaler
// and disruption budget per service, probes on the endpoints the services really serve, a drain
// that fits in the grace period, .env.example mapped one to one, and values that change only
// the objects of the service they name. Needs helm (tools/infra builds it on first use).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';

const root = join(__dirname, '..', '..');
const chart = join(root, 'helm', 'notify');
const KUBE_VERSION = '1.30.0';

// The services and their consumer (topic, group), logical names as the code defines them.
const SERVICES = ['gateway', 'router', 'scheduler', 'recorder', 'inbound', 'webhook-dispatcher', 'billing'];
const SENDERS: Record<string, string> = {
  email: 'sender-email',
  sms: 'sender-sms',
  call: 'sender-call',
  push: 'sender-push',
  webPush: 'sender-web-push',
  inapp: 'sender-inapp',
  slack: 'sender-slack',
};
const CONSUMERS: Record<string, [topic: string, group: string]> = {
  router: ['send.requests', 'router'],
  recorder: ['delivery.events', 'recorder'],
  'sender-email': ['delivery.email', 'sender-email'],
  'sender-sms': ['delivery.sms', 'sender-sms'],
  'sender-call': ['delivery.call', 'sender-call'],
  'sender-push': ['delivery.mobile_push', 'sender-push'],
  'sender-web-push': ['delivery.web_push', 'sender-web-push'],
  'sender-inapp': ['delivery.inapp', 'sender-inapp'],
  'sender-slack': ['delivery.slack', 'sender-slack'],
};
const ALL_APPS = [...SERVICES, ...Object.values(SENDERS)];
/** Apps that are no Deployment: one-process dev, Jobs, and the console (static files the gateway serves). */
const NOT_DEPLOYMENTS = ['all-in-one', 'migrate', 'replay-dead-letters', 'console'];

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are read as plain JSON */
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

let helm = '';

function installHelm(): string {
  try {
    const out = execFileSync('bash', ['tools/infra/infra.sh', 'install', 'helm'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return out.trim().split('\n').pop() ?? '';
  } catch (error) {
    throw new Error(
      `helm is missing and could not be built: run \`bash tools/infra/infra.sh install helm\` (needs Go >= 1.26).\n${String(error)}`,
    );
  }
}

function helmTemplate(args: string[]): string {
  return execFileSync(
    helm,
    ['template', 'notify', chart, '--namespace', 'notify', '--kube-version', KUBE_VERSION, ...args],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/**
 * Services whose app is not built yet ship disabled; the chart's shape is checked with every
 * service on, and `renderAsShipped` checks what a default install deploys.
 */
const ENABLE_ALL = [
  '--set',
  [
    ...['gateway', 'router', 'scheduler', 'recorder', 'inbound', 'webhookDispatcher', 'billing'].map(
      (k) => `services.${k}.enabled=true`,
    ),
    ...Object.keys(SENDERS).map((k) => `senders.${k}.enabled=true`),
  ].join(','),
];

function render(...args: string[]): K8sObject[] {
  return renderAsShipped(...ENABLE_ALL, ...args);
}

function renderAsShipped(...args: string[]): K8sObject[] {
  return parseAllDocuments(helmTemplate(args))
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

/** The error of a render expected to fail. */
function renderError(...args: string[]): string {
  try {
    helmTemplate(args);
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
  throw new Error(`helm template ${args.join(' ')} succeeded`);
}

const component = (o: K8sObject) => o.metadata.labels?.['app.kubernetes.io/component'];
const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
const deploymentOf = (objects: K8sObject[], app: string) =>
  ofKind(objects, 'Deployment').find((o) => component(o) === app);

function container(deployment: K8sObject) {
  const [first] = deployment.spec.template.spec.containers;
  return first;
}

/** The objects that differ between two renders (added, removed or changed), as kind/name. */
function changedObjects(before: K8sObject[], after: K8sObject[]): K8sObject[] {
  const key = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;
  const index = (objects: K8sObject[]) => new Map(objects.map((o) => [key(o), JSON.stringify(o)]));
  const a = index(before);
  const b = index(after);
  return [...before, ...after].filter(
    (o, i, all) => a.get(key(o)) !== b.get(key(o)) && all.findIndex((x) => key(x) === key(o)) === i,
  );
}

/** Variables documented in .env.example (same pattern as libs/platform's env-example spec). */
function envExampleVariables(): string[] {
  const text = readFileSync(join(root, '.env.example'), 'utf8');
  return [...new Set([...text.matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1] ?? ''))];
}

/**
 * Routes of the health controller, read from its source (`/health/live`, `/health/ready`), and
 * whether it is public: the kubelet's probes carry no API key.
 */
function healthController(): { routes: string[]; isPublic: boolean } {
  const source = readFileSync(join(root, 'libs/platform/src/health/health.controller.ts'), 'utf8');
  const prefix = /@Controller\('([^']*)'\)/.exec(source)?.[1] ?? '';
  return {
    routes: [...source.matchAll(/@Get\('([^']*)'\)/g)].map((m) => `/${prefix}/${m[1] ?? ''}`),
    isPublic: /@Public\(\)[^{]*export class HealthController/.test(source),
  };
}

beforeAll(() => {
  helm = installHelm();
}, 900_000);

describe('Helm chart helm/notify', () => {
  let defaults: K8sObject[];
  let large: K8sObject[];
  beforeAll(() => {
    defaults = render();
    large = render('-f', join(root, 'deploy/values-large.yaml'));
  });

  it('gives every service and every sender its own Deployment, Service, HPA and PDB', () => {
    expect(ofKind(defaults, 'Deployment').map(component).sort()).toEqual([...ALL_APPS].sort());
    for (const app of ALL_APPS) {
      const deployment = deploymentOf(defaults, app);
      expect(deployment).toBeDefined();
      const name = deployment?.metadata.name ?? '';
      expect(named(defaults, 'Service', name)?.spec.selector).toEqual(deployment?.spec.selector.matchLabels);
      expect(named(defaults, 'HorizontalPodAutoscaler', name)?.spec.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name,
      });
      expect(named(defaults, 'PodDisruptionBudget', name)?.spec.selector.matchLabels).toEqual(
        deployment?.spec.selector.matchLabels,
      );
      expect(container(deployment as K8sObject).image).toBe(`registry.example.com/notify/${app}:0.1.0`);
    }
  });

  it('has an entry for every app under apps/, and by default deploys exactly those apps', () => {
    const apps = readdirSync(join(root, 'apps'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !NOT_DEPLOYMENTS.includes(d.name))
      .map((d) => d.name);
    for (const app of apps) expect(ALL_APPS).toContain(app);
    expect(ofKind(renderAsShipped(), 'Deployment').map(component).sort()).toEqual([...apps].sort());
    for (const example of ['deploy/values-small.yaml', 'deploy/values-large.yaml']) {
      expect(
        ofKind(renderAsShipped('-f', join(root, example)), 'Deployment')
          .map(component)
          .sort(),
      ).toEqual([...apps].sort());
    }
  });

  it('points the probes at the endpoints the health controller serves, on the configured port', () => {
    const { routes, isPublic } = healthController();
    expect(routes).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
    expect(isPublic).toBe(true);
    const port = Number(named(defaults, 'ConfigMap', 'notify-config')?.data?.PORT);
    expect(port).toBe(8080);
    for (const deployment of ofKind(defaults, 'Deployment')) {
      const c = container(deployment);
      expect(c.ports).toEqual([{ name: 'http', containerPort: port, protocol: 'TCP' }]);
      expect(c.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(c.startupProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(c.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
        expect(routes).toContain(probe.httpGet.path);
      }
    }
  });

  it('lets a terminating pod sleep in preStop and then drain for SHUTDOWN_GRACE_MS', () => {
    for (const [objects, graceMs] of [
      [defaults, 25_000],
      [render('--set', 'config.SHUTDOWN_GRACE_MS=90000'), 90_000],
      [render('--set', 'senders.sms.env.SHUTDOWN_GRACE_MS=61000'), 61_000],
    ] as const) {
      const sms = deploymentOf(objects, 'sender-sms') as K8sObject;
      const preStop = container(sms).lifecycle.preStop.sleep.seconds as number;
      expect(preStop).toBeGreaterThan(0);
      expect(sms.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(graceMs / 1000 + preStop);
    }
    expect(renderError('--set', 'defaults.terminationGracePeriodSeconds=20')).toMatch(
      /terminationGracePeriodSeconds=20 must exceed SHUTDOWN_GRACE_MS/,
    );
  });

  it('maps every variable of .env.example onto the ConfigMap or the Secret under the same name', () => {
    const values = parse(readFileSync(join(chart, 'values.yaml'), 'utf8')) as {
      config: Record<string, unknown>;
      secrets: Record<string, unknown>;
    };
    const variables = envExampleVariables();
    const inConfig = Object.keys(values.config);
    const inSecrets = Object.keys(values.secrets);
    const missing = variables.filter((v) => !inConfig.includes(v) && !inSecrets.includes(v));
    expect({ missingFromValuesYaml: missing }).toEqual({ missingFromValuesYaml: [] });
    expect(inConfig.filter((v) => inSecrets.includes(v))).toEqual([]);
    expect([...inConfig, ...inSecrets].filter((v) => !variables.includes(v))).toEqual([]);

    // Set every variable to a value of its own and find it in the rendered ConfigMap/Secret.
    const valid: Record<string, string> = {
      BUS_DRIVER: 'kafka',
      STORE_DRIVER: 'mongodb',
      CACHE_DRIVER: 'redis',
      PORT: '9099',
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      FCM_API_URL: 'https://fcm.sample.test',
      APNS_API_URL: 'https://apns.sample.test',
      WEB_PUSH_PEER_URL: 'https://web-push.sample.test',
      WEB_PUSH_SUBJECT: 'mailto:sample@example.com',
      WEB_PUSH_TTL_SECONDS: '3600',
      JWT_SECRET: 'sample-JWT_SECRET-of-at-least-32-characters',
      JWT_JWKS_URL: 'https://idp.sample.test/jwks.json',
      BOOTSTRAP_OWNER_EMAIL: 'owner@sample.test',
      INVITATION_TTL_HOURS: '48',
    };
    const sample = (v: string) => valid[v] ?? `sample-${v}`;
    const dir = mkdtempSync(join(tmpdir(), 'notify-chart-'));
    try {
      const file = join(dir, 'values.yaml');
      const pick = (names: string[]) => Object.fromEntries(names.map((v) => [v, sample(v)]));
      writeFileSync(file, stringify({ config: pick(inConfig), secrets: pick(inSecrets) }));
      const objects = render('-f', file);
      const configMap = named(objects, 'ConfigMap', 'notify-config')?.data ?? {};
      const secret = named(objects, 'Secret', 'notify-secrets')?.data ?? {};
      const rendered = {
        ...configMap,
        ...Object.fromEntries(
          Object.entries(secret).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
        ),
      };
      expect(rendered).toEqual(Object.fromEntries(variables.map((v) => [v, sample(v)])));
      for (const name of inSecrets) expect(configMap).not.toHaveProperty(name);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads secrets from an existing Secret when one is named', () => {
    const objects = render('--set', 'existingSecret=notify-backends');
    expect(ofKind(objects, 'Secret')).toEqual([]);
    const job = ofKind(objects, 'Job')[0] as K8sObject;
    for (const workload of [...ofKind(objects, 'Deployment'), job]) {
      expect(container(workload).envFrom).toContainEqual({ secretRef: { name: 'notify-backends' } });
    }
  });

  it('deploys the push senders by default, each with its image, consumer and the shared configuration', () => {
    const shipped = renderAsShipped();
    const sms = deploymentOf(shipped, 'sender-sms') as K8sObject;
    for (const app of ['sender-push', 'sender-web-push']) {
      const deployment = deploymentOf(shipped, app) as K8sObject;
      expect(deployment).toBeDefined();
      const name = deployment.metadata.name;
      expect(name).toBe(`notify-${app}`);
      const c = container(deployment);
      expect(c.name).toBe(app);
      expect(c.image).toBe(`registry.example.com/notify/${app}:0.1.0`);
      // The bus, store, cache and secrets reach it exactly as they reach the other senders.
      expect(c.envFrom).toEqual([
        { configMapRef: { name: 'notify-config' } },
        { secretRef: { name: 'notify-secrets' } },
      ]);
      expect(c.envFrom).toEqual(container(sms).envFrom);
      expect(deployment.spec.template.metadata.annotations).toEqual(sms.spec.template.metadata.annotations);
      expect(deployment.spec.template.spec.serviceAccountName).toBe(
        sms.spec.template.spec.serviceAccountName,
      );
      expect(named(shipped, 'HorizontalPodAutoscaler', name)?.spec).toMatchObject({
        minReplicas: 2,
        maxReplicas: 6,
      });
      expect(named(shipped, 'PodDisruptionBudget', name)).toBeDefined();
      expect(named(shipped, 'Service', name)).toBeDefined();
    }
    const config = named(shipped, 'ConfigMap', 'notify-config')?.data ?? {};
    expect(config).toMatchObject({
      BUS_DRIVER: 'kafka',
      STORE_DRIVER: 'mongodb',
      CACHE_DRIVER: 'redis',
      WEB_PUSH_SUBJECT: 'mailto:push@notify.localhost',
      WEB_PUSH_TTL_SECONDS: '86400',
    });
    // Unset by default: no default credentials, and the real FCM, APNs and web push services.
    for (const name of [
      'APNS_KEY_ID',
      'APNS_TEAM_ID',
      'APNS_TOPIC',
      'FCM_API_URL',
      'APNS_API_URL',
      'PUSH_PEER_CA',
      'WEB_PUSH_PEER_URL',
    ]) {
      expect(config).not.toHaveProperty(name);
    }
    expect(Object.keys(named(shipped, 'Secret', 'notify-secrets')?.data ?? {})).toEqual(
      expect.not.arrayContaining(['FCM_SERVICE_ACCOUNT', 'APNS_KEY']),
    );

    // Credentials go to the Secret, the rest to the ConfigMap; the PEM and the JSON arrive intact.
    const serviceAccount =
      '{"type":"service_account","project_id":"p","private_key":"-----BEGIN PRIVATE KEY-----\\nAA\\n-----END PRIVATE KEY-----\\n"}';
    const apnsKey = '-----BEGIN PRIVATE KEY-----\nMIGTAgEA\n-----END PRIVATE KEY-----';
    const dir = mkdtempSync(join(tmpdir(), 'notify-chart-'));
    try {
      const file = join(dir, 'push.yaml');
      writeFileSync(
        file,
        stringify({
          config: { APNS_KEY_ID: 'ABC123DEFG', APNS_TEAM_ID: 'TEAM123456', APNS_TOPIC: 'com.example.app' },
          secrets: { FCM_SERVICE_ACCOUNT: serviceAccount, APNS_KEY: apnsKey },
        }),
      );
      const objects = renderAsShipped('-f', file);
      const secret = named(objects, 'Secret', 'notify-secrets')?.data ?? {};
      const decode = (v: string | undefined) => Buffer.from(v ?? '', 'base64').toString();
      expect(decode(secret.FCM_SERVICE_ACCOUNT)).toBe(serviceAccount);
      expect(decode(secret.APNS_KEY)).toBe(apnsKey);
      expect(named(objects, 'ConfigMap', 'notify-config')?.data).toMatchObject({
        APNS_KEY_ID: 'ABC123DEFG',
        APNS_TEAM_ID: 'TEAM123456',
        APNS_TOPIC: 'com.example.app',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(renderError('--set', 'config.WEB_PUSH_SUBJECT=push@example.com')).toMatch(/WEB_PUSH_SUBJECT/);
    expect(renderError('--set', 'config.WEB_PUSH_TTL_SECONDS=a day')).toMatch(/WEB_PUSH_TTL_SECONDS/);
  });

  describe('a change to one sender changes only that sender`s objects', () => {
    it.each([
      ['replicas', [], ['--set', 'senders.sms.replicas=5']],
      [
        'autoscaler bounds',
        [],
        ['--set', 'senders.sms.autoscaling.minReplicas=3,senders.sms.autoscaling.maxReplicas=9'],
      ],
      ['fixed replicas', [], ['--set', 'senders.sms.autoscaling.enabled=false,senders.sms.replicas=5']],
      ['resources', [], ['--set', 'senders.sms.resources.requests.cpu=300m']],
      [
        'KEDA bounds (large values)',
        ['-f', 'deploy/values-large.yaml'],
        ['--set', 'senders.sms.autoscaling.maxReplicas=20'],
      ],
      [
        'KEDA lag threshold (large values)',
        ['-f', 'deploy/values-large.yaml'],
        ['--set', 'senders.sms.keda.lagThreshold=7'],
      ],
    ])('%s', (_, base, change) => {
      const before = render(...base);
      const after = render(...base, ...change);
      const changed = changedObjects(before, after);
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(
        changed.filter((o) => component(o) === 'sender-sms').map((o) => `${o.kind}/${o.metadata.name}`),
      );
    });

    it.each([
      ['push', 'sender-push'],
      ['webPush', 'sender-web-push'],
    ])('senders.%s.replicas=5 changes only %s, as shipped', (key, app) => {
      const before = renderAsShipped();
      const after = renderAsShipped('--set', `senders.${key}.replicas=5`);
      const changed = changedObjects(before, after).map((o) => `${o.kind}/${o.metadata.name}`);
      expect(changed.sort()).toEqual([`HorizontalPodAutoscaler/notify-${app}`]);
      expect(named(after, 'HorizontalPodAutoscaler', `notify-${app}`)?.spec).toMatchObject({
        minReplicas: 5,
        maxReplicas: 6,
      });
      const fixed = renderAsShipped(
        '--set',
        `senders.${key}.autoscaling.enabled=false,senders.${key}.replicas=5`,
      );
      const changedFixed = changedObjects(before, fixed);
      expect(changedFixed.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(
        [`Deployment/notify-${app}`, `HorizontalPodAutoscaler/notify-${app}`].sort(),
      );
      expect(deploymentOf(fixed, app)?.spec.replicas).toBe(5);
    });

    it('applies the count it was given', () => {
      const hpa = named(
        render('--set', 'senders.sms.replicas=5'),
        'HorizontalPodAutoscaler',
        'notify-sender-sms',
      );
      expect(hpa?.spec).toMatchObject({ minReplicas: 5, maxReplicas: 6 });
      const fixed = render('--set', 'senders.sms.autoscaling.enabled=false,senders.sms.replicas=5');
      expect(deploymentOf(fixed, 'sender-sms')?.spec.replicas).toBe(5);
      expect(named(fixed, 'HorizontalPodAutoscaler', 'notify-sender-sms')).toBeUndefined();
    });
  });

  it('scales consumers on the lag of their own topic and group when KEDA is on', () => {
    const prefix = 'prod.notify.';
    for (const app of Object.values(SENDERS)) {
      const deployment = deploymentOf(large, app) as K8sObject;
      const scaled = named(large, 'ScaledObject', deployment.metadata.name);
      expect(named(large, 'HorizontalPodAutoscaler', deployment.metadata.name)).toBeUndefined();
      expect(scaled?.spec.scaleTargetRef).toEqual({ name: deployment.metadata.name });
      const [topic, group] = CONSUMERS[app] ?? ['', ''];
      const kafka = scaled?.spec.triggers.find((t: { type: string }) => t.type === 'kafka');
      expect(kafka.metadata).toMatchObject({
        topic: prefix + topic,
        consumerGroup: prefix + group,
        sasl: 'scram_sha512',
      });
      expect(kafka.authenticationRef).toEqual({ name: 'notify-kafka' });
    }
    for (const app of ['router', 'recorder']) {
      const [topic] = CONSUMERS[app] ?? [''];
      const scaled = named(large, 'ScaledObject', `notify-${app}`);
      expect(scaled?.spec.triggers[0].metadata.topic).toBe(prefix + topic);
    }
    expect(named(large, 'TriggerAuthentication', 'notify-kafka')).toBeDefined();
  });

  it('exposes the gateway, with the WebSocket path on an Ingress of its own, and the inbound service on /inbound and /t', () => {
    const ingresses = ofKind(render('-f', join(root, 'deploy/values-small.yaml')), 'Ingress');
    const routes = ingresses.flatMap((ing) =>
      ing.spec.rules.flatMap(
        (rule: { http: { paths: { path: string; backend: { service: { name: string } } }[] } }) =>
          rule.http.paths.map((p) => `${p.path} -> ${p.backend.service.name}`),
      ),
    );
    expect(routes.sort()).toEqual([
      '/ -> notify-gateway',
      '/inbound -> notify-inbound',
      '/t -> notify-inbound',
      '/ws -> notify-gateway',
    ]);
    expect(
      ingresses.find((i) => i.metadata.name === 'notify-gateway-ws')?.metadata.annotations,
    ).toMatchObject({
      'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
    });
  });

  it('opens the inbound service’s SMTP port for bounce and complaint reports when INBOUND_SMTP_PORT is set', () => {
    const withSmtp = render('--set', 'config.INBOUND_SMTP_PORT=2525');
    const service = named(withSmtp, 'Service', 'notify-inbound');
    expect(service?.spec.ports).toContainEqual({
      name: 'smtp',
      port: 25,
      targetPort: 'smtp',
      protocol: 'TCP',
    });
    expect(container(named(withSmtp, 'Deployment', 'notify-inbound') as K8sObject).ports).toContainEqual({
      name: 'smtp',
      containerPort: 2525,
      protocol: 'TCP',
    });
    expect(named(withSmtp, 'Service', 'notify-gateway')?.spec.ports).toHaveLength(1);
    expect(named(defaults, 'Service', 'notify-inbound')?.spec.ports).toHaveLength(1);
  });

  it('runs the migrate app as a hook before install and upgrade, with the same configuration', () => {
    const job = ofKind(defaults, 'Job')[0] as K8sObject;
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(container(job).image).toBe('registry.example.com/notify/migrate:0.1.0');
    const hookConfig = named(defaults, 'ConfigMap', 'notify-migrate');
    expect(hookConfig?.metadata.annotations?.['helm.sh/hook-weight']).toBe('-10');
    expect(hookConfig?.data).toEqual(named(defaults, 'ConfigMap', 'notify-config')?.data);
    expect(named(defaults, 'Secret', 'notify-migrate')?.data).toEqual(
      named(defaults, 'Secret', 'notify-secrets')?.data,
    );
  });

  it('hands the migrate Job BOOTSTRAP_API_KEY, with which it provisions the first tenant', () => {
    const key = `notify_sk_${'A'.repeat(32)}`;
    const objects = render('--set', `secrets.BOOTSTRAP_API_KEY=${key}`);
    const job = named(objects, 'Job', 'notify-migrate') as K8sObject;
    expect(container(job).envFrom).toContainEqual({ secretRef: { name: 'notify-migrate' } });
    expect(named(objects, 'Secret', 'notify-migrate')?.data?.BOOTSTRAP_API_KEY).toBe(
      Buffer.from(key).toString('base64'),
    );
  });

  it("gives every service members' JWT settings: the HS256 secret in the Secret, the JWKS URL, issuer and audience in the ConfigMap", () => {
    const secret = 'a-jwt-secret-of-at-least-32-characters!';
    const objects = render(
      '--set',
      `secrets.JWT_SECRET=${secret},config.JWT_JWKS_URL=https://idp.example.com/.well-known/jwks.json`,
      '--set',
      'config.JWT_ISSUER=https://idp.example.com/,config.JWT_AUDIENCE=notify,config.BOOTSTRAP_OWNER_EMAIL=ops@example.com',
    );
    expect(named(objects, 'ConfigMap', 'notify-config')?.data).toMatchObject({
      JWT_JWKS_URL: 'https://idp.example.com/.well-known/jwks.json',
      JWT_ISSUER: 'https://idp.example.com/',
      JWT_AUDIENCE: 'notify',
      BOOTSTRAP_OWNER_EMAIL: 'ops@example.com',
      INVITATION_TTL_HOURS: '168',
    });
    expect(named(objects, 'ConfigMap', 'notify-config')?.data).not.toHaveProperty('JWT_SECRET');
    for (const name of ['notify-secrets', 'notify-migrate'])
      expect(named(objects, 'Secret', name)?.data?.JWT_SECRET).toBe(Buffer.from(secret).toString('base64'));
    // Unset by default: only API keys work until the operator configures sign-in.
    const config = named(defaults, 'ConfigMap', 'notify-config')?.data ?? {};
    expect([config.JWT_JWKS_URL, named(defaults, 'Secret', 'notify-secrets')?.data?.JWT_SECRET]).toEqual([
      undefined,
      undefined,
    ]);
    expect(renderError('--set', 'secrets.JWT_SECRET=too-short')).toMatch(/JWT_SECRET/);
    expect(renderError('--set', 'config.JWT_JWKS_URL=idp.example.com/jwks')).toMatch(/JWT_JWKS_URL/);
  });

  it('replays the dead-letter topics it is given with a Job after the upgrade, and renders none by default', () => {
    expect(ofKind(defaults, 'Job').map((j) => j.metadata.name)).toEqual(['notify-migrate']);
    const objects = render('--set', 'deadLetterReplay.topics={send.requests,delivery.email}');
    const job = named(objects, 'Job', 'notify-replay-dead-letters') as K8sObject;
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe('post-install,post-upgrade');
    expect(container(job).image).toBe('registry.example.com/notify/replay-dead-letters:0.1.0');
    expect(container(job).args).toEqual(['send.requests', 'delivery.email']);
    expect(container(job).envFrom).toEqual([
      { configMapRef: { name: 'notify-config' } },
      { secretRef: { name: 'notify-secrets' } },
    ]);
    expect(renderError('--set', 'deadLetterReplay.topics={delivery.fax}')).toMatch(/deadLetterReplay/);
  });

  it('trusts one proxy hop (the ingress controller) when the chart renders the Ingress, none otherwise', () => {
    expect(named(defaults, 'ConfigMap', 'notify-config')?.data?.TRUST_PROXY).toBe('false');
    const small = render('-f', join(root, 'deploy/values-small.yaml'));
    expect(named(small, 'ConfigMap', 'notify-config')?.data?.TRUST_PROXY).toBe('1');
    const own = render(
      '-f',
      join(root, 'deploy/values-small.yaml'),
      '--set',
      'config.TRUST_PROXY=10.0.0.0/8',
    );
    expect(named(own, 'ConfigMap', 'notify-config')?.data?.TRUST_PROXY).toBe('10.0.0.0/8');
  });

  it('serves the console unless console.enabled is false', () => {
    expect(named(defaults, 'ConfigMap', 'notify-config')?.data?.CONSOLE_ENABLED).toBe('true');
    const off = render('--set', 'console.enabled=false');
    expect(named(off, 'ConfigMap', 'notify-config')?.data?.CONSOLE_ENABLED).toBe('false');
  });

  it('refuses settings that cannot work in a cluster', () => {
    expect(renderError('--set', 'config.BUS_DRIVER=embedded')).toMatch(/BUS_DRIVER/);
    expect(renderError('--set', 'config.KAFKA_BROKERS=')).toMatch(/KAFKA_BROKERS is required/);
    expect(renderError('--set', 'secrets.MONGODB_URI=')).toMatch(/MONGODB_URI is required/);
    expect(renderError('--set', 'config.LOG_LEVEL=debug,secrets.LOG_LEVEL=debug')).toMatch(
      /both config and secrets/,
    );
    expect(renderError('--set', 'senders.sms.replica=5')).toMatch(/replica/);
  });
});
