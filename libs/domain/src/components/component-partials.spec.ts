import { InvalidRequestError } from '@notify/util';
import {
  componentsUsed,
  componentsUsedByStored,
  expandComponents,
  mayUseComponents,
} from './component-partials';

describe('componentsUsed', () => {
  it('names each component a source uses once, in order of first use, inside blocks too', () => {
    const source = '{{> header}}<p>{{name}}</p>{{#each items}}{{> row}}{{/each}}{{~> footer ~}}{{> header}}';
    expect(componentsUsed(source, 'html')).toEqual(['header', 'row', 'footer']);
  });

  it('answers none for a source with no partial, without parsing it (a broken one too)', () => {
    expect(componentsUsed('<p>{{name}}</p>', 'html')).toEqual([]);
    expect(componentsUsed('{{#if x}} unclosed', 'html')).toEqual([]);
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

  it('reads a stored source that no longer parses as using no component', () => {
    expect(componentsUsedByStored('{{> a}}{{#if}}')).toEqual([]);
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
