import { TemplateBudgetError, TemplateRenderer, TemplateSyntaxError } from './template-renderer';

const text = (field = 'subject') => ({ html: false, field, cache: false });
const html = (field = 'html') => ({ html: true, field, cache: false });

describe('TemplateRenderer', () => {
  const renderer = new TemplateRenderer(1024 * 1024);

  it('replaces merge tags, escaping HTML only in HTML', () => {
    const parameters = { name: '<b>Ann</b> & co', order: { id: 42 } };
    expect(renderer.render('<p>Hi {{name}}, order {{order.id}}</p>', parameters, html())).toBe(
      '<p>Hi &lt;b&gt;Ann&lt;/b&gt; &amp; co, order 42</p>',
    );
    expect(renderer.render('Hi {{name}}', parameters, text())).toBe('Hi <b>Ann</b> & co');
  });

  it('renders blocks and loops over parameters', () => {
    const parameters = { items: [{ name: 'a' }, { name: 'b' }], vip: true, tags: { x: '1', y: '2' } };
    expect(
      renderer.render(
        '{{#if vip}}VIP {{/if}}{{#each items}}{{name}},{{/each}}{{#each tags}}{{@key}}={{this}};{{/each}}',
        parameters,
        text(),
      ),
    ).toBe('VIP a,b,x=1;y=2;');
    expect(
      renderer.render('{{#items}}[{{name}}]{{/items}}{{^missing}}none{{/missing}}', parameters, text()),
    ).toBe('[a][b]none');
  });

  it('leaves missing parameters empty and text without tags untouched', () => {
    expect(renderer.render('Hi {{missing}}!', {}, text())).toBe('Hi !');
    expect(renderer.render('no tags', {}, html())).toBe('no tags');
  });

  it('reports a broken template with the field it is in', () => {
    expect(() => renderer.render('Hi {{#if}}', {}, html('email.html'))).toThrow(TemplateSyntaxError);
    expect(() => renderer.render('Hi {{#if}}', {}, html('email.html'))).toThrow(/^email\.html: /);
    expect(() => renderer.render('{{> partial}}', {}, html('email.html'))).toThrow(TemplateSyntaxError);
  });

  it("reports what went wrong in the tenant's terms, never a JavaScript message or stack", () => {
    const reason = (source: string) => {
      try {
        renderer.render(source, { a: { b: 1 } }, html('email.html'));
      } catch (error) {
        expect(error).toBeInstanceOf(TemplateSyntaxError);
        return (error as Error).message;
      }
      throw new Error(`${source} rendered`);
    };
    expect(reason('Hi {{shout name}}')).toBe(
      'email.html: unknown helper "shout" (only the built-in helpers are available)',
    );
    expect(reason('{{> header}}')).toBe('email.html: unknown partial "header"');
    expect(reason('{{#if a}}x')).toBe(
      'email.html: syntax error on line 1: the template ends inside an unclosed tag or block',
    );
    expect(reason('a\n{{a.[b}}')).toBe('email.html: syntax error on line 2');
    expect(reason('{{#each}}x{{/each}}')).toBe('email.html: Must pass iterator to #each');
    expect(reason('{{#if a}}x{{/each}}')).toMatch(/^email\.html: if doesn't match each/);
    expect(reason('{{lookup}}')).toBe(
      'email.html: a built-in helper was called with missing or wrong arguments',
    );
    expect(reason('{{helperMissing}}')).toBe(
      'email.html: a built-in helper was called with missing or wrong arguments',
    );
    expect(reason('{{#*inline "a"}}{{> a}}{{/inline}}{{> a}}')).toBe(
      'email.html: partials or blocks nest too deeply',
    );
    expect(reason(`{{${'h'.repeat(500)} x}}`)).toBe(
      `email.html: unknown helper "${'h'.repeat(100)}…" (only the built-in helpers are available)`,
    );
  });

  it('does not expose prototype properties to templates', () => {
    expect(renderer.render('{{constructor.name}}', {}, text())).toBe('');
    expect(renderer.render('{{__proto__}}', { a: 1 }, text())).toBe('');
  });

  it('has no log helper, nor any other way for a template to write to the process output', () => {
    const write = jest.spyOn(process.stdout, 'write');
    const calls = (['log', 'error', 'warn', 'info'] as const).map((method) => jest.spyOn(console, method));
    try {
      expect(() => renderer.render('{{log "injected line"}}', {}, text())).toThrow(TemplateSyntaxError);
      expect(renderer.render('{{#with a}}{{toString}}{{/with}}', { a: {} }, text())).toBe('');
      expect(write).not.toHaveBeenCalled();
      for (const call of calls) expect(call).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
      for (const call of calls) call.mockRestore();
    }
  });

  it('stops a loop over a huge list, and nested loops, at the iteration budget', () => {
    const small = new TemplateRenderer(1024, { maxIterations: 1_000, maxOutput: 10_000_000 });
    const list = Array.from({ length: 5_000 }, (_, i) => i);
    expect(() => small.render('{{#each list}}.{{/each}}', { list }, text())).toThrow(TemplateBudgetError);
    const square = Array.from({ length: 40 }, (_, i) => i);
    expect(() =>
      small.render('{{#each a}}{{#each ../a}}x{{/each}}{{/each}}', { a: square }, text('sms.message')),
    ).toThrow(/^sms\.message: more than 1000 block iterations/);
  });

  it('stops a huge value repeated many times at the output budget, inside or outside blocks', () => {
    const small = new TemplateRenderer(1024, { maxIterations: 1_000_000, maxOutput: 100_000 });
    const big = 'x'.repeat(10_000);
    expect(() => small.render('{{big}}'.repeat(11), { big }, text())).toThrow(TemplateBudgetError);
    expect(() =>
      small.render('{{#each n}}{{../big}}{{/each}}', { big, n: [1, 2, 3, 4, 5, 6] }, html()),
    ).toThrow(/renders more than 100000 characters/);
    expect(small.render('{{big}}'.repeat(5), { big }, text())).toHaveLength(50_000);
  });

  it('caches compiled stored templates within its byte budget, never inline content', () => {
    const cached = new TemplateRenderer(10_000);
    cached.render('Hello {{name}}', { name: 'a' }, { html: false, field: 's', cache: true });
    cached.render('Hello {{name}}', { name: 'b' }, { html: false, field: 's', cache: true });
    expect(cached.cacheUsage.entries).toBe(1);
    cached.render('Inline {{name}}', { name: 'a' }, { html: false, field: 's', cache: false });
    expect(cached.cacheUsage.entries).toBe(1);
    for (let i = 0; i < 100; i++)
      cached.render(`T${i} {{name}}`.repeat(20), {}, { html: true, field: 'h', cache: true });
    expect(cached.cacheUsage.bytes).toBeLessThanOrEqual(10_000);
    const huge = `{{name}}${'x'.repeat(20_000)}`;
    cached.render(huge, { name: 'y' }, { html: true, field: 'h', cache: true });
    expect(cached.cacheUsage.bytes).toBeLessThanOrEqual(10_000);
  });
});

describe('TemplateRenderer with components', () => {
  const renderer = new TemplateRenderer(1024 * 1024, { maxIterations: 1_000, maxOutput: 10_000 });
  const withComponents = (partials: ReadonlyMap<string, string>) => ({ ...html(), cache: true, partials });

  it('renders components as partials in the caller’s context, escaped, nested and inside blocks', () => {
    const components = new Map([
      ['header', '<h1>{{title}}</h1>{{> logo}}'],
      ['logo', '<img alt="{{brand}}">'],
      ['row', '<li>{{name}}</li>'],
    ]);
    expect(
      renderer.render(
        '{{> header}}<ul>{{#each items}}{{> row}}{{/each}}</ul>',
        { title: 'A & B', brand: 'N', items: [{ name: 'x' }, { name: 'y' }] },
        withComponents(components),
      ),
    ).toBe('<h1>A &amp; B</h1><img alt="N"><ul><li>x</li><li>y</li></ul>');
  });

  it('escapes values in a component as the render asks, one component set used both ways', () => {
    const components = new Map([['name', '<b>{{who}}</b>']]);
    const parameters = { who: 'A & B' };
    expect(renderer.render('{{> name}}', parameters, withComponents(components))).toBe('<b>A &amp; B</b>');
    expect(renderer.render('{{> name}}', parameters, { ...text(), partials: components })).toBe(
      '<b>A & B</b>',
    );
  });

  it('renders the new HTML of a changed component: compiled forms are keyed by the HTML itself', () => {
    const source = '<div>{{> footer}}</div>';
    expect(renderer.render(source, {}, withComponents(new Map([['footer', 'old']])))).toBe('<div>old</div>');
    expect(renderer.render(source, {}, withComponents(new Map([['footer', 'new']])))).toBe('<div>new</div>');
  });

  it('fails a cycle at the depth bound instead of recursing, and an unknown component by name', () => {
    const cycle = new Map([
      ['a', '{{> b}}'],
      ['b', '{{> a}}'],
    ]);
    expect(() => renderer.render('{{> a}}', {}, withComponents(cycle))).toThrow(
      new TemplateBudgetError('html', 'components nest more than 8 deep'),
    );
    expect(() => renderer.render('{{> ghost}}', {}, withComponents(cycle))).toThrow(
      'html: unknown partial "ghost"',
    );
  });

  it("counts a component's output against the budget, so repeating a large one cannot grow without end", () => {
    const big = new Map([['big', 'x'.repeat(4_000)]]);
    expect(renderer.render('{{> big}}{{> big}}', {}, withComponents(big))).toHaveLength(8_000);
    expect(() => renderer.render('{{> big}}{{> big}}{{> big}}', {}, withComponents(big))).toThrow(
      TemplateBudgetError,
    );
  });

  it('does not repeat the indentation before a component on each of its lines', () => {
    const lines = new Map([['c', '\n'.repeat(1_000)]]);
    const rendered = renderer.render(`${' '.repeat(1_000)}{{> c}}\n`, {}, withComponents(lines));
    expect(rendered).toHaveLength(2_000);
  });

  it('counts every component run as an iteration, empty ones included', () => {
    const empty = new Map([
      ['c1', '{{> c2}}'.repeat(10)],
      ['c2', '{{> c3}}'.repeat(10)],
      ['c3', '{{> c4}}'.repeat(10)],
      ['c4', ''],
    ]);
    expect(renderer.render('{{> c2}}', {}, withComponents(empty))).toBe('');
    expect(() => renderer.render('{{> c1}}', {}, withComponents(empty))).toThrow(
      new TemplateBudgetError('html', 'more than 1000 block iterations'),
    );
  });

  it("counts a nested component's output once, not once per level it is nested in", () => {
    const nested = new Map([
      ...Array.from({ length: 7 }, (_, i) => [`c${i}`, `{{> c${i + 1}}}`] as [string, string]),
      ['c7', 'x'.repeat(4_000)],
    ]);
    expect(renderer.render('{{> c0}}{{> c0}}', {}, withComponents(nested))).toHaveLength(8_000);
    expect(() => renderer.render('{{> c0}}{{> c0}}{{> c0}}', {}, withComponents(nested))).toThrow(
      TemplateBudgetError,
    );
  });

  it('counts inline partials like components: each run an iteration, their output once', () => {
    const inline = (body: string) => `{{#*inline "e"}}{{/inline}}{{#*inline "d"}}${body}{{/inline}}`;
    const calls = (n: number) => `${inline('{{> e}}'.repeat(40))}${'{{> d}}'.repeat(n)}`;
    expect(renderer.render(calls(20), {}, withComponents(new Map()))).toBe('');
    expect(() => renderer.render(calls(30), {}, withComponents(new Map()))).toThrow(
      new TemplateBudgetError('html', 'more than 1000 block iterations'),
    );
    expect(renderer.render(`${inline('y')}{{> d}}`, {}, withComponents(new Map()))).toBe('y');
  });
});
