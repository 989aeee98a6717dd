import { subjectOfPayload } from './delivery-events.publisher';

describe('subjectOfPayload', () => {
  const tenant = { accountId: 'acct', envId: 'env-1', trackingId: 'trk-1' };

  it("reads whose send a job is from its top level, and a routing request's from its send", () => {
    expect(subjectOfPayload(JSON.stringify({ ...tenant, userId: 'ann', notificationId: 'welcome' }))).toEqual(
      {
        ...tenant,
        userId: 'ann',
        notificationId: 'welcome',
      },
    );
    expect(
      subjectOfPayload(JSON.stringify({ ...tenant, send: { userId: 'bob', notificationId: 'digest' } })),
    ).toEqual({ ...tenant, userId: 'bob', notificationId: 'digest' });
  });

  it('leaves out what the payload does not name as text, and names no subject without a tenant', () => {
    expect(subjectOfPayload(JSON.stringify({ ...tenant, send: 'not an object', userId: 7 }))).toEqual(tenant);
    expect(subjectOfPayload(JSON.stringify({ envId: 'env-1', trackingId: 'trk-1' }))).toBeUndefined();
    expect(subjectOfPayload('{not json')).toBeUndefined();
    expect(subjectOfPayload('null')).toBeUndefined();
  });
});
