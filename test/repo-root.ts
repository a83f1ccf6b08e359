// The repository's root folder, for tests that read its files or run its tools: the nearest folder above this module
// with a package.json. The same whether the tests run from their TypeScript (tsx) or from the compiled copy that
// npm test runs (.test-build/test/…), whose own folder has no package.json.
import fs from 'node:fs';
import path from 'node:path';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const REPO_ROOT = findRoot(import.meta.dirname);
