import { contentOf, draftOf, problemLine, type Template } from './content';

const stored = (fields: Partial<Template>): Template => ({
  envId: 'env',
  notificationId: 'welcome',
  channel: 'EMAIL',
  templateId: 'main',
  createdAt: '2026-11-26T00:00:00.000Z',
  updatedAt: '2026-11-26T00:00:00.000Z',
  default: true,
  isDefaultFor: { instant: true },
  ...fields,
});

describe('draftOf', () => {
  it("shows each of the channel's fields as text, unset ones empty", () => {
    expect(draftOf('EMAIL', stored({ subject: 'Hi {{name}}', html: '<p>x</p>' }))).toEqual({
      subject: 'Hi {{name}}',
      senderName: '',
      senderEmail: '',
      previewText: '',
      html: '<p>x</p>',
    });
  });

  it('reads nested fields and shows Slack blocks as indented JSON', () => {
    expect(draftOf('INAPP_WEB', stored({ title: 'T', batch: { title: 'B' } }))['batch.title']).toBe('B');
    expect(draftOf('SLACK', stored({ text: 't', blocks: [{ type: 'divider' }] }))).toEqual({
      text: 't',
      blocks: '[\n  {\n    "type": "divider"\n  }\n]',
    });
  });
});

describe('contentOf', () => {
  it('writes every field for saving, an empty one as "" so it is cleared', () => {
    expect(contentOf('PUSH', { title: 'T', message: '' }, 'save')).toEqual({
      content: { title: 'T', message: '' },
      invalid: [],
    });
  });

  it('leaves empty fields out of a preview, and nests dotted ones', () => {
    expect(
      contentOf('INAPP_WEB', { title: 'T', 'batch.title': 'B', 'batch.imageURL': '' }, 'preview'),
    ).toEqual({
      content: { title: 'T', batch: { title: 'B' } },
      invalid: [],
    });
  });

  it('parses JSON blocks, and names the field when they are not a JSON array', () => {
    expect(contentOf('SLACK', { text: '', blocks: '[{"type":"divider"}]' }, 'preview').content).toEqual({
      blocks: [{ type: 'divider' }],
    });
    expect(contentOf('SLACK', { text: 'x', blocks: '{"type":' }, 'save').invalid).toEqual([
      { field: 'blocks', message: 'is not a JSON array' },
    ]);
    expect(contentOf('SLACK', { text: 'x', blocks: ' ' }, 'save').content).toEqual({ text: 'x', blocks: [] });
  });
});

describe('problemLine', () => {
  it('reads the line a problem names, if any', () => {
    expect(problemLine('syntax error on line 12')).toBe(12);
    expect(problemLine('unknown partial "footer"')).toBeUndefined();
  });
});
