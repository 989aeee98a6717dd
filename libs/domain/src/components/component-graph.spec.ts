import {
  checkComponentGraph,
  checkComponentRuns,
  checkComponentUnreferenced,
  checkComponentUnused,
  componentGraphOf,
} from './component-graph';
import { type Component, MAX_COMPONENT_DEPTH } from './component';

const graph = (entries: Record<string, string[]>) => new Map(Object.entries(entries));

const refusal = (check: () => void) => {
  try {
    check();
  } catch (error) {
    return error as { code: string; message: string; kind: string };
  }
  throw new Error('not refused');
};

describe('checkComponentGraph', () => {
  it('accepts a component whose uses exist and nest within the bound', () => {
    expect(() => checkComponentGraph(graph({ a: ['b', 'c'], b: ['c'], c: [] }), 'a')).not.toThrow();
  });

  it('refuses a component using one that does not exist, naming it', () => {
    const error = refusal(() => checkComponentGraph(graph({ a: ['b', 'ghost'], b: [] }), 'a'));
    expect(error).toMatchObject({ code: 'UNKNOWN_COMPONENT', kind: 'invalid' });
    expect(error.message).toContain('"ghost"');
    expect(error.message).not.toContain('"b"');
  });

  it('refuses a cycle, naming the ids along it', () => {
    expect(refusal(() => checkComponentGraph(graph({ a: ['b'], b: ['a'] }), 'b'))).toMatchObject({
      code: 'COMPONENT_CYCLE',
      message: 'Components would use each other in a cycle: b → a → b.',
    });
    expect(refusal(() => checkComponentGraph(graph({ a: ['a'] }), 'a')).message).toContain('a → a');
    expect(
      refusal(() => checkComponentGraph(graph({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }), 'c')).message,
    ).toContain('c → a → b → c');
  });

  it('refuses a chain deeper than the bound through the changed component, above and below it', () => {
    const ids = Array.from({ length: MAX_COMPONENT_DEPTH + 1 }, (_, i) => `c${i}`);
    const chain = Object.fromEntries(ids.map((id, i) => [id, i + 1 < ids.length ? [ids[i + 1] ?? ''] : []]));
    const middle = ids[4] ?? '';
    const error = refusal(() => checkComponentGraph(graph(chain), middle));
    expect(error.code).toBe('COMPONENT_TOO_DEEP');
    expect(error.message).toContain(ids.join(' → '));
    const withinBound = Object.fromEntries(Object.entries(chain).filter(([id]) => id !== ids[0]));
    expect(() => checkComponentGraph(graph(withinBound), middle)).not.toThrow();
  });

  it('checks a change beside a stored cycle (concurrent saves could store one) without recursing', () => {
    const stored = graph({ a: ['b', 'd'], b: ['a'], d: [] });
    expect(() => checkComponentGraph(stored, 'd')).not.toThrow();
  });

  it('refuses components that would run more than the bound of components per render, empty ones too', () => {
    const tens = (next: string) => Array.from({ length: 10 }, () => next);
    const within = graph({ c1: tens('c2'), c2: tens('c3'), c3: [] });
    expect(() => checkComponentGraph(within, 'c3')).not.toThrow();
    const over = graph({ c0: tens('c1'), c1: tens('c2'), c2: tens('c3'), c3: [] });
    const error = refusal(() => checkComponentGraph(over, 'c0'));
    expect(error).toMatchObject({ code: 'TOO_MANY_COMPONENT_CALLS' });
    expect(error.message).toContain('Component "c0" would run more than 1000 components');
    // A change below counts for the components above it.
    expect(refusal(() => checkComponentGraph(over, 'c3')).code).toBe('TOO_MANY_COMPONENT_CALLS');
  });

  it("refuses a template's HTML whose calls run too many components, naming its field", () => {
    const components = graph({ c1: Array.from({ length: 100 }, () => 'c2'), c2: [] });
    expect(() =>
      checkComponentRuns(components, ['c1', 'c1', 'c1', 'c1', 'c1', 'c1', 'c1', 'c1', 'c1'], 'html'),
    ).not.toThrow();
    expect(
      refusal(() =>
        checkComponentRuns(
          components,
          Array.from({ length: 10 }, () => 'c1'),
          'html',
        ),
      ).message,
    ).toMatch(/^html would run more than 1000 components/);
  });
});

describe('checkComponentUnused and checkComponentUnreferenced', () => {
  it('refuse to remove a component other components or templates use, naming them', () => {
    const users = refusal(() => checkComponentUnused(graph({ a: ['c'], b: ['c'], c: [] }), 'c'));
    expect(users).toMatchObject({ code: 'COMPONENT_IN_USE' });
    expect(users.message).toContain('"a", "b"');
    expect(() => checkComponentUnused(graph({ a: ['c'], c: [] }), 'a')).not.toThrow();
    const templates = refusal(() =>
      checkComponentUnreferenced('c', [{ notificationId: 'welcome', channel: 'EMAIL', templateId: 'tpl-1' }]),
    );
    expect(templates).toMatchObject({ code: 'COMPONENT_IN_USE' });
    expect(templates.message).toContain('"tpl-1" (welcome, EMAIL)');
    expect(() => checkComponentUnreferenced('c', [])).not.toThrow();
  });
});

describe('componentGraphOf', () => {
  it("reads each stored component's uses from its HTML", () => {
    const component = (componentId: string, html: string): Component => ({
      componentId,
      name: componentId,
      internal: '',
      internalPage: '',
      html,
      createdAt: 't',
      modifiedAt: 't',
    });
    expect([...componentGraphOf([component('a', '{{> b}}{{> c}}'), component('b', 'plain')])]).toEqual([
      ['a', ['b', 'c']],
      ['b', []],
    ]);
  });
});
