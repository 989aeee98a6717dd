import { connectGuarded, EgressError } from './guard';

describe('connectGuarded', () => {
  it('rejects a private address literal rather than throwing at the caller', async () => {
    let connecting: Promise<unknown> | undefined;
    expect(() => {
      connecting = connectGuarded('127.0.0.1', 25, { allowPrivateNetworks: false }, 1_000);
    }).not.toThrow();
    await expect(connecting).rejects.toBeInstanceOf(EgressError);
    await expect(connectGuarded('[::1]', 25, { allowPrivateNetworks: false }, 1_000)).rejects.toThrow(
      /private address/,
    );
  });
});
