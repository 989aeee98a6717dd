import { PeerInbox } from './peer-inbox';

interface Note {
  readonly id: string;
  readonly token: string;
  readonly collapse?: string;
}

describe('PeerInbox', () => {
  const inbox = () =>
    new PeerInbox<Note>(3, (m) => (m.collapse === undefined ? undefined : `${m.token}\0${m.collapse}`));

  it('keeps one notification per device and collapse key, counting the repeats', () => {
    const box = inbox();
    box.add({ id: '1', token: 'a', collapse: 'c' });
    box.add({ id: '2', token: 'b', collapse: 'c' });
    box.add({ id: '3', token: 'a', collapse: 'c' });
    box.add({ id: '4', token: 'a' });
    box.add({ id: '5', token: 'a' });
    expect(box.messages().map((m) => m.id)).toEqual(['3', '4', '5']);
    expect(box.deliveries()).toBe(5);
    expect(box.repeatedDeliveries()).toBe(1);
  });

  it('drops the oldest beyond its size', () => {
    const box = inbox();
    for (const id of ['1', '2', '3', '4']) box.add({ id, token: id });
    expect(box.messages().map((m) => m.id)).toEqual(['2', '3', '4']);
  });
});
