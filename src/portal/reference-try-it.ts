// An operation's "try it" form. The page's script (reference-script.ts) sends it to {base} with the token of the page's
// token field and shows the answer below; without JavaScript, a GET without path parameters is a plain GET form (to
// the path's .json twin) that carries the token as access_token (SPEC §7) and sends its required query parameters.
import type { JsonObject } from '../openapi/json-schema.js';
import { escapeHtml } from './html.js';
import type { OperationView } from './reference-model.js';
import { requestExample, securityOf, type OperationContext } from './reference-examples.js';
import { resolve, typeOf } from './reference-schema.js';

/** The page's one token field, which every form's request uses. */
export const TOKEN_FIELD_ID = 'try-token';

export function tryItHtml(context: OperationContext, view: OperationView, body: JsonObject): string {
  const method = view.method.toUpperCase();
  const plain = view.method === 'get' && !view.parameters.some((parameter) => parameter.in === 'path');
  const needsToken = securityOf(context, view.operation).length > 0;
  const url = `${context.server}${view.path}`;
  // A browser's Accept asks for XML before JSON: the .json twin answers JSON whatever it asks.
  const json = view.twins.find((twin) => twin.method === view.method && twin.path.endsWith('.json'));
  const action = json ? `${context.server}${json.path}` : url;
  const fields = view.parameters.map((parameter) => parameterField(context, view.id, parameter, plain)).join('\n');
  const token =
    plain && needsToken
      ? `<noscript><div class="field"><label for="${escapeHtml(view.id)}-access-token">Access token <span class="hint">sent as the access_token query parameter</span></label>
<input id="${escapeHtml(view.id)}-access-token" name="access_token" type="text" autocomplete="off" spellcheck="false" required></div>
<p class="hint">Without JavaScript this form sends only the required parameters, and the browser shows the answer.</p></noscript>`
      : `<noscript><p class="hint">Sending this request needs JavaScript; the curl example above does the same.</p></noscript>`;
  return `<details class="try">
<summary>Try it</summary>
<form class="try-form" method="get" action="${plain ? escapeHtml(action) : ''}" data-method="${method}" data-url="${escapeHtml(url)}"${needsToken ? ' data-token' : ''}>
<p class="hint">Sends <code>${escapeHtml(`${method} ${url}`)}</code>${needsToken ? ` with the access token given <a href="#${TOKEN_FIELD_ID}">at the top</a>` : ''}: a real request, on your account's data. Empty fields are left out.</p>
${fields}
${view.operation.requestBody ? bodyField(context, view.id, body) : ''}
${token}
<div class="actions"><button type="submit"${plain ? '' : ' disabled'}>Send ${method}</button></div>
<div class="try-result" aria-live="polite" tabindex="-1" hidden></div>
</form>
</details>`;
}

function parameterField(context: OperationContext, operationId: string, parameter: JsonObject, plain: boolean): string {
  const name = String(parameter.name);
  const where = String(parameter.in);
  const id = escapeHtml(`${operationId}-${where}-${name}`);
  const schema = resolve(context.document, parameter.schema);
  const required = parameter.required === true;
  // Without JavaScript, an empty optional parameter would be sent empty (a 400): only the required ones have a name.
  const named = plain && where === 'query' && required ? ` name="${escapeHtml(name)}"` : '';
  const common = `id="${id}"${named} data-in="${escapeHtml(where)}" data-name="${escapeHtml(name)}"${required ? ' required' : ''}`;
  const label = `<label for="${id}"><code>${escapeHtml(name)}</code> <span class="hint">${escapeHtml(
    [where, typeOf(context.document, schema), required ? 'required' : 'optional'].join(' · '),
  )}</span></label>`;
  const choices = Array.isArray(schema.enum)
    ? schema.enum.map(String)
    : schema.type === 'boolean'
      ? ['true', 'false']
      : undefined;
  if (choices) {
    const options = [`<option value="">${required ? 'choose' : 'not sent'}</option>`, ...choices.map(option)];
    return `<div class="field">${label}<select ${common}>${options.join('')}</select></div>`;
  }
  const example = parameter.example ?? schema.example ?? (schema.examples as unknown[] | undefined)?.[0];
  const placeholder = example === undefined ? '' : ` placeholder="${escapeHtml(String(example))}"`;
  return `<div class="field">${label}<input type="text" ${common}${placeholder} autocomplete="off" spellcheck="false"></div>`;
}

function option(value: string): string {
  return `<option value="${escapeHtml(value)}">${escapeHtml(value)}</option>`;
}

function bodyField(context: OperationContext, operationId: string, body: JsonObject): string {
  const id = escapeHtml(`${operationId}-body`);
  const types = Object.keys((body.content ?? {}) as JsonObject);
  const example = requestExample(context, body) ?? '';
  return `<div class="field"><label for="${id}-type">Content-Type</label><select id="${id}-type" data-content-type>${types.map(option).join('')}</select></div>
<div class="field"><label for="${id}">Body <span class="hint">${body.required ? 'required' : 'optional'}; JSON, or name=value&amp;… for a form</span></label>
<textarea id="${id}" data-body rows="8" spellcheck="false">${escapeHtml(example)}</textarea></div>`;
}
