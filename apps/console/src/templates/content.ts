import type { Schemas } from '../api/client';

export type Template = Schemas['Template'];
export type Channel = Template['channel'];
/** A template's content as the API takes it (create, update, preview). */
export type TemplateContent = Omit<
  Template,
  | 'envId'
  | 'notificationId'
  | 'channel'
  | 'templateId'
  | 'createdAt'
  | 'updatedAt'
  | 'default'
  | 'isDefaultFor'
>;

/** How a field is edited: a line, a code editor (HTML or text with merge tags), or JSON. */
export type FieldKind = 'line' | 'html' | 'text' | 'json';
export interface FieldDef {
  /** The content's field, dotted for a nested one (`batch.title`), as preview problems name it. */
  name: string;
  label: string;
  kind: FieldKind;
}

/** The fields the console edits per channel: those each channel's sends render. */
export const CHANNEL_FIELDS: Record<Channel, readonly FieldDef[]> = {
  EMAIL: [
    { name: 'subject', label: 'Subject', kind: 'line' },
    { name: 'senderName', label: 'Sender name', kind: 'line' },
    { name: 'senderEmail', label: 'Sender email', kind: 'line' },
    { name: 'previewText', label: 'Preview text', kind: 'line' },
    { name: 'html', label: 'HTML', kind: 'html' },
  ],
  SMS: [{ name: 'text', label: 'Text', kind: 'text' }],
  CALL: [{ name: 'text', label: 'What the call says', kind: 'text' }],
  PUSH: [
    { name: 'title', label: 'Title', kind: 'line' },
    { name: 'message', label: 'Message', kind: 'text' },
  ],
  WEB_PUSH: [
    { name: 'title', label: 'Title', kind: 'line' },
    { name: 'message', label: 'Message', kind: 'text' },
    { name: 'icon', label: 'Icon URL', kind: 'line' },
    { name: 'url', label: 'Link URL', kind: 'line' },
  ],
  INAPP_WEB: [
    { name: 'title', label: 'Title', kind: 'text' },
    { name: 'redirectURL', label: 'Link URL', kind: 'line' },
    { name: 'imageURL', label: 'Image URL', kind: 'line' },
    { name: 'batch.title', label: 'Digest title', kind: 'line' },
    { name: 'batch.redirectURL', label: 'Digest link URL', kind: 'line' },
    { name: 'batch.imageURL', label: 'Digest image URL', kind: 'line' },
  ],
  SLACK: [
    { name: 'text', label: 'Text', kind: 'text' },
    { name: 'blocks', label: 'Blocks (JSON array)', kind: 'json' },
  ],
};

/** The editor's state: each field of the channel as text. */
export type Draft = Record<string, string>;

/** A stored template's fields as the editor shows them (unset is empty). */
export function draftOf(channel: Channel, template: Template): Draft {
  const draft: Draft = {};
  for (const { name, kind } of CHANNEL_FIELDS[channel]) {
    const value = read(template, name);
    draft[name] =
      kind === 'json'
        ? Array.isArray(value) && value.length > 0
          ? JSON.stringify(value, null, 2)
          : ''
        : typeof value === 'string'
          ? value
          : '';
  }
  return draft;
}

/**
 * The draft as content for the API, or the fields that are not valid. For saving, an empty field is
 * written as `""`, which clears it; a preview leaves it out (unset).
 */
export function contentOf(
  channel: Channel,
  draft: Draft,
  purpose: 'save' | 'preview',
): { content: TemplateContent; invalid: { field: string; message: string }[] } {
  const content: Record<string, unknown> = {};
  const invalid: { field: string; message: string }[] = [];
  for (const { name, kind } of CHANNEL_FIELDS[channel]) {
    const text = draft[name] ?? '';
    if (kind === 'json') {
      if (text.trim() === '') {
        if (purpose === 'save') write(content, name, []);
        continue;
      }
      const parsed = parseJson(text);
      if (Array.isArray(parsed)) write(content, name, parsed);
      else invalid.push({ field: name, message: 'is not a JSON array' });
      continue;
    }
    if (text !== '' || purpose === 'save') write(content, name, text);
  }
  return { content: content as TemplateContent, invalid };
}

/** The line a problem's message names (`syntax error on line 2`), to mark it in the editor. */
export function problemLine(message: string): number | undefined {
  const match = /\bline (\d+)\b/.exec(message);
  return match === null ? undefined : Number(match[1]);
}

function read(source: object, dotted: string): unknown {
  let value: unknown = source;
  for (const key of dotted.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function write(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  const last = keys.pop() as string;
  let node = target;
  for (const key of keys) {
    const next = node[key];
    node[key] = typeof next === 'object' && next !== null ? next : {};
    node = node[key] as Record<string, unknown>;
  }
  node[last] = value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
