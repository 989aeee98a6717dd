import { twilioAccountSetting } from '@notify/domain';
import { testLogger } from '@notify/testing';
import { ListNumbersUseCase } from './list-numbers.usecase';
import { OrderNumberUseCase } from './order-number.usecase';
import { ReleaseNumberUseCase } from './release-number.usecase';
import {
  ACCOUNT,
  live,
  numbersHarness,
  type NumbersHarness,
  OTHER_ACCOUNT,
  scope,
} from './testing/numbers.harness';

describe('ListNumbersUseCase', () => {
  let world: NumbersHarness;
  let list: ListNumbersUseCase;

  beforeEach(async () => {
    world = await numbersHarness();
    list = new ListNumbersUseCase(world.numbers, world.accounts, world.clock);
    const order = new OrderNumberUseCase(
      world.provider,
      world.numbers,
      world.config,
      testLogger(),
      world.clock,
    );
    await order.execute(live(ACCOUNT), '+14155550100');
    world.clock.set('2026-01-31T12:00:00.000Z');
    await order.execute(live(ACCOUNT), '+14165550100');
    await order.execute(live(OTHER_ACCOUNT), '+14155550101');
    world.clock.set('2026-02-10T00:00:00.000Z');
    await new ReleaseNumberUseCase(world.provider, world.numbers, world.clock).execute(
      live(ACCOUNT),
      '+14155550100',
    );
  });

  afterEach(() => world.close());

  it('lists the account’s active numbers with rent, billing day and the environment’s shared number', async () => {
    expect(await list.active(scope)).toEqual({
      numbers: [
        {
          phoneNumber: '+14165550100',
          createdAt: '2026-01-31T12:00:00.000Z',
          countryCode: 'CA',
          numberType: 'local',
          billingStatus: 'active',
          nextBillingDate: '2026-02-28',
          monthlyPrice: 1.15,
        },
      ],
      sharedNumber: '+15005550006',
    });
  });

  it('lists the account’s released numbers with when they were released', async () => {
    expect(await list.released(scope)).toEqual({
      numbers: [
        expect.objectContaining({
          phoneNumber: '+14155550100',
          billingStatus: 'released',
          createdAt: '2026-01-05T09:00:00.000Z',
          releasedAt: '2026-02-10T00:00:00.000Z',
        }),
      ],
    });
    expect(await list.released({ accountId: OTHER_ACCOUNT, envId: 'x' })).toEqual({ numbers: [] });
  });

  it('names the environment’s own Twilio number as the shared one when it has its own account', async () => {
    await world.settings.put(scope, twilioAccountSetting, {
      accountSid: `AC${'1'.repeat(32)}`,
      authToken: '2'.repeat(32),
      fromNumber: '+14155552671',
    });
    expect((await list.active(scope)).sharedNumber).toBe('+14155552671');
  });

  it('names the sandbox’s number as a test environment’s shared one, as its sends go to the sandbox', async () => {
    await world.settings.put(scope, twilioAccountSetting, {
      accountSid: `AC${'1'.repeat(32)}`,
      authToken: '2'.repeat(32),
      fromNumber: '+14155552671',
    });
    expect((await list.active({ ...scope, test: true })).sharedNumber).toBe('+15005550006');
  });
});
