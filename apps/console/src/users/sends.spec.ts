import { recentSendsQuery } from './sends';

describe('recentSendsQuery', () => {
  it('asks for the last 7 days of the one user, an id with a comma kept whole', () => {
    expect(recentSendsQuery('ann,smith', 1_700_000_000_999)).toEqual({
      dateRangeFilter: [1_700_000_000 - 604_800, 1_700_000_000],
      userFilter: ['ann,smith'],
    });
  });
});
