// Parses the `fields` grammar `a,b(c,d(e))` into a selection tree; pure, no knowledge of resources.

export interface FieldNode {
  readonly name: string;
  /** The nested selection in parentheses, if any. */
  readonly children?: readonly FieldNode[];
}

const MAX_FIELDS_DEPTH = 4;

export type FieldsParseResult =
  { ok: true; nodes: FieldNode[] } | { ok: false; kind: 'syntax' | 'depth'; problem: string; path: string[] };

/**
 * Parses a fields selection. `path` on a failure names the associations enclosing the
 * place of the error, so the caller can list the valid fields at that level.
 */
export function parseFields(text: string): FieldsParseResult {
  const parser = new Parser(text);
  try {
    const nodes = parser.selection(0, []);
    if (parser.pos < text.length) parser.fail(`unexpected "${text[parser.pos]}" at character ${parser.pos + 1}`, []);
    return { ok: true, nodes };
  } catch (error) {
    if (error instanceof FieldsError) return { ok: false, kind: error.kind, problem: error.message, path: error.path };
    throw error;
  }
}

class FieldsError extends Error {
  constructor(
    readonly kind: 'syntax' | 'depth',
    message: string,
    readonly path: string[],
  ) {
    super(message);
  }
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

class Parser {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(problem: string, path: string[], kind: 'syntax' | 'depth' = 'syntax'): never {
    throw new FieldsError(kind, problem, path);
  }

  /** selection := item (',' item)* — returns the items, merging repeats of a name. */
  selection(depth: number, path: string[]): FieldNode[] {
    const nodes: FieldNode[] = [];
    do {
      this.skipSpaces();
      const node = this.item(depth, path);
      const previous = nodes.findIndex((existing) => existing.name === node.name);
      if (previous === -1) nodes.push(node);
      else nodes[previous] = mergeNodes(nodes[previous]!, node);
      this.skipSpaces();
    } while (this.eat(','));
    return nodes;
  }

  /** item := name ('(' selection ')')? */
  private item(depth: number, path: string[]): FieldNode {
    NAME.lastIndex = this.pos;
    const match = NAME.exec(this.text);
    if (!match) {
      const found = this.pos < this.text.length ? `"${this.text[this.pos]}"` : 'the end';
      this.fail(`expected a field name at character ${this.pos + 1} but found ${found}`, path);
    }
    const name = match[0];
    this.pos = NAME.lastIndex;
    this.skipSpaces();
    if (!this.eat('(')) return { name };
    if (depth + 1 > MAX_FIELDS_DEPTH) {
      this.fail(`the selection nests more than ${MAX_FIELDS_DEPTH} levels deep at "${name}("`, path, 'depth');
    }
    const children = this.selection(depth + 1, [...path, name]);
    if (!this.eat(')')) {
      const found = this.pos < this.text.length ? `"${this.text[this.pos]}"` : 'the end';
      this.fail(`expected "," or ")" at character ${this.pos + 1} but found ${found}`, [...path, name]);
    }
    return { name, children };
  }

  private eat(char: string): boolean {
    if (this.text[this.pos] !== char) return false;
    this.pos += 1;
    return true;
  }

  private skipSpaces(): void {
    while (this.text[this.pos] === ' ') this.pos += 1;
  }
}

function mergeNodes(a: FieldNode, b: FieldNode): FieldNode {
  if (!a.children && !b.children) return a;
  const children = [...(a.children ?? [])];
  for (const child of b.children ?? []) {
    const index = children.findIndex((existing) => existing.name === child.name);
    if (index === -1) children.push(child);
    else children[index] = mergeNodes(children[index]!, child);
  }
  return { name: a.name, children };
}
