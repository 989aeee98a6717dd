import { mergeTagAt, parameterPaths } from './merge-tags';

describe('parameterPaths', () => {
  it('flattens the parameters of each send request into sorted dotted paths, once each', () => {
    const requests = [
      JSON.stringify({
        type: 'order',
        parameters: { firstName: 'Ann', order: { id: 7, total: { amount: 3 } } },
      }),
      JSON.stringify({ type: 'order', parameters: { firstName: 'Bob', items: [{ name: 'a' }] } }),
    ];
    expect(parameterPaths(requests)).toEqual(['firstName', 'items', 'order.id', 'order.total.amount']);
  });

  it('skips requests without parameters, bodies that are not JSON and keys Handlebars cannot read plainly', () => {
    const requests = [
      'not json',
      JSON.stringify({ type: 'x' }),
      { parameters: { 'a b': 1, 'x.y': 2, ok: null } },
    ];
    expect(parameterPaths(requests)).toEqual(['ok']);
  });

  it('stops at a depth and a count, so one huge request cannot flood the list', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 20; i++) deep = { n: deep };
    expect(parameterPaths([{ parameters: deep }])).toEqual(['n.n.n.n.n.n.n.n']);
    const wide = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`p${i}`, i]));
    expect(parameterPaths([{ parameters: wide }])).toHaveLength(500);
  });
});

describe('mergeTagAt', () => {
  it('names a parameter after {{ and after a block helper, from where its name starts', () => {
    expect(mergeTagAt('Hi {{fir')).toEqual({ kind: 'parameter', from: 5, typed: 'fir' });
    expect(mergeTagAt('{{#each ite')).toEqual({ kind: 'parameter', from: 8, typed: 'ite' });
    expect(mergeTagAt('{{')).toEqual({ kind: 'parameter', from: 2, typed: '' });
  });

  it('names a component after {{>', () => {
    expect(mergeTagAt('<p>{{> foo')).toEqual({ kind: 'component', from: 7, typed: 'foo' });
  });

  it('is nothing outside a tag', () => {
    expect(mergeTagAt('Hi {{name}} and ')).toBeNull();
    expect(mergeTagAt('plain text')).toBeNull();
  });
});
