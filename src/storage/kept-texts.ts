// SQL texts kept by their shape (the SQLite backend's search texts, whose shape varies with each query).

/**
 * SQL texts kept by their shape: built and hashed once, where a long text built for each request would be hashed
 * again at each look-up in the statement cache. A client's filters could make more shapes, so a set is bounded.
 */
export class KeptTexts<Shape> {
  private static readonly BOUND = 256;
  private readonly texts = new Map<Shape, string>();

  get(shape: Shape): string | undefined {
    return this.texts.get(shape);
  }

  keep(shape: Shape, text: string): string {
    if (this.texts.size >= KeptTexts.BOUND) this.texts.clear();
    this.texts.set(shape, text);
    return text;
  }
}
