import type { Role } from '@notify/domain';
import { provisionerFor } from '@notify/gateway-feature';
import { loadAppConfig } from '@notify/platform';
import {
  AccountRepository,
  EmbeddedDocumentStore,
  MembershipRepository,
  PeopleRepository,
} from '@notify/store';
import { startService, tempDir, TEST_JWT_SECRET } from '@notify/testing';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Pingram } from 'pingram';

/** An account written into a data directory before the service starts, standing for a tenant. */
export interface SeededTenant {
  readonly accountId: string;
  /** The account's name; its id unless given. */
  readonly name?: string;
  /** False for an account that exists already (the provisioned `default` one): it only gains members. */
  readonly create?: boolean;
  /** Its environments (secure mode, nothing disabled, secret `<envId>-secret`); `test` for a test one. */
  readonly environments?: readonly {
    readonly envId: string;
    readonly title?: string;
    readonly test?: boolean;
  }[];
  /** People and their roles in it; a person is created on first mention. */
  readonly members?: readonly { readonly email: string; readonly role: Role }[];
}

export interface AllInOneOptions {
  /** Written into the data directory before the first start (see seedTenants). */
  readonly tenants?: readonly SeededTenant[];
  /** When the seeded records were made (default a fixed instant in 2026). */
  readonly now?: string;
  /** Provision the installation before the first start (the `default` account and environment) with this API key. */
  readonly provisionWithKey?: string;
  /** Added to, or overriding, the service's environment. */
  readonly env?: Record<string, string>;
}

/**
 * Writes tenants into the document store of `dataDir` through the real repositories, while no
 * service holds the store. Memberships are made one second apart in the order given, so a
 * person's first account is the first one listed for them. Answers each person's userId by email.
 */
async function seedTenants(
  dataDir: string,
  tenants: readonly SeededTenant[],
  { now = '2026-01-01T00:00:00.000Z', provisionWithKey }: AllInOneOptions,
): Promise<ReadonlyMap<string, string>> {
  const store = new EmbeddedDocumentStore(join(dataDir, 'documents'));
  try {
    if (provisionWithKey !== undefined)
      await provisionerFor(store, loadAppConfig({})).execute({ apiKey: provisionWithKey });
    const accounts = new AccountRepository(store);
    const people = new PeopleRepository(store);
    const memberships = new MembershipRepository(store);
    const userIds = new Map<string, string>();
    let joined = 0;
    for (const tenant of tenants) {
      const { accountId } = tenant;
      if (tenant.create !== false)
        await accounts.createAccount({ accountId, name: tenant.name ?? accountId, createdAt: now });
      for (const { envId, title = envId, test = false } of tenant.environments ?? [])
        await accounts.createEnvironment(
          {
            accountId,
            envId,
            title,
            secret: `${envId}-secret`,
            secureMode: true,
            disabledChannels: [],
            test,
            createdAt: now,
          },
          10,
        );
      for (const { email, role } of tenant.members ?? []) {
        const { person } = await people.findOrCreate(email, now);
        userIds.set(email, person.userId);
        const at = new Date(Date.parse(now) + 1_000 * joined++).toISOString();
        await memberships.add({ accountId, userId: person.userId, role, createdAt: at, updatedAt: at });
      }
    }
    return userIds;
  } finally {
    await store.close();
  }
}

/** The all-in-one service as `npm start` runs it, on a temporary data directory of its own. */
export interface AllInOne {
  readonly baseUrl: string;
  readonly dataDir: string;
  /** The userId of each person seeded, by email. */
  readonly userIds: ReadonlyMap<string, string>;
  /**
   * Stops the service (SIGTERM) and starts it again on the same data directory and port, with
   * `env` changed from then on (an operator's change between the two).
   */
  restart(env?: Record<string, string>): Promise<void>;
  /** Stops the service and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * Starts the all-in-one service on a fresh data directory (named from `prefix`), seeded with
 * `options.tenants` first, accepting members' JWTs signed with TEST_JWT_SECRET.
 */
export async function startAllInOne(prefix: string, options: AllInOneOptions = {}): Promise<AllInOne> {
  const data = await tempDir(prefix);
  try {
    const seeding = options.tenants !== undefined || options.provisionWithKey !== undefined;
    const userIds = seeding ? await seedTenants(data.path, options.tenants ?? [], options) : new Map();
    let env = { DATA_DIR: data.path, LOG_LEVEL: 'warn', JWT_SECRET: TEST_JWT_SECRET, ...options.env };
    let service = await startService('all-in-one', env);
    return {
      baseUrl: service.baseUrl,
      dataDir: data.path,
      userIds,
      restart: async (changed = {}) => {
        await service.stop();
        env = { ...env, ...changed };
        service = await startService('all-in-one', { ...env, PORT: new URL(service.baseUrl).port });
      },
      stop: async () => {
        await service.stop();
        await data.remove();
      },
    };
  } catch (error) {
    await data.remove();
    throw error;
  }
}

/** The API key the first start wrote for the default account's first environment. */
export const bootstrapKey = async ({ dataDir }: AllInOne): Promise<string> =>
  (await readFile(join(dataDir, 'api-key.txt'), 'utf8')).trim();

/**
 * A request to the service at `baseUrl` with a JSON content type, as `as` (an API key or a
 * member's JWT, sent as a bearer token; null sends no credentials).
 */
export const callAs = (baseUrl: string, path: string, as: string | null, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(as === null ? {} : { authorization: `Bearer ${as}` }),
      ...(init.headers as object),
    },
  });

/**
 * The pingram client with `apiKey` (an API key or a member's JWT); with `envId`, every request
 * names that environment in `?envId=` (pingram's operations take none).
 */
export const pingramIn = (baseUrl: string, apiKey: string, envId?: string): Pingram =>
  new Pingram({
    apiKey,
    baseUrl,
    fetchApi: (input, init) => {
      if (envId === undefined) return fetch(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.searchParams.set('envId', envId);
      return fetch(url, init);
    },
  });

/** The HTTP response of a pingram call that must fail (its ResponseError carries it). */
export async function failedResponse(calling: Promise<unknown>): Promise<Response> {
  const error = await calling.then(
    () => undefined,
    (e: unknown) => e,
  );
  // pingram's ResponseError is not exported from the package root.
  expect(error).toMatchObject({ name: 'ResponseError', response: expect.any(Response) });
  return (error as { response: Response }).response;
}

/** The status and error code of an error answer, which carries a tracking id. */
export async function statusAndCode(response: Response): Promise<{ status: number; code: string }> {
  const body = (await response.json()) as { trackingId: string; error: { code: string } };
  expect(body.trackingId).toEqual(expect.any(String));
  return { status: response.status, code: body.error.code };
}
