import { slackLines, smsFacts, text } from './preview';

describe('smsFacts', () => {
  it('says the encoding, segments and characters, singular or plural', () => {
    expect(smsFacts({ encoding: 'GSM-7', segments: 1, characters: 1 })).toBe(
      'GSM-7 · 1 segment · 1 character',
    );
    expect(smsFacts({ encoding: 'UCS-2', segments: 2, characters: 80 })).toBe(
      'UCS-2 · 2 segments · 80 characters',
    );
  });
});

describe('slackLines', () => {
  it('reads headers, sections with fields, context elements, images, buttons and dividers', () => {
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Order shipped' } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*7* items' },
        fields: [{ type: 'mrkdwn', text: 'A' }],
      },
      { type: 'divider' },
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: 'by us' },
          { type: 'image', alt_text: 'logo' },
        ],
      },
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Track' } }] },
      { type: 'image', image_url: 'https://x/y.png', alt_text: 'map' },
    ];
    expect(slackLines(blocks)).toEqual([
      { kind: 'header', text: 'Order shipped' },
      { kind: 'section', text: '*7* items\nA' },
      { kind: 'divider', text: '———' },
      { kind: 'context', text: 'by us\n[image: logo]' },
      { kind: 'actions', text: 'Track' },
      { kind: 'image', text: '[image: map]' },
    ]);
  });

  it('is empty for anything but an array, and names a block without a type plainly', () => {
    expect(slackLines(undefined)).toEqual([]);
    expect(slackLines([7])).toEqual([{ kind: 'block', text: '' }]);
  });
});

describe('text', () => {
  it('is a string field or nothing', () => {
    expect(text('a')).toBe('a');
    expect(text(3)).toBeUndefined();
  });
});
