import {
  feedPage,
  inappItemOf,
  type InAppItem,
  inappPatchSchema,
  isRetracted,
  isUnread,
  patchItem,
} from './inapp-item';

const t0 = Date.parse('2026-05-01T12:00:00.000Z');
const job = {
  trackingId: 't1',
  accountId: 'a',
  envId: 'e',
  receivedAt: t0 - 50,
  test: false,
  notificationId: 'n',
  userId: 'u',
  title: 'Hello',
  retentionDays: 2,
};

describe('in-app items', () => {
  it('are made from a job: dated now, unseen, expiring after the retention', () => {
    expect(inappItemOf({ ...job, parameters: {} }, t0)).toEqual({
      id: 't1',
      notificationId: 'n',
      seen: false,
      title: 'Hello',
      date: '2026-05-01T12:00:00.000Z',
      expDate: (t0 + 2 * 86_400_000) / 1_000,
    });
  });

  it('take marks and clear them with null; seen follows opened; unread means neither opened nor archived', () => {
    const item = inappItemOf(job, t0);
    const opened = patchItem(
      item,
      { opened: '2026-05-01T13:00:00+01:00', clicked: '2026-05-01T12:00:01Z' },
      t0,
    );
    expect(opened).toMatchObject({
      seen: true,
      opened: '2026-05-01T12:00:00.000Z',
      clicked: '2026-05-01T12:00:01.000Z',
    });
    expect(isUnread(opened)).toBe(false);
    const cleared = patchItem(opened, { opened: null, archived: '2026-05-02T00:00:00Z' }, t0);
    expect(cleared.seen).toBe(false);
    expect(cleared.opened).toBeUndefined();
    expect(cleared.clicked).toBe('2026-05-01T12:00:01.000Z');
    expect(isUnread(cleared)).toBe(false);
    expect(isUnread(item)).toBe(true);
  });

  it("clear a mark on false as on null (the browser client's boolean inputs), set it to now on true, and keep a stored record's other fields", () => {
    const stored = {
      ...patchItem(
        inappItemOf(job, t0),
        { opened: '2026-05-01T13:00:00Z', archived: '2026-05-01T13:00:00Z' },
        t0,
      ),
      userId: 'u',
      receivedAt: t0 - 50,
    };
    const unarchived = patchItem(stored, { archived: false, clicked: true }, t0 + 1_000);
    expect(unarchived).not.toHaveProperty('archived');
    expect(unarchived).toMatchObject({
      userId: 'u',
      receivedAt: t0 - 50,
      opened: '2026-05-01T13:00:00.000Z',
      clicked: new Date(t0 + 1_000).toISOString(),
    });
    const unopened = patchItem(unarchived, { opened: false }, t0);
    expect(unopened).not.toHaveProperty('opened');
    expect(unopened.seen).toBe(false);
    expect(isUnread(unopened)).toBe(true);
    expect(inappPatchSchema.parse({ trackingIds: ['t1'], opened: false, clicked: null })).toEqual({
      trackingIds: ['t1'],
      opened: false,
      clicked: null,
    });
  });

  it('page newest first, strictly before `before`, without expired items', () => {
    const at = (id: string, ms: number, retentionDays = 30): InAppItem =>
      inappItemOf({ ...job, trackingId: id, retentionDays }, ms);
    const items = [at('a', t0), at('b', t0 + 1_000), at('c', t0 + 2_000), at('old', t0 - 1_000, 1)];
    expect(feedPage(items, { count: 2 }, t0 + 5_000).map((i) => i.id)).toEqual(['c', 'b']);
    expect(feedPage(items, { count: 10, before: items[1]?.date }, t0 + 5_000).map((i) => i.id)).toEqual([
      'a',
      'old',
    ]);
    expect(feedPage(items, { count: 10 }, t0 + 86_400_000).map((i) => i.id)).toEqual(['c', 'b', 'a']);
  });

  it('refuse patches without ids, with too many, or with a non-ISO time', () => {
    expect(inappPatchSchema.safeParse({ trackingIds: [] }).success).toBe(false);
    expect(inappPatchSchema.safeParse({ trackingIds: Array(101).fill('x') }).success).toBe(false);
    expect(inappPatchSchema.safeParse({ trackingIds: ['x'], opened: 'yesterday' }).success).toBe(false);
    expect(
      inappPatchSchema.safeParse({ trackingIds: ['x'], opened: null, archived: '2026-01-01T00:00:00Z' })
        .success,
    ).toBe(true);
  });
});

describe('isRetracted', () => {
  const plain = inappItemOf(job, t0);
  const sub = inappItemOf({ ...job, trackingId: 't2', subNotificationId: 's' }, t0);

  it("takes every item of the type when no sub-notification is named, only that sub-notification's otherwise", () => {
    expect(isRetracted(plain, { notificationId: 'n' })).toBe(true);
    expect(isRetracted(sub, { notificationId: 'n' })).toBe(true);
    expect(isRetracted(plain, { notificationId: 'n', subNotificationId: 's' })).toBe(false);
    expect(isRetracted(sub, { notificationId: 'n', subNotificationId: 's' })).toBe(true);
    expect(isRetracted(sub, { notificationId: 'other' })).toBe(false);
  });
});
