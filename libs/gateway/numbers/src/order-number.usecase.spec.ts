import { PhoneNumberRepository } from '@notify/store';
import { testLogger } from '@notify/testing';
import { OrderNumberUseCase } from './order-number.usecase';
import { ReleaseNumberUseCase } from './release-number.usecase';
import { ACCOUNT, live, numbersHarness, type NumbersHarness, OTHER_ACCOUNT } from './testing/numbers.harness';

const NUMBER = '+14155550142';

describe('OrderNumberUseCase', () => {
  let world: NumbersHarness;
  let order: OrderNumberUseCase;
  const held = async () => (await world.provider.find(NUMBER))?.owner;

  beforeEach(async () => {
    world = await numbersHarness();
    order = new OrderNumberUseCase(world.provider, world.numbers, world.config, testLogger(), world.clock);
  });

  afterEach(() => world.close());

  it('buys the number on the deployment’s account, tagged with the account, and records it active', async () => {
    const placed = await order.execute(live(ACCOUNT), NUMBER);
    expect(placed).toEqual({ orderId: expect.stringMatching(/^PN/), status: 'active', phoneNumber: NUMBER });
    expect(await held()).toBe(ACCOUNT);
    expect(await world.numbers.get(ACCOUNT, NUMBER)).toEqual({
      accountId: ACCOUNT,
      phoneNumber: NUMBER,
      countryCode: 'US',
      numberType: 'local',
      status: 'active',
      providerSid: placed.orderId,
      createdAt: '2026-01-05T09:00:00.000Z',
    });
    // Ordered again while held: the same order, nothing bought twice.
    expect(await order.execute(live(ACCOUNT), NUMBER)).toEqual(placed);
  });

  it('reactivates a number the account released with its first createdAt', async () => {
    await order.execute(live(ACCOUNT), NUMBER);
    const first = await world.numbers.get(ACCOUNT, NUMBER);
    await world.provider.release(first?.providerSid ?? '');
    await world.numbers.release(ACCOUNT, NUMBER, '2026-02-01T00:00:00.000Z');
    world.clock.set('2026-03-01T00:00:00.000Z');
    const again = await order.execute(live(ACCOUNT), NUMBER);
    expect(again.orderId).not.toBe(first?.providerSid);
    expect(await world.numbers.get(ACCOUNT, NUMBER)).toMatchObject({
      status: 'active',
      createdAt: '2026-01-05T09:00:00.000Z',
    });
    expect((await world.numbers.get(ACCOUNT, NUMBER))?.releasedAt).toBeUndefined();
  });

  it('refuses with 409 a number another account holds, or one not on sale, writing nothing', async () => {
    await order.execute(live(OTHER_ACCOUNT), NUMBER);
    await expect(order.execute(live(ACCOUNT), NUMBER)).rejects.toMatchObject({
      kind: 'conflict',
      code: 'PHONE_NUMBER_UNAVAILABLE',
    });
    await expect(order.execute(live(ACCOUNT), '+14155552671')).rejects.toMatchObject({
      code: 'PHONE_NUMBER_UNAVAILABLE',
    });
    expect(await world.numbers.list(ACCOUNT, 'active')).toEqual([]);
    expect(await held()).toBe(OTHER_ACCOUNT);
  });

  it('refuses what is not a phone number with 400 INVALID_PHONE_NUMBER', async () => {
    await expect(order.execute(live(ACCOUNT), '+1415555')).rejects.toMatchObject({
      kind: 'invalid',
      code: 'INVALID_PHONE_NUMBER',
    });
  });

  it('writes nothing when Twilio fails', async () => {
    await world.peer.stop();
    await expect(order.execute(live(ACCOUNT), NUMBER)).rejects.toMatchObject({
      kind: 'provider',
      provider: 'twilio',
    });
    expect(await world.numbers.get(ACCOUNT, NUMBER)).toBeUndefined();
  });

  it('gives the number back when its record cannot be written', async () => {
    class FailingNumbers extends PhoneNumberRepository {
      override activate(): never {
        throw new Error('store down');
      }
    }
    const failing = new OrderNumberUseCase(
      world.provider,
      new FailingNumbers(world.store),
      world.config,
      testLogger(),
      world.clock,
    );
    await expect(failing.execute(live(ACCOUNT), NUMBER)).rejects.toThrow('store down');
    expect(await held()).toBeUndefined();
    expect(await world.numbers.get(ACCOUNT, NUMBER)).toBeUndefined();
  });

  it('completes an order interrupted after the purchase: the number tagged for the account is taken up', async () => {
    const bought = await world.provider.buy(NUMBER, ACCOUNT);
    expect(await order.execute(live(ACCOUNT), NUMBER)).toEqual({
      orderId: typeof bought === 'string' ? '' : bought.sid,
      status: 'active',
      phoneNumber: NUMBER,
    });
  });

  it('keeps the number when the record’s write committed but answered an error', async () => {
    class CommitsThenFails extends PhoneNumberRepository {
      override async activate(...args: Parameters<PhoneNumberRepository['activate']>): Promise<never> {
        await super.activate(...args);
        throw new Error('connection lost');
      }
    }
    const failing = new OrderNumberUseCase(
      world.provider,
      new CommitsThenFails(world.store),
      world.config,
      testLogger(),
      world.clock,
    );
    await expect(failing.execute(live(ACCOUNT), NUMBER)).rejects.toThrow('connection lost');
    expect(await held()).toBe(ACCOUNT);
    const recorded = await world.numbers.get(ACCOUNT, NUMBER);
    expect(recorded?.status).toBe('active');
    expect(recorded?.providerSid).toBe((await world.provider.find(NUMBER))?.sid);
    // The retry answers the recorded order.
    expect((await order.execute(live(ACCOUNT), NUMBER)).orderId).toBe(recorded?.providerSid);
  });

  it('answers 409 PHONE_NUMBER_RELEASED, not active, when a release completes while the order is answered', async () => {
    await order.execute(live(ACCOUNT), NUMBER);
    const release = new ReleaseNumberUseCase(world.provider, world.numbers, world.clock);
    let raced = false;
    class ReleasedMeanwhile extends PhoneNumberRepository {
      override async get(accountId: string, phoneNumber: string) {
        const read = await super.get(accountId, phoneNumber);
        if (!raced) {
          raced = true;
          await release.execute(live(ACCOUNT), NUMBER);
        }
        return read;
      }
    }
    const racing = new OrderNumberUseCase(
      world.provider,
      new ReleasedMeanwhile(world.store),
      world.config,
      testLogger(),
      world.clock,
    );
    await expect(racing.execute(live(ACCOUNT), NUMBER)).rejects.toMatchObject({
      kind: 'conflict',
      code: 'PHONE_NUMBER_RELEASED',
    });
    expect((await world.numbers.get(ACCOUNT, NUMBER))?.status).toBe('released');
  });

  it('refuses a test environment with 403 TEST_ENVIRONMENT, buying nothing', async () => {
    await expect(order.execute({ accountId: ACCOUNT, test: true }, NUMBER)).rejects.toMatchObject({
      kind: 'forbidden',
      code: 'TEST_ENVIRONMENT',
    });
    expect(await held()).toBeUndefined();
    expect(await world.numbers.get(ACCOUNT, NUMBER)).toBeUndefined();
  });

  it('refuses with 409 PHONE_NUMBER_LIMIT a number beyond MAX_PHONE_NUMBERS_PER_ACCOUNT active ones, buying nothing', async () => {
    await world.close();
    world = await numbersHarness({ MAX_PHONE_NUMBERS_PER_ACCOUNT: '2' });
    order = new OrderNumberUseCase(world.provider, world.numbers, world.config, testLogger(), world.clock);
    const first = await order.execute(live(ACCOUNT), '+14155550100');
    await order.execute(live(ACCOUNT), '+14155550101');
    await expect(order.execute(live(ACCOUNT), NUMBER)).rejects.toMatchObject({
      kind: 'conflict',
      code: 'PHONE_NUMBER_LIMIT',
    });
    expect(await held()).toBeUndefined();
    // A number held already is answered again; another account has its own count.
    expect(await order.execute(live(ACCOUNT), '+14155550100')).toEqual(first);
    await order.execute(live(OTHER_ACCOUNT), NUMBER);
    // A released number frees its place.
    await new ReleaseNumberUseCase(world.provider, world.numbers, world.clock).execute(
      live(ACCOUNT),
      '+14155550100',
    );
    expect((await order.execute(live(ACCOUNT), '+14155550102')).status).toBe('active');
  });
});
