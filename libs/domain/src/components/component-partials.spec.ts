import { InvalidRequestError } from '@notify/util';
import {
  componentsUsed,
  componentsUsedByStored,
  expandComponents,
  expandEachComponent,
  mayUseComponents,
} from './component-partials';

describe('componentsUsed', () => {
  it('names each component a source uses once, in order of first use, inside blocks too', () => {
    const source = '{{> header}}<p>{{name}}</p>{{#each items}}{{> row}}{{/each}}{{~> footer ~}}{{> header}}';
    expect(componentsUsed(source, 'html')).toEqual(['header', 'row', 'footer']);
  });

  it('answers none for a source with no partial; only a partial opening can make a source use one', () => {
    expect(componentsUsed('<p>{{name}}</p>', 'html')).toEqual([]);
    expect(componentsUsed('<p>no tags</p>', 'html')).toEqual([]);
    expect(mayUseComponents('a > b {{x}}')).toBe(false);
    expect(mayUseComponents('{{#> layout}}{{/layout}}')).toBe(true);
  });

  it.each([
    ['a dynamic name', '{{> (lookup . "name")}}', 'must name a component'],
    ['a context argument', '{{> header user}}', 'takes no argument'],
    ['a hash argument', '{{> header title="x"}}', 'takes no argument'],
    ['a partial block', '{{#> header}}fallback{{/header}}', 'partial blocks'],
    ['an inline partial', '{{#*inline "row"}}x{{/inline}}{{> row}}', 'inline partials'],
    ['the partial block data name', '{{> @partial-block}}', 'must name a component'],
    ['a syntax error', '{{> header}}\n{{#if x}}', 'syntax error on line 2'],
    ['a syntax error without a partial', '<p>\n{{#if x}}', 'syntax error on line 2'],
    [
      'blocks nested too deep to parse quickly',
      `${'{{#if a}}'.repeat(65)}${'{{/if}}'.repeat(65)}`,
      'blocks nest more than 64 deep',
    ],
    [
      'sub-expressions nested too deep to parse quickly',
      `{{a ${'(a '.repeat(65)}b${')'.repeat(65)}}}`,
      'sub-expressions (or parentheses) nest more than 64 deep',
    ],
  ])('refuses %s with 400 INVALID_TEMPLATE naming the field', (_, source, reason) => {
    let thrown: unknown;
    try {
      componentsUsed(source, 'html');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect(thrown).toMatchObject({ code: 'INVALID_TEMPLATE' });
    expect((thrown as Error).message).toMatch(/^html: /);
    expect((thrown as Error).message).toContain(reason);
  });

  it.each([
    ['a long comment', '{{!-- {{/x}} --}}'],
    ['a short comment', '{{! {{/x}}'],
    ['a raw block', '{{{{raw}}}}{{/x}}{{{{/raw}}}}'],
  ])('counts no tag inside %s towards the nesting', (_, hidden) => {
    const nested = `${`{{#if a}}${hidden}`.repeat(65)}${'{{/if}}'.repeat(65)}`;
    expect(() => componentsUsed(nested, 'html')).toThrow('blocks nest more than 64 deep');
    const parentheses = `{{a ${'(a '.repeat(65)}b${')'.repeat(65)}}}{{!-- ${')'.repeat(65)} --}}`;
    expect(() => componentsUsed(`${'('.repeat(65)}${parentheses}`, 'html')).toThrow('parentheses');
  });

  it('accepts blocks nested up to the bound, inverse blocks and else branches counted as Handlebars reads them', () => {
    const nested = `${'{{#if a}}'.repeat(63)}{{^b}}{{> x}}{{^}}y{{/b}}${'{{/if}}'.repeat(63)}{{#if c}}{{else}}{{/if}}`;
    expect(componentsUsed(nested, 'html')).toEqual(['x']);
    expect(componentsUsed(`{{a ${'(a '.repeat(64)}b${')'.repeat(64)}}}{{> y}}`, 'html')).toEqual(['y']);
  });

  it('reads a stored source that does not parse as using no component', () => {
    expect(componentsUsedByStored('{{> a}}{{#if}}')).toEqual([]);
    expect(componentsUsedByStored('{{#if}} no partial')).toEqual([]);
    expect(componentsUsedByStored('{{> a}}')).toEqual(['a']);
  });
});

describe('expandComponents', () => {
  const components = new Map([
    ['header', '<h1>{{title}}</h1>{{> logo}}'],
    ['logo', '<img alt="{{brand}}">'],
  ]);

  it('replaces each partial by its component, nested ones too, keeping everything else', () => {
    expect(expandComponents('A{{> header}}\nB {{name}} {{> logo}}!', components, 8)).toBe(
      'A<h1>{{title}}</h1><img alt="{{brand}}">\nB {{name}} <img alt="{{brand}}">!',
    );
  });

  it('places partials by line and column on multi-line sources', () => {
    expect(expandComponents('line 1\n  {{> logo}} and {{> logo}}\nend', components, 8)).toBe(
      'line 1\n  <img alt="{{brand}}"> and <img alt="{{brand}}">\nend',
    );
  });

  it('leaves an unknown component as its partial, and stops at the depth given', () => {
    expect(expandComponents('{{> nope}}{{> logo}}', components, 8)).toBe('{{> nope}}<img alt="{{brand}}">');
    expect(expandComponents('{{> header}}', components, 1)).toBe('<h1>{{title}}</h1>{{> logo}}');
    expect(expandComponents('{{> header}}', components, 0)).toBe('{{> header}}');
  });
});

describe('expandEachComponent', () => {
  it('expands every component once, however many use it', () => {
    const components = new Map([
      ['a', '{{> b}}{{> b}}'],
      ['b', '[{{> c}}]'],
      ['c', 'c'],
      ['d', '{{> ghost}}'],
    ]);
    expect(expandEachComponent(components, 100)).toEqual(
      new Map([
        ['a', '[c][c]'],
        ['b', '[c]'],
        ['c', 'c'],
        ['d', '{{> ghost}}'],
      ]),
    );
  });

  it('answers a component whose expansion is over the bound, or in a stored cycle, as its own HTML', () => {
    const doubling = new Map(
      Array.from({ length: 30 }, (_, i) => [`c${i}`, i === 29 ? 'xx' : `{{> c${i + 1}}}{{> c${i + 1}}}`]),
    );
    const expanded = expandEachComponent(doubling, 1_000);
    expect(expanded.get('c29')).toBe('xx');
    expect(expanded.get('c21')).toBe('x'.repeat(512));
    expect(expanded.get('c20')).toBe('{{> c21}}{{> c21}}');
    expect(expanded.get('c0')).toBe('{{> c1}}{{> c1}}');
    const cycle = new Map([
      ['a', 'A{{> b}}'],
      ['b', 'B{{> a}}'],
      ['c', 'C'],
    ]);
    expect(expandEachComponent(cycle, 100)).toEqual(
      new Map([
        ['a', 'A{{> b}}'],
        ['b', 'B{{> a}}'],
        ['c', 'C'],
      ]),
    );
  });
});
