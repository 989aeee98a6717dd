import { AddressChangeLocksStore, EmbeddedCoordinationStore } from '@notify/cache';
import { loadAppConfig } from '@notify/platform';
import { ConflictError, InvalidRequestError, NotFoundError } from '@notify/util';
import { EmbeddedDocumentStore, InboundAddressRepository, SendingDomainRepository } from '@notify/store';
import { tempDir, testLogger } from '@notify/testing';
import { join } from 'node:path';
import { createAddressSchema, InboundAddresses } from './inbound-addresses';

describe('InboundAddresses', () => {
  const scope = { accountId: 'a', envId: 'e' };
  let store: EmbeddedDocumentStore;
  let coordination: EmbeddedCoordinationStore;
  let remove: () => Promise<void>;
  const service = (env: Record<string, string>) =>
    new InboundAddresses(
      new InboundAddressRepository(store),
      new AddressChangeLocksStore(coordination),
      loadAppConfig(env),
      new SendingDomainRepository(store),
    );
  const body = (input: unknown) => createAddressSchema.parse(input);

  beforeEach(async () => {
    const dir = await tempDir('notify-addresses-');
    remove = dir.remove;
    store = new EmbeddedDocumentStore(join(dir.path, 'store'));
    coordination = new EmbeddedCoordinationStore({
      path: join(dir.path, 'coordination'),
      logger: testLogger(),
    });
  });

  afterEach(async () => {
    await coordination.close();
    await store.close();
    await remove();
  });

  it('makes one built-in address per environment on the mail domain, which cannot be deleted', async () => {
    const addresses = service({ INBOUND_MAIL_DOMAIN: 'In.Example.com' });
    const builtin = await addresses.create(scope, body({ prefix: 'Help' }));
    expect(builtin).toMatchObject({
      fullAddress: 'help@in.example.com',
      type: 'builtin',
      domain: 'in.example.com',
    });
    // Naming the mail domain itself is the same as leaving it out.
    await expect(
      addresses.create(scope, body({ prefix: 'x', domain: 'in.example.com' })),
    ).rejects.toMatchObject({
      code: 'BUILTIN_ADDRESS_EXISTS',
    });
    await expect(addresses.remove(scope, 'help@in.example.com')).rejects.toMatchObject({
      code: 'BUILTIN_ADDRESS',
    });
    await expect(
      addresses.remove({ ...scope, envId: 'other' }, 'help@in.example.com'),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await addresses.list(scope)).toEqual([builtin]);
  });

  it('makes exactly one built-in address when requests race', async () => {
    const addresses = service({ INBOUND_MAIL_DOMAIN: 'in.example.com' });
    const results = await Promise.allSettled(
      ['one', 'two', 'three', 'four'].map((prefix) => addresses.create(scope, body({ prefix }))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => r.reason)).toEqual(
      Array.from({ length: 3 }, () => expect.any(ConflictError)),
    );
    expect(await addresses.list(scope)).toHaveLength(1);
  });

  it('refuses a built-in address when the service receives no mail', async () => {
    const refused = service({}).create(scope, body({ prefix: 'help' }));
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(refused).rejects.toMatchObject({ code: 'INBOUND_EMAIL_NOT_CONFIGURED' });
  });

  it('makes custom addresses on verified domains only, and removes them', async () => {
    const addresses = service({
      INBOUND_MAIL_DOMAIN: 'in.example.com',
      EMAIL_VERIFIED_DOMAINS: 'corp.example',
    });
    await expect(
      addresses.create(scope, body({ prefix: 'sales', domain: 'evil.example' })),
    ).rejects.toMatchObject({
      code: 'DOMAIN_NOT_VERIFIED',
    });
    const custom = await addresses.create(
      scope,
      body({ prefix: 'sales', domain: 'corp.example', displayName: 'Sales' }),
    );
    expect(custom).toMatchObject({ fullAddress: 'sales@corp.example', type: 'custom', displayName: 'Sales' });
    await expect(
      addresses.create({ ...scope, envId: 'other' }, body({ prefix: 'sales', domain: 'corp.example' })),
    ).rejects.toBeInstanceOf(ConflictError);
    const renamed = await addresses.update(scope, { fullAddress: 'sales@corp.example', prefix: 'deals' });
    expect(renamed).toMatchObject({ fullAddress: 'deals@corp.example', displayName: 'Sales' });
    expect(await addresses.remove(scope, 'deals@corp.example')).toEqual(renamed);
    expect(await addresses.list(scope)).toEqual([]);
  });

  it('refuses display names that would break a header', () => {
    expect(
      createAddressSchema.safeParse({ prefix: 'a', displayName: 'x\r\nBcc: spy@evil.test' }).success,
    ).toBe(false);
    expect(createAddressSchema.safeParse({ prefix: 'a', displayName: 'x'.repeat(101) }).success).toBe(false);
  });

  it('makes custom addresses on a verified sending domain of the environment, and on no other', async () => {
    const addresses = service({ INBOUND_MAIL_DOMAIN: 'in.example.com' });
    const domains = new SendingDomainRepository(store);
    const at = '2026-01-01T00:00:00.000Z';
    const domain = {
      selector: 's',
      publicKey: 'k',
      privateKeySealed: 'x',
      pendingSince: at,
      lastSync: at,
      createdAt: at,
    };
    await domains.create(scope, { ...domain, domain: 'acme.test', status: 'SUCCESS' }, 20);
    await domains.create(scope, { ...domain, domain: 'pending.test', status: 'PENDING' }, 20);
    expect(await addresses.create(scope, body({ prefix: 'help', domain: 'acme.test' }))).toMatchObject({
      fullAddress: 'help@acme.test',
      type: 'custom',
    });
    await expect(
      addresses.create(scope, body({ prefix: 'help', domain: 'pending.test' })),
    ).rejects.toMatchObject({
      code: 'DOMAIN_NOT_VERIFIED',
    });
    await expect(
      addresses.create({ ...scope, envId: 'other' }, body({ prefix: 'x', domain: 'acme.test' })),
    ).rejects.toMatchObject({ code: 'DOMAIN_NOT_VERIFIED' });
  });
});
