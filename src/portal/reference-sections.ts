// The reference's last sections: the CORS preflights (OPTIONS) of every path, described once with a table of what
// each path allows; the answers operations share; the answer headers and the schemas, each described once.
import type { JsonObject } from '../openapi/json-schema.js';
import { escapeHtml } from './html.js';
import type { OperationContext } from './reference-examples.js';
import type { ReferenceModel } from './reference-model.js';
import {
  answerCells,
  answersHtml,
  fieldsTable,
  methodBadge,
  parametersHtml,
  proseHtml,
  table,
  typeHtml,
} from './reference-operation.js';
import { fieldsOf, refName, resolve, rulesOf, typeOf } from './reference-schema.js';

export function preflightsHtml(context: OperationContext, model: ReferenceModel): string {
  const { preflight, preflights } = model;
  if (!preflight) return '';
  const ids = preflights.flatMap((row) => row.operations.map((operation) => operation.id)).join(' ');
  const rows = preflights
    .map(
      (row) =>
        `<tr><td data-label="Path">${row.operations
          .map((operation) => `<code id="${escapeHtml(operation.id)}">${escapeHtml(operation.path)}</code>`)
          .join(' ')}</td><td data-label="Allows">${escapeHtml(row.allow)}</td></tr>`,
    )
    .join('\n');
  return `<section class="tag-group" id="preflights" aria-labelledby="preflights-title" data-operations="${escapeHtml(ids)}">
<h2 id="preflights-title">CORS preflights</h2>
<div class="op">
<h3 class="op-title">${methodBadge('options')} <code class="op-path">every path</code> <span class="op-summary">${escapeHtml(String(preflight.operation.summary ?? ''))}</span></h3>
${proseHtml(String(preflight.operation.description ?? ''))}
<p>Browsers send these themselves; they are the same on every path but for the methods each path allows:</p>
<div class="table-wrap"><table class="spec"><caption class="sr-only">The methods each path allows</caption>
<thead><tr><th scope="col">Path</th><th scope="col">Allows</th></tr></thead><tbody>
${rows}
</tbody></table></div>
${parametersHtml(context, preflight.parameters)}
${answersHtml(context, preflight.operation)}
</div>
</section>`;
}

export function headersHtml(context: OperationContext): string {
  const headers = ((context.document.components as JsonObject | undefined)?.headers ?? {}) as Record<string, unknown>;
  const items = Object.entries(headers).map(([name, given]) => {
    const header = resolve(context.document, given);
    const schema = (header.schema ?? {}) as JsonObject;
    const rules = rulesOf(context.document, schema);
    const example = header.example === undefined ? '' : ` Example: <code>${escapeHtml(String(header.example))}</code>.`;
    return `<dt id="header-${escapeHtml(name)}"><code>${escapeHtml(name)}</code> <span class="hint">${escapeHtml(
      [typeOf(context.document, schema), ...rules].join(', '),
    )}</span></dt>
<dd>${proseHtml(String(header.description ?? ''))}${example ? `<p>${example.trim()}</p>` : ''}</dd>`;
  });
  const common = [...context.commonHeaders].map(
    (name) => `<a href="#header-${escapeHtml(name)}"><code>${escapeHtml(name)}</code></a>`,
  );
  return `<section class="tag-group" id="headers" aria-labelledby="headers-title">
<h2 id="headers-title">Answer headers</h2>
<p id="common-headers">The common ones, which every answer of the operations above carries (the preflights' excepted):
${common.join(', ')}. The others come with the answers that name them. Each is described once here.</p>
<dl class="header-list card">
${items.join('\n')}
</dl>
</section>`;
}

/** The answers the operations on the page name from the document's components, each described once. */
export function sharedAnswersHtml(context: OperationContext, model: ReferenceModel): string {
  const views = [...model.groups.flatMap((group) => group.operations), ...(model.preflight ? [model.preflight] : [])];
  const shared = new Map<string, string>();
  for (const view of views)
    for (const [status, given] of Object.entries((view.operation.responses ?? {}) as Record<string, unknown>)) {
      const name = refName(given);
      if (name && !shared.has(name)) shared.set(name, status);
    }
  const rows = [...shared]
    .sort(([, a], [, b]) => a.localeCompare(b))
    .map(([name, status]) => {
      const [badge, description, headers] = answerCells(
        context,
        status,
        resolve(context.document, { $ref: `#/components/responses/${name}` }),
      );
      return [`<span id="answer-${escapeHtml(name)}">${badge}</span>`, description!, headers!];
    });
  return `<section class="tag-group" id="answers" aria-labelledby="answers-title">
<h2 id="answers-title">Common answers</h2>
<p>Answers many operations share: an error answer's body is the same <code>Error</code> document everywhere, and its
<code>code</code> is explained on the <a href="${escapeHtml(context.prefix)}/errors">error codes</a> page.</p>
${table('Common answers', ['Status', 'Description', 'Headers'], rows)}
</section>`;
}

/**
 * The schemas the document names (components), each described once with its fields: the bodies' and answers' type
 * names on the page link here.
 */
export function schemasHtml(context: OperationContext): string {
  const schemas = ((context.document.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, unknown>;
  const items = Object.entries(schemas).map(([name, given]) => {
    const schema = resolve(context.document, given);
    const fields = fieldsOf(context.document, schema);
    const shape =
      fields.length > 0
        ? fieldsTable(context, `The fields of ${escapeHtml(name)}`, fields)
        : `<p>Type: <code class="type">${typeHtml(context, schema)}</code>${rulesOf(context.document, schema)
            .map((rule) => `, ${escapeHtml(rule)}`)
            .join('')}.</p>`;
    return `<div class="op schema" id="schema-${escapeHtml(name)}">
<h3 class="op-title"><code class="op-path">${escapeHtml(name)}</code></h3>
${proseHtml(String(schema.description ?? ''))}
${shape}
</div>`;
  });
  return `<section class="tag-group" id="schemas" aria-labelledby="schemas-title">
<h2 id="schemas-title">Schemas</h2>
<p>The bodies the operations above send and answer, each described once: a field marked required is always there.</p>
${items.join('\n')}
</section>`;
}
