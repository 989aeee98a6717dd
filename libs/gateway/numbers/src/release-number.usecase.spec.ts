import { testLogger } from '@notify/testing';
import { OrderNumberUseCase } from './order-number.usecase';
import { ReleaseNumberUseCase } from './release-number.usecase';
import { ACCOUNT, live, numbersHarness, type NumbersHarness, OTHER_ACCOUNT } from './testing/numbers.harness';

const NUMBER = '+12125550142';

describe('ReleaseNumberUseCase', () => {
  let world: NumbersHarness;
  let release: ReleaseNumberUseCase;

  beforeEach(async () => {
    world = await numbersHarness();
    release = new ReleaseNumberUseCase(world.provider, world.numbers, world.clock);
    await new OrderNumberUseCase(
      world.provider,
      world.numbers,
      world.config,
      testLogger(),
      world.clock,
    ).execute(live(ACCOUNT), NUMBER);
    world.clock.advance(60_000);
  });

  afterEach(() => world.close());

  it('gives the number back to the provider and keeps it as released', async () => {
    expect(await release.execute(live(ACCOUNT), NUMBER)).toEqual({
      phoneNumber: NUMBER,
      released: true,
      releasedAt: '2026-01-05T09:01:00.000Z',
    });
    expect(await world.provider.find(NUMBER)).toBeUndefined();
    expect(await world.numbers.get(ACCOUNT, NUMBER)).toMatchObject({
      status: 'released',
      createdAt: '2026-01-05T09:00:00.000Z',
      releasedAt: '2026-01-05T09:01:00.000Z',
    });
  });

  it('answers 404 for another account’s number, an unknown one, or one released already', async () => {
    for (const [account, number] of [
      [OTHER_ACCOUNT, NUMBER],
      [ACCOUNT, '+12125550143'],
    ] as const)
      await expect(release.execute(live(account), number)).rejects.toMatchObject({
        kind: 'not_found',
        code: 'PHONE_NUMBER_NOT_FOUND',
      });
    expect((await world.provider.find(NUMBER))?.owner).toBe(ACCOUNT);
    await release.execute(live(ACCOUNT), NUMBER);
    await expect(release.execute(live(ACCOUNT), NUMBER)).rejects.toMatchObject({
      code: 'PHONE_NUMBER_NOT_FOUND',
    });
  });

  it('keeps the number active when Twilio fails, and completes a release whose record was not written', async () => {
    await world.peer.stop();
    await expect(release.execute(live(ACCOUNT), NUMBER)).rejects.toMatchObject({ kind: 'provider' });
    expect((await world.numbers.get(ACCOUNT, NUMBER))?.status).toBe('active');
    await world.close();

    // The provider gave the number back, the record still says active: a retry completes it.
    world = await numbersHarness();
    release = new ReleaseNumberUseCase(world.provider, world.numbers, world.clock);
    await world.numbers.activate(
      { accountId: ACCOUNT, phoneNumber: NUMBER, countryCode: 'US', providerSid: `PN${'0'.repeat(32)}` },
      '2026-01-01T00:00:00.000Z',
    );
    expect((await release.execute(live(ACCOUNT), NUMBER)).released).toBe(true);
  });

  it('refuses a test environment with 403 TEST_ENVIRONMENT, the number kept', async () => {
    await expect(release.execute({ accountId: ACCOUNT, test: true }, NUMBER)).rejects.toMatchObject({
      kind: 'forbidden',
      code: 'TEST_ENVIRONMENT',
    });
    expect((await world.provider.find(NUMBER))?.owner).toBe(ACCOUNT);
    expect((await world.numbers.get(ACCOUNT, NUMBER))?.status).toBe('active');
  });
});
