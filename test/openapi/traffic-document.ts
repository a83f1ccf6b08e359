// One OpenAPI document as the replay reads it: its path templates, references and compiled body schemas.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Json } from './document-helper.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** What checking one exchange found: left out (with the reason), a mismatch (kind and detail), or neither. */
export interface Outcome {
  excluded?: string;
  kind?: string;
  detail?: string;
}

interface Template {
  path: string;
  pattern: RegExp;
  /** Literal characters: a concrete path wins over a templated one (OpenAPI's matching rule). */
  weight: number;
}

/** A path template as a pattern: a parameter is one segment, and the last one never holds a dot (a format suffix). */
function templateOf(path: string): Template {
  const parts = path.split(/(\{[^}]+\})/);
  let source = '';
  parts.forEach((part, index) => {
    if (!part.startsWith('{')) source += part.replace(/[.*+?^$()[\]\\|]/g, '\\$&');
    else
      source +=
        index === parts.length - 2 && parts.at(-1) === '' && parts[index - 1]!.endsWith('/') ? '[^/.]+' : '[^/]+';
  });
  return { path, pattern: new RegExp(`^${source}$`), weight: path.replace(/\{[^}]+\}/g, '').length };
}

export class VersionDocument {
  readonly templates: Template[];
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv: Ajv2020;

  constructor(readonly document: Json) {
    this.templates = Object.keys(document.paths)
      .map(templateOf)
      .sort((a, b) => b.weight - a.weight);
    this.ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));
    this.ajv.addSchema({ $id: 'https://openapi.test/schemas', $defs: rewire(document.components?.schemas ?? {}) });
  }

  match(path: string): string | undefined {
    return this.templates.find((template) => template.pattern.test(path))?.path;
  }

  resolve(value: Json): Json {
    let node = value;
    while (typeof node?.$ref === 'string') {
      node = (node.$ref as string)
        .slice(2)
        .split('/')
        .reduce<Json>((at, key) => at[key.replaceAll('~1', '/').replaceAll('~0', '~')], this.document);
    }
    return node;
  }

  validator(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(rewire(schema));
      this.validators.set(key, validate);
    }
    return validate;
  }
}

function rewire(schema: Json): Json {
  return JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/schemas/', '"https://openapi.test/schemas#/$defs/'),
  );
}

export function schemaName(schema: Json): string {
  return typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : 'inline schema';
}
