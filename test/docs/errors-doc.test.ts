import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { catalogueEntries } from '../../src/errors.js';
import { ERROR_DOC_PATH, REGENERATE_COMMAND, exampleLine, renderErrorDoc } from '../../scripts/gen-error-docs.js';

test('docs/errors.md is what the generator makes of the catalogue now', () => {
  const committed = fs.existsSync(ERROR_DOC_PATH) ? fs.readFileSync(ERROR_DOC_PATH, 'utf8') : '';
  assert.ok(
    committed === renderErrorDoc(),
    `docs/errors.md is out of date with the error catalogue in src/errors.ts. Run \`${REGENERATE_COMMAND}\` and commit the result.`,
  );
});

test('the generated document has a table row and a section for every code', () => {
  const doc = renderErrorDoc();
  for (const entry of catalogueEntries()) {
    assert.match(doc, new RegExp(`^\\| \\[${entry.code}\\]\\(#${entry.code}-[^)]+\\) \\| ${entry.status} \\| \`${entry.name}\` \\|`, 'm'), `row of ${entry.code}`);
    assert.ok(doc.includes(`\n### ${entry.code} ${entry.title}\n`), `section of ${entry.code}`);
    assert.ok(doc.includes(entry.explanation), `explanation of ${entry.code}`);
    assert.ok(doc.includes(`\n${exampleLine(entry)}\n`), `example of ${entry.code}`);
  }
});

test('the generator is deterministic', () => {
  assert.equal(renderErrorDoc(), renderErrorDoc());
});
