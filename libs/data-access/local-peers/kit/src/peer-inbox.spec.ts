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

  it('tells its listeners of each message until they stop listening', () => {
    const box = inbox();
    const heard: string[] = [];
    const stop = box.onMessage((m) => heard.push(m.id));
    box.add({ id: '1', token: 'a' });
    stop();
    box.add({ id: '2', token: 'a' });
    expect(heard).toEqual(['1']);
  });

  it('forgets the messages it is told to remove, and everything when cleared', () => {
    const box = new PeerInbox<{ id: number }, number>(10);
    for (const id of [1, 2, 3]) box.add({ id });
    box.remove([2]);
    expect(box.messages()).toEqual([{ id: 1 }, { id: 3 }]);
    box.clear();
    expect(box.messages()).toEqual([]);
    expect(box.deliveries()).toBe(0);
  });

  it('hands out a copy: what a reader holds does not change under it', () => {
    const box = inbox();
    box.add({ id: '1', token: 'a' });
    const seen = box.messages();
    box.add({ id: '2', token: 'a' });
    expect(seen.map((m) => m.id)).toEqual(['1']);
  });
});
