import { InvalidRequestError } from '@notify/util';
import { TemplateRenderer } from './template-renderer';
import { MAX_SAMPLE_TAGS, sampleParameters } from './sample-parameters';

const samples = (...sources: string[]) =>
  sampleParameters(sources.map((source, i) => ({ field: `t${i}`, source })));

describe('sampleParameters', () => {
  it('gives each plain merge tag its own name in brackets, nested paths as objects', () => {
    expect(samples('Hi {{firstName}}', '<p>{{order.id}} for {{ order.total }}</p>')).toEqual({
      firstName: '[firstName]',
      order: { id: '[order.id]', total: '[order.total]' },
    });
  });

  it('reads blocks: each gives a one-item list, with an object, if and unless a truthy value', () => {
    expect(
      samples(
        '{{#each items}}{{name}} x {{qty}}{{else}}none{{/each}}',
        '{{#with user}}{{email}}{{/with}}',
        '{{#if vip}}{{discount}}{{/if}}{{#unless quiet}}!{{/unless}}',
      ),
    ).toEqual({
      items: [{ name: '[items.name]', qty: '[items.qty]' }],
      user: { email: '[user.email]' },
      vip: '[vip]',
      discount: '[discount]',
      quiet: '[quiet]',
    });
  });

  it('leaves helpers, partials, @data, parent paths and this alone', () => {
    expect(
      samples('{{> footer}}{{#each list}}{{@index}}{{../title}}{{this}}{{/each}}{{lookup map key}}{{{raw}}}'),
    ).toEqual({ list: [{}], raw: '[raw]' });
  });

  it('lets an object a tag needs win over a sample string in its way', () => {
    expect(samples('{{#if user}}{{user.name}}{{/if}}')).toEqual({ user: { name: '[user.name]' } });
  });

  it('renders with the template renderer into a message that shows where each value goes', () => {
    const html = '<p>Hi {{firstName}}</p>{{#each items}}<li>{{name}}</li>{{/each}}';
    const rendered = new TemplateRenderer(1_000_000).render(html, samples(html), {
      html: true,
      field: 'html',
      cache: false,
    });
    expect(rendered).toBe('<p>Hi [firstName]</p><li>[items.name]</li>');
  });

  it.each([
    '{{__proto__.fromAddress}}',
    '{{#each __proto__}}{{envId}}{{/each}}',
    '{{#with __proto__}}{{envId}}{{/with}}{{#each constructor.prototype}}{{fromAddress}}{{/each}}',
    '{{constructor.prototype.envId}}{{hasOwnProperty.fromAddress}}{{#with toString}}{{envId}}{{/with}}',
    '{{#each list}}{{__proto__.envId}}{{/each}}{{#with user}}{{constructor.prototype.fromAddress}}{{/with}}',
  ])('never writes onto a prototype, whatever a tag names: %s', (source) => {
    const parameters = samples(source);
    const plain: Record<string, unknown> = {};
    expect(plain['fromAddress']).toBeUndefined();
    expect(plain['envId']).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('fromAddress');
    expect(Object.prototype).not.toHaveProperty('envId');
    expect(JSON.stringify(parameters)).not.toContain('__proto__');
  });

  it('gives tags named like Object.prototype members their own sample, serialised as JSON', () => {
    const parameters = samples('{{toString}} {{user.hasOwnProperty}} {{#each valueOf}}{{name}}{{/each}}');
    expect(JSON.parse(JSON.stringify(parameters))).toEqual({
      toString: '[toString]',
      user: { hasOwnProperty: '[user.hasOwnProperty]' },
      valueOf: [{ name: '[valueOf.name]' }],
    });
  });

  it('gives at most MAX_SAMPLE_TAGS tags a value', () => {
    const many = Array.from({ length: MAX_SAMPLE_TAGS + 10 }, (_, i) => `{{v${i}}}`).join('');
    expect(Object.keys(samples(many))).toHaveLength(MAX_SAMPLE_TAGS);
  });

  it('answers a template that does not parse with a 400 naming its field', () => {
    expect(() => sampleParameters([{ field: 'html', source: '<p>{{#if x}}open' }])).toThrow(
      InvalidRequestError,
    );
    expect(() => sampleParameters([{ field: 'subject', source: 'Hi {{name' }])).toThrow(
      /^subject: syntax error on line 1/,
    );
    expect(sampleParameters([{ field: 'previewText', source: undefined }])).toEqual({});
  });

  it('skips a template that does not parse when asked to, sampling the others', () => {
    expect(
      sampleParameters(
        [
          { field: 'subject', source: 'Hi {{name' },
          { field: 'html', source: '<p>{{city}}</p>' },
        ],
        'skip',
      ),
    ).toEqual({ city: '[city]' });
  });
});
