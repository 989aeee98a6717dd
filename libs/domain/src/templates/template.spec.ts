import { compactTemplateContent, type Template, withAnswerFields } from './template';

const NOW = '2026-01-01T00:00:00.000Z';

describe('template content', () => {
  it('stores an empty field as unset, and an in-app variant with nothing in it as no variant', () => {
    expect(
      compactTemplateContent({
        title: 'Hi',
        redirectURL: '',
        instant: { title: '', redirectURL: '', imageURL: '' },
        batch: { title: '{{count}} new', imageURL: '' },
        subject: '',
      }),
    ).toEqual({ title: 'Hi', batch: { title: '{{count}} new' } });
  });

  it('stores what an answer read back and written again had', () => {
    const stored: Template = {
      notificationId: 'n',
      channel: 'INAPP_WEB',
      templateId: 't',
      createdAt: NOW,
      updatedAt: NOW,
      title: 'Hello',
    };
    expect(compactTemplateContent(withAnswerFields(stored))).toEqual(stored);
  });
});
