import { InvalidRequestError } from '@notify/util';
import { type Component, type ComponentReference, MAX_COMPONENT_DEPTH } from './component';
import { componentsUsedByStored } from './component-partials';

/** Each component's id and the ids of the components its HTML uses. */
export type ComponentGraph = ReadonlyMap<string, readonly string[]>;

/** The graph of stored components, read from their HTML. */
export const componentGraphOf = (components: readonly Component[]): Map<string, readonly string[]> =>
  new Map(components.map((c) => [c.componentId, componentsUsedByStored(c.html)]));

const chain = (ids: readonly string[]) => ids.join(' → ');

/** A cycle through `from`, as the ids along it (first and last the same), or undefined. */
function cycleFrom(graph: ComponentGraph, from: string): string[] | undefined {
  const path: string[] = [];
  const onPath = new Set<string>();
  const done = new Set<string>();
  const visit = (id: string): string[] | undefined => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return undefined;
    path.push(id);
    onPath.add(id);
    for (const next of graph.get(id) ?? []) {
      const cycle = visit(next);
      if (cycle !== undefined) return cycle;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return undefined;
  };
  return visit(from);
}

/** The longest chain of nested components that runs through `through` (the graph has no cycle). */
function longestChainThrough(graph: ComponentGraph, through: string): string[] {
  const users = new Map<string, string[]>();
  for (const [id, uses] of graph) for (const used of uses) users.set(used, [...(users.get(used) ?? []), id]);
  const down = new Map<string, string[]>();
  const below = (id: string): string[] => {
    const known = down.get(id);
    if (known !== undefined) return known;
    const longest = (graph.get(id) ?? [])
      .map(below)
      .reduce<string[]>((a, b) => (b.length > a.length ? b : a), []);
    const result = [id, ...longest];
    down.set(id, result);
    return result;
  };
  const up = new Map<string, string[]>();
  const above = (id: string): string[] => {
    const known = up.get(id);
    if (known !== undefined) return known;
    const longest = (users.get(id) ?? [])
      .map(above)
      .reduce<string[]>((a, b) => (b.length > a.length ? b : a), []);
    const result = [...longest, id];
    up.set(id, result);
    return result;
  };
  return [...above(through), ...below(through).slice(1)];
}

const refuse = (code: string, message: string, fix: string) =>
  new InvalidRequestError({ code, message, fix });

/**
 * Refuses, before `changed` is saved with its new uses, a graph in which it uses a component that
 * does not exist, takes part in a cycle, or lies on a chain of more than MAX_COMPONENT_DEPTH nested
 * components; each message names the ids involved. The rest of the graph passed this check when
 * it was saved, so only chains through `changed` can be new.
 */
export function checkComponentGraph(graph: ComponentGraph, changed: string): void {
  const unknown = (graph.get(changed) ?? []).filter((id) => !graph.has(id));
  if (unknown.length > 0)
    throw refuse(
      'UNKNOWN_COMPONENT',
      `Component "${changed}" uses ${unknown.map((id) => `"${id}"`).join(', ')}, which does not exist.`,
      'Create the component first (POST /components), or remove the partial.',
    );
  const cycle = cycleFrom(graph, changed);
  if (cycle !== undefined)
    throw refuse(
      'COMPONENT_CYCLE',
      `Components would use each other in a cycle: ${chain(cycle)}.`,
      'Remove one of the partials in the cycle.',
    );
  const longest = longestChainThrough(graph, changed);
  if (longest.length > MAX_COMPONENT_DEPTH)
    throw refuse(
      'COMPONENT_TOO_DEEP',
      `Components would nest ${longest.length} deep (${chain(longest)}); at most ${MAX_COMPONENT_DEPTH} may.`,
      'Flatten the chain: inline one component into another.',
    );
}

/** Refuses to remove a component other components still use, naming them. */
export function checkComponentUnused(graph: ComponentGraph, removed: string): void {
  const users = [...graph].filter(([id, uses]) => id !== removed && uses.includes(removed)).map(([id]) => id);
  if (users.length > 0)
    throw refuse(
      'COMPONENT_IN_USE',
      `Component "${removed}" is used by component(s) ${users.map((id) => `"${id}"`).join(', ')}.`,
      `Remove {{> ${removed}}} from them first.`,
    );
}

/** Refuses to remove a component stored templates still use, naming them. */
export function checkComponentUnreferenced(
  removed: string,
  referencedBy: readonly ComponentReference[],
): void {
  if (referencedBy.length > 0)
    throw refuse(
      'COMPONENT_IN_USE',
      `Component "${removed}" is used by template(s) ${referencedBy
        .map((ref) => `"${ref.templateId}" (${ref.notificationId}, ${ref.channel})`)
        .join(', ')}.`,
      `Remove {{> ${removed}}} from them first (their referencedBy lists them).`,
    );
}

/** Refuses an email whose content uses components the environment does not have, naming them. */
export function unknownComponentsError(field: string, missing: readonly string[]): InvalidRequestError {
  return refuse(
    'UNKNOWN_COMPONENT',
    `${field} uses ${missing.map((id) => `"${id}"`).join(', ')}, which is not a component of this environment.`,
    'Create the component first (POST /components), or remove the partial.',
  );
}
