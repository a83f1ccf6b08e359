// Values derived from a definition (a resource or an association), built on first use and kept: definitions never
// change.

/**
 * `build` once per key: select lists, SQL texts, default selections. Any further arguments must
 * follow from the key (they are not part of the cache key).
 */
export function perDefinition<K extends object, A extends unknown[], T>(
  build: (key: K, ...rest: A) => T,
): (key: K, ...rest: A) => T {
  const built = new Map<K, T>();
  return (key, ...rest) => {
    let value = built.get(key);
    if (value === undefined) {
      value = build(key, ...rest);
      built.set(key, value);
    }
    return value;
  };
}
