import { newEventId } from './event-id';

describe('newEventId', () => {
  it('is unique and sorts in creation order, within and across milliseconds', () => {
    const ids = [
      newEventId(1_000),
      newEventId(1_000),
      newEventId(1_000),
      newEventId(1_001),
      newEventId(1_001),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
