import { render, TemplateSyntaxError } from './render';

describe('render', () => {
  it('replaces merge tags, escaping HTML only in HTML', () => {
    const parameters = { name: '<b>Ann</b> & co', order: { id: 42 } };
    expect(render('<p>Hi {{name}}, order {{order.id}}</p>', parameters, { html: true, field: 'html' })).toBe(
      '<p>Hi &lt;b&gt;Ann&lt;/b&gt; &amp; co, order 42</p>',
    );
    expect(render('Hi {{name}}', parameters, { html: false, field: 'subject' })).toBe('Hi <b>Ann</b> & co');
  });

  it('leaves missing parameters empty and text without tags untouched', () => {
    expect(render('Hi {{missing}}!', {}, { html: false, field: 'subject' })).toBe('Hi !');
    expect(render('no tags', {}, { html: true, field: 'html' })).toBe('no tags');
  });

  it('reports a broken template with the field it is in', () => {
    expect(() => render('Hi {{#if}}', {}, { html: true, field: 'email.html' })).toThrow(TemplateSyntaxError);
    expect(() => render('Hi {{#if}}', {}, { html: true, field: 'email.html' })).toThrow(/^email\.html: /);
  });

  it('does not expose prototype properties to templates', () => {
    expect(render('{{constructor.name}}', {}, { html: false, field: 'subject' })).toBe('');
  });
});
