// One operation of the reference as HTML: method and path, what it does, its parameters, request body, answers and an
// example, then its "try it" form. Every text of the document is escaped.
import { STATUS_CODES } from 'node:http';
import type { JsonObject } from '../openapi/json-schema.js';
import { escapeHtml } from './html.js';
import { answerExample, curlOf, securityOf, type OperationContext } from './reference-examples.js';
import type { OperationView } from './reference-model.js';
import { fieldsOf, refName, resolve, rulesOf, typeOf, type Field } from './reference-schema.js';
import { tryItHtml } from './reference-try-it.js';

export function operationHtml(context: OperationContext, view: OperationView): string {
  const { operation } = view;
  const ids = [view.id, ...view.twins.map((twin) => twin.id)].join(' ');
  const body = resolve(context.document, operation.requestBody);
  return `<section class="op" id="${escapeHtml(view.id)}" aria-labelledby="${escapeHtml(view.id)}-title" data-operations="${escapeHtml(ids)}">
<h3 id="${escapeHtml(view.id)}-title" class="op-title">${methodBadge(view.method)} <code class="op-path">${escapeHtml(view.path)}</code>
<span class="op-summary">${escapeHtml(String(operation.summary ?? ''))}</span>${operation.deprecated ? ' <span class="tag-deprecated">deprecated</span>' : ''}</h3>
${proseHtml(String(operation.description ?? ''))}
<p class="op-meta">${securityText(context, operation)}${twinsText(view)}</p>
${parametersHtml(context, view.parameters)}
${operation.requestBody ? requestBodyHtml(context, body) : ''}
${answersHtml(context, operation)}
${exampleHtml(context, view, body)}
${tryItHtml(context, view, body)}
</section>`;
}

export function methodBadge(method: string): string {
  return `<span class="method m-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span>`;
}

/** The document's text (CommonMark in OpenAPI): paragraphs, "- " lists and `code`; everything else stays text. */
export function proseHtml(text: string): string {
  const inline = (line: string) => escapeHtml(line).replace(/`([^`]+)`/g, '<code>$1</code>');
  return text
    .split(/\n{2,}/)
    .filter((block) => block.trim() !== '')
    .map((block) =>
      /^- /.test(block)
        ? `<ul>${block
            .split(/\n(?=- )/)
            .map((item) => `<li>${inline(item.replace(/^- /, ''))}</li>`)
            .join('')}</ul>`
        : `<p>${inline(block)}</p>`,
    )
    .join('\n');
}

function securityText(context: OperationContext, operation: JsonObject): string {
  const requirements = securityOf(context, operation);
  const scopes = [...new Set(requirements.flatMap((requirement) => Object.values(requirement).flat()))];
  if (requirements.length === 0) return '<span class="open">Open: no token needed.</span>';
  return `Needs an access token${scopes.length > 0 ? ` with the ${scopes.map((scope) => `<code>${escapeHtml(String(scope))}</code>`).join(', ')} scope` : ''}.`;
}

function twinsText(view: OperationView): string {
  if (view.twins.length === 0) return '';
  const twins = view.twins.map(
    (twin) =>
      `<code id="${escapeHtml(twin.id)}" title="${escapeHtml(twin.note)}">${escapeHtml(`${twin.method.toUpperCase()} ${twin.path}`)}</code>`,
  );
  return ` Also at ${twins.join(', ')}: the same operation, answering only the suffix's format.`;
}

/** A table whose cells carry their column's name, so that a narrow screen can show each row as a card. */
export function table(caption: string, columns: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = columns.map((column) => `<th scope="col">${column}</th>`).join('');
  const body = rows
    .map((cells) => `<tr>${cells.map((cell, i) => `<td data-label="${columns[i]}">${cell}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="table-wrap"><table class="spec"><caption class="sr-only">${caption}</caption><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div>`;
}

/** A schema's name as a link to its description in the page's Schemas section (schemasHtml). */
function schemaLink(name: string): string {
  return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
}

/** The type in words, as HTML: each named schema a link to its description. */
export function typeHtml(context: OperationContext, schema: JsonObject): string {
  return typeOf(context.document, schema, schemaLink, escapeHtml);
}

function typeCell(context: OperationContext, schema: JsonObject): string {
  const rules = rulesOf(context.document, schema);
  return `<code class="type">${typeHtml(context, schema)}</code>${rules.length > 0 ? `<ul class="rules">${rules.map((rule) => `<li>${escapeHtml(rule)}</li>`).join('')}</ul>` : ''}`;
}

function nameCell(name: string, required: boolean): string {
  return `<code class="name">${escapeHtml(name)}</code>${required ? ' <span class="required">required</span>' : ''}`;
}

export function parametersHtml(context: OperationContext, parameters: readonly JsonObject[]): string {
  if (parameters.length === 0) return '<h4>Parameters</h4>\n<p class="muted">None.</p>';
  const rows = parameters.map((parameter) => [
    nameCell(String(parameter.name), parameter.required === true),
    escapeHtml(String(parameter.in)),
    typeCell(context, (parameter.schema ?? {}) as JsonObject),
    proseHtml(String(parameter.description ?? '')),
  ]);
  return `<h4>Parameters</h4>\n${table('Parameters', ['Name', 'In', 'Type and rules', 'Description'], rows)}`;
}

function requestBodyHtml(context: OperationContext, body: JsonObject): string {
  const content = (body.content ?? {}) as Record<string, JsonObject>;
  const types = Object.keys(content).map((type) => `<code>${escapeHtml(type)}</code>`);
  const schema = (Object.values(content)[0]?.schema ?? {}) as JsonObject;
  const fields = fieldsOf(context.document, schema);
  return `<h4>Request body${body.required ? ' <span class="required">required</span>' : ''}</h4>
${proseHtml(String(body.description ?? ''))}
<p>Media types: ${types.join(', ')}${refName(schema) ? `; schema <code>${schemaLink(refName(schema)!)}</code>` : ''}.</p>
${fields.length > 0 ? fieldsTable(context, 'Request body fields', fields) : ''}`;
}

/** A schema's fields: name (and whether required), type and rules, description. */
export function fieldsTable(context: OperationContext, caption: string, fields: readonly Field[]): string {
  const rows = fields.map((field) => [
    nameCell(field.name, field.required),
    typeCell(context, field.schema),
    proseHtml(String(resolve(context.document, field.schema).description ?? '')),
  ]);
  return table(caption, ['Field', 'Type and rules', 'Description'], rows);
}

/**
 * The operation's own answers in a table; those the document shares between operations (components) as links to the
 * common answers at the end of the page, so that each operation shows what is particular to it.
 */
export function answersHtml(context: OperationContext, operation: JsonObject): string {
  const responses = Object.entries((operation.responses ?? {}) as Record<string, unknown>);
  const rows = responses
    .filter(([, given]) => !refName(given))
    .map(([status, given]) => answerCells(context, status, resolve(context.document, given)));
  const shared = responses
    .filter(([, given]) => refName(given))
    .map(
      ([status, given]) =>
        `<li><a href="#answer-${escapeHtml(refName(given)!)}">${statusBadge(status)} ${escapeHtml(STATUS_CODES[Number(status)] ?? '')}</a></li>`,
    );
  return `<h4>Answers</h4>
${rows.length > 0 ? table('Answers', ['Status', 'Description', 'Headers'], rows) : ''}
${shared.length > 0 ? `<div class="shared-answers"><span>${rows.length > 0 ? 'And the common answers' : 'The common answers'}:</span><ul>${shared.join('')}</ul></div>` : ''}`;
}

function statusBadge(status: string): string {
  return `<span class="status s${escapeHtml(status[0] ?? '')}">${escapeHtml(status)}</span>`;
}

/** An answer's status, description with its body's media types and schemas, and headers. */
export function answerCells(context: OperationContext, status: string, answer: JsonObject): string[] {
  const content = (answer.content ?? {}) as Record<string, JsonObject>;
  const media = Object.entries(content).map(
    ([type, entry]) =>
      `<code>${escapeHtml(type)}</code>: <code>${typeHtml(context, (entry.schema ?? {}) as JsonObject)}</code>`,
  );
  return [
    statusBadge(status),
    `${proseHtml(String(answer.description ?? ''))}${media.length > 0 ? `<p class="media">Body: ${media.join('; ')}</p>` : ''}`,
    headersCell(context, (answer.headers ?? {}) as Record<string, JsonObject>),
  ];
}

/**
 * The headers every answer carries are one link; those the document names once (components) link to their entry at
 * the end of the page; the others are described here.
 */
function headersCell(context: OperationContext, headers: Record<string, JsonObject>): string {
  const own = Object.entries(headers).filter(([name]) => !context.commonHeaders.has(name));
  const common =
    own.length < Object.keys(headers).length ? ['<li><a href="#common-headers">the common ones</a></li>'] : [];
  const items = own.map(([name, header]) => {
    if (refName(header))
      return `<li><a href="#header-${escapeHtml(refName(header)!)}"><code>${escapeHtml(name)}</code></a></li>`;
    const example = header.example === undefined ? '' : ` (e.g. <code>${escapeHtml(String(header.example))}</code>)`;
    return `<li><code>${escapeHtml(name)}</code>: ${escapeHtml(String(header.description ?? ''))}${example}</li>`;
  });
  return items.length + common.length > 0
    ? `<ul class="headers">${[...common, ...items].join('')}</ul>`
    : '<span class="muted">—</span>';
}

function exampleHtml(context: OperationContext, view: OperationView, body: JsonObject): string {
  return `<h4>Example</h4>
<div class="example">
<p class="example-label">Request</p>
<pre><code>${escapeHtml(curlOf(context, view, body))}</code></pre>
<p class="example-label">Answer</p>
<pre><code>${escapeHtml(answerExample(context, view))}</code></pre>
</div>`;
}
