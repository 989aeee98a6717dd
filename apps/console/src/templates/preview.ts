/** A rendered field as text: what the preview answered, or nothing when the content left it unset. */
export const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** An SMS's length as a carrier counts it, in words: "GSM-7 · 2 segments · 170 characters". */
export function smsFacts(rendered: Record<string, unknown>): string {
  const segments = Number(rendered['segments'] ?? 0);
  const characters = Number(rendered['characters'] ?? 0);
  return [
    String(rendered['encoding'] ?? ''),
    `${segments} ${segments === 1 ? 'segment' : 'segments'}`,
    `${characters} ${characters === 1 ? 'character' : 'characters'}`,
  ].join(' · ');
}

/** One Slack block as a reader sees it: its kind and its text, not Slack's own layout. */
export interface SlackLine {
  kind: string;
  text: string;
}

/**
 * Slack blocks as readable lines: a header, a section's text and fields, a context's elements, an
 * image's alt text, a button's label; a divider is a line of its own.
 */
export function slackLines(blocks: unknown): SlackLine[] {
  if (!Array.isArray(blocks)) return [];
  return blocks.map((block): SlackLine => {
    const b = isObject(block) ? block : {};
    const kind = typeof b['type'] === 'string' ? b['type'] : 'block';
    const parts = [
      textOf(b['text']),
      ...list(b['fields']).map(textOf),
      ...list(b['elements']).map(textOf),
      typeof b['alt_text'] === 'string' ? `[image: ${b['alt_text']}]` : undefined,
    ].filter((part): part is string => part !== undefined && part !== '');
    return { kind, text: kind === 'divider' ? '———' : parts.join('\n') };
  });
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!isObject(value)) return undefined;
  if (typeof value['text'] === 'string') return value['text'];
  if (isObject(value['text'])) return textOf(value['text']);
  if (typeof value['alt_text'] === 'string') return `[image: ${value['alt_text']}]`;
  return undefined;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
