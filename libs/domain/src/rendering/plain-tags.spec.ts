import Handlebars from 'handlebars';
import { parsePlainTags, renderPlainTags } from './plain-tags';

const helpers = new Set(Object.keys(Handlebars.helpers));
// Handlebars would print a warning for each prototype property the random templates reach for.
Handlebars.logger.level = Handlebars.logger.ERROR + 1;

/** A small seeded generator, so a failure reproduces. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

const NAMES = [
  'name',
  'order',
  'id',
  'items',
  'length',
  'constructor',
  'toString',
  'a-b',
  '$x',
  '_y',
  'each',
  'lookup',
];
const TEXTS = ['', 'Hi ', ' & ', '<p>', '"quoted"', "it's", '{', '}', '`=`', 'é ✓', '\n'];

function value(rand: ReturnType<typeof random>, depth: number): unknown {
  const kind = rand.pick(['string', 'number', 'boolean', 'null', 'object', 'array', 'missing'] as const);
  switch (kind) {
    case 'string':
      return rand.pick(['Ann', '<b>x</b>', 'a&b', '"q"', "o'k", '`tick`', 'x=y', '', '0']);
    case 'number':
      return rand.pick([0, 1, -2.5, 42, 1e21]);
    case 'boolean':
      return rand.next() < 0.5;
    case 'null':
      return null;
    case 'object':
      return depth > 2 ? {} : Object.fromEntries(NAMES.slice(0, 4).map((n) => [n, value(rand, depth + 1)]));
    case 'array':
      return depth > 2 ? [] : [value(rand, depth + 1), value(rand, depth + 1)];
    case 'missing':
      return undefined;
  }
}

describe('plain tags', () => {
  it('render exactly as Handlebars does, escaped and not, over 3,000 random templates and values', () => {
    const rand = random(20261123);
    let checked = 0;
    for (let n = 0; n < 3_000; n++) {
      const tags = Math.floor(rand.next() * 4);
      let source = rand.pick(TEXTS);
      for (let t = 0; t < tags; t++) {
        const path = Array.from({ length: 1 + Math.floor(rand.next() * 3) }, () => rand.pick(NAMES)).join(
          '.',
        );
        source += `{{${rand.next() < 0.2 ? ' ' : ''}${path}}}${rand.pick(TEXTS)}`;
      }
      const parameters = Object.fromEntries(NAMES.map((name) => [name, value(rand, 0)]));
      const plain = parsePlainTags(source, helpers);
      if (plain === undefined) continue;
      for (const html of [true, false]) {
        const expected = Handlebars.compile(source, { noEscape: !html })(parameters);
        expect({ source, html, out: renderPlainTags(plain, parameters, html, () => undefined) }).toEqual({
          source,
          html,
          out: expected,
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(3_000);
  });

  it.each([
    '{{#if a}}x{{/if}}',
    '{{> partial}}',
    '{{!-- comment --}}',
    '{{{raw}}}',
    '{{&raw}}',
    '{{~name}}',
    '{{lookup a b}}',
    '{{name arg}}',
    '{{this}}',
    '{{./name}}',
    '{{../name}}',
    '{{@index}}',
    '{{true}}',
    '{{items.0}}',
    '{{each}}',
    '\\{{escaped}}',
    '{{unclosed',
    '{{}}',
  ])('leaves %p to Handlebars', (source) => {
    expect(parsePlainTags(source, helpers)).toBeUndefined();
  });

  it('reports every inserted value to the budget', () => {
    const plain = parsePlainTags('{{a}}-{{b.c}}', helpers);
    const seen: string[] = [];
    expect(plain && renderPlainTags(plain, { a: 'x', b: { c: 7 } }, false, (t) => seen.push(t))).toBe('x-7');
    expect(seen).toEqual(['x', '7']);
  });
});
