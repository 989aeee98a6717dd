import type { Channel, TemplateContent } from '@notify/domain';
import { aScope } from '@notify/testing';
import { NotFoundError } from '@notify/util';
import { PreviewTemplateUseCase, previewTemplateSchema } from './preview-template.usecase';
import { type TemplatesHarness, templatesHarness } from './testing/templates.harness';

describe('PreviewTemplateUseCase', () => {
  const scope = aScope();
  let h: TemplatesHarness;
  let useCase: PreviewTemplateUseCase;

  const preview = (channel: Channel, content: TemplateContent, parameters?: Record<string, unknown>) =>
    useCase.execute({
      scope,
      notificationId: 'welcome',
      channel,
      body: { content, ...(parameters !== undefined ? { parameters } : {}) },
    });

  beforeEach(async () => {
    h = await templatesHarness(scope, { twoTemplates: true });
    useCase = new PreviewTemplateUseCase(h.types, h.components);
  });

  afterEach(() => h.close());

  it('renders an email as its sends would: text fields as given, HTML escaped, components as partials', async () => {
    await h.components.create(scope, {
      componentId: 'footer',
      name: 'Footer',
      internal: '',
      internalPage: '',
      html: '<footer>Bye {{name}}</footer>',
      createdAt: h.at(),
      modifiedAt: h.at(),
    });
    const answer = await preview(
      'EMAIL',
      {
        subject: 'Hi {{name}}',
        html: '<p>{{name}}</p>{{> footer}}',
        previewText: 'For {{name}}',
        senderName: '{{team}} team',
        senderEmail: 'hello@example.com',
      },
      { name: 'Ann & Bo', team: 'Ops' },
    );
    expect(answer).toEqual({
      rendered: {
        subject: 'Hi Ann & Bo',
        html: '<p>Ann &amp; Bo</p><footer>Bye Ann &amp; Bo</footer>',
        previewText: 'For Ann & Bo',
        fromAddress: 'hello@example.com',
        fromName: 'Ops team',
      },
      parameters: { name: 'Ann & Bo', team: 'Ops' },
      problems: [],
    });
  });

  it("gives each merge tag of the channel's fields a sample value when no parameters are given", async () => {
    const answer = await preview('EMAIL', {
      subject: 'Order {{order.id}}',
      html: '{{#each items}}<li>{{name}}</li>{{/each}}',
      // Not an email field: no sample for it.
      text: '{{unused}}',
    });
    expect(answer.parameters).toEqual({ order: { id: '[order.id]' }, items: [{ name: '[items.name]' }] });
    expect(answer.rendered).toEqual({ subject: 'Order [order.id]', html: '<li>[items.name]</li>' });
  });

  it('counts an SMS in segments: GSM-7 for plain text, UCS-2 once a character needs it', async () => {
    const plain = await preview('SMS', { text: 'Hi {{name}}, your code is 1234.' }, { name: 'Ann' });
    expect(plain.rendered).toEqual({
      text: 'Hi Ann, your code is 1234.',
      encoding: 'GSM-7',
      segments: 1,
      characters: 26,
      units: 26,
      mediaUrls: [],
    });
    const long = 'x'.repeat(70);
    const unicode = await preview('SMS', { text: `${long} 🎉 {{name}}` }, { name: 'Zoë' });
    expect(unicode.rendered).toMatchObject({ encoding: 'UCS-2', segments: 2, characters: 76, units: 77 });
  });

  it('renders calls, mobile and web push, and Slack text and blocks', async () => {
    const parameters = { name: 'Ann' };
    expect((await preview('CALL', { text: 'Hello {{name}}' }, parameters)).rendered).toEqual({
      text: 'Hello Ann',
    });
    expect((await preview('PUSH', { title: 'Hi {{name}}', message: 'New' }, parameters)).rendered).toEqual({
      title: 'Hi Ann',
      message: 'New',
    });
    expect(
      (
        await preview(
          'WEB_PUSH',
          { title: 'Hi', message: '{{name}}', icon: 'https://x.test/i.png', url: 'https://x.test/{{name}}' },
          parameters,
        )
      ).rendered,
    ).toEqual({ title: 'Hi', message: 'Ann', icon: 'https://x.test/i.png', url: 'https://x.test/Ann' });
    const slack = await preview(
      'SLACK',
      { text: 'Hi {{name}}', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*{{name}}*' } }] },
      parameters,
    );
    expect(slack.rendered).toEqual({
      text: 'Hi Ann',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*Ann*' } }],
    });
  });

  it("renders in-app's instant item and its digest item (the batch variant, else the instant one)", async () => {
    const answer = await preview(
      'INAPP_WEB',
      {
        title: 'unused',
        instant: { title: 'Hi {{name}}', redirectURL: '/a' },
        batch: { title: '{{count}} updates' },
      },
      { name: 'Ann', count: 3 },
    );
    expect(answer.rendered).toEqual({
      instant: { title: 'Hi Ann', redirectURL: '/a' },
      batch: { title: '3 updates' },
    });
    const flat = await preview('INAPP_WEB', { title: 'Hi {{name}}' }, { name: 'Bo' });
    expect(flat.rendered).toEqual({ instant: { title: 'Hi Bo' }, batch: { title: 'Hi Bo' } });
  });

  it('answers what does not render as problems naming the field, and renders the rest', async () => {
    const answer = await preview('EMAIL', {
      subject: 'Hi {{name}',
      html: '<p>{{#if ok}}yes</p>{{> nowhere}}',
      previewText: 'Fine {{name}}',
    });
    expect(answer.problems).toEqual([
      { field: 'subject', message: expect.stringContaining('syntax error on line 1') },
      { field: 'html', message: expect.stringContaining('syntax error on line 1') },
    ]);
    expect(answer.rendered).toEqual({ previewText: 'Fine [name]' });
    const partial = await preview('EMAIL', { html: '{{> nowhere}}' });
    expect(partial.problems).toEqual([{ field: 'html', message: 'unknown partial "nowhere"' }]);
    const inapp = await preview('INAPP_WEB', { batch: { title: '{{#each}}' } });
    expect(inapp.problems).toEqual([
      { field: 'batch.title', message: expect.stringMatching(/^syntax error/) },
    ]);
  });

  it('answers a render over its budget as a problem', async () => {
    const answer = await preview(
      'SMS',
      { text: '{{#each items}}{{#each ../items}}x{{/each}}{{/each}}' },
      { items: Array.from({ length: 400 }, (_, i) => i) },
    );
    expect(answer.problems).toEqual([{ field: 'text', message: 'more than 100000 block iterations' }]);
    expect(answer.rendered).toMatchObject({ text: '', segments: 0 });
  });

  it('stores nothing, and is 404 for a notification type the environment does not have', async () => {
    await preview('EMAIL', { subject: 'Draft' });
    expect((await h.templates.list(scope, 'welcome', 'EMAIL')).map((t) => t.subject).sort()).toEqual([
      'One',
      'Two',
    ]);
    expect(h.announced).toEqual([]);
    const elsewhere = useCase.execute({
      scope: aScope({ envId: 'env-2' }),
      notificationId: 'welcome',
      channel: 'SMS',
      body: { content: { text: 'x' } },
    });
    await expect(elsewhere).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a body without content, or content over its bounds', () => {
    expect(previewTemplateSchema.safeParse({}).success).toBe(false);
    expect(previewTemplateSchema.safeParse({ content: { subject: 'x'.repeat(2_001) } }).success).toBe(false);
    expect(previewTemplateSchema.safeParse({ content: {}, parameters: { a: 1 } }).success).toBe(true);
  });
});
