// Checks a parsed `fields` tree against the resource definitions and resolves it into a Selection.
import { ApiError } from '../errors.js';
import { representedFields, type ResourceDef } from '../resources/definition.js';
import { perDefinition } from '../resources/per-definition.js';
import { parseFields, type FieldNode } from './fields.js';

/** What to render of an item: scalar fields, and nested selections of associations. */
export interface Selection {
  readonly scalars: readonly string[];
  /** Associations to render, each with the element name of one target item (`dog`) and its own selection. */
  readonly associations: ReadonlyArray<{
    readonly name: string;
    readonly element: string;
    readonly selection: Selection;
  }>;
  /** The order the fields were asked for, scalars and associations mixed. */
  readonly order: readonly string[];
  /** The whole default representation: an item read from storage is already exactly that. */
  readonly whole?: boolean;
}

export type ResourceLookup = (name: string) => ResourceDef | undefined;

/** The selection of a plain GET: every field of the default representation, no association (one per resource). */
export const defaultSelection = perDefinition((def: ResourceDef): Selection => {
  const scalars = representedFields(def);
  return Object.freeze({ scalars, associations: [], order: scalars, whole: true });
});

/** Parses and checks `fields`; a 400 lists the valid fields at the level of the mistake. */
export function resolveFields(def: ResourceDef, text: string, lookup: ResourceLookup): Selection {
  const parsed = parseFields(text);
  if (!parsed.ok) {
    const level = defAtPath(def, parsed.path, lookup);
    const name = parsed.kind === 'depth' ? 'fieldsTooDeep' : 'fieldsInvalid';
    throw new ApiError(name, `The fields parameter is not valid: ${parsed.problem}. ${validFieldsHint(level)}`);
  }
  return resolveNodes(def, parsed.nodes, lookup);
}

function resolveNodes(def: ResourceDef, nodes: readonly FieldNode[], lookup: ResourceLookup): Selection {
  const represented = representedFields(def);
  const scalars: string[] = [];
  const associations: Array<{ name: string; element: string; selection: Selection }> = [];
  for (const node of nodes) {
    // Own properties only: a name such as constructor or toString must not find Object.prototype's.
    const association = Object.hasOwn(def.associations, node.name) ? def.associations[node.name] : undefined;
    if (association) {
      const target = lookup(association.target);
      if (!target) throw new Error(`resource ${association.target} is not defined`);
      const selection = node.children ? resolveNodes(target, node.children, lookup) : defaultSelection(target);
      associations.push({ name: node.name, element: target.singular, selection });
    } else if (represented.includes(node.name)) {
      if (node.children) {
        throw new ApiError(
          'fieldsInvalid',
          `The fields parameter is not valid: "${node.name}" is not an association, so it takes no nested ` +
            `selection in parentheses. ${validFieldsHint(def)}`,
        );
      }
      scalars.push(node.name);
    } else {
      throw new ApiError(
        'fieldsInvalid',
        `The fields parameter names "${node.name}", which ${def.name} do not have. ${validFieldsHint(def)}`,
      );
    }
  }
  return { scalars, associations, order: nodes.map((node) => node.name) };
}

function defAtPath(def: ResourceDef, path: readonly string[], lookup: ResourceLookup): ResourceDef {
  let current = def;
  for (const name of path) {
    const association = Object.hasOwn(current.associations, name) ? current.associations[name] : undefined;
    const target = association && lookup(association.target);
    if (!target) return current;
    current = target;
  }
  return current;
}

function validFieldsHint(def: ResourceDef): string {
  const names = [...representedFields(def), ...Object.keys(def.associations)];
  return `Valid fields of ${def.name}: ${names.join(', ')}.`;
}
