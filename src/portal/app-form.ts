// The dashboard's "create an app" form: its fields read and checked (a clear message, the form keeps what was typed).
import type { ClientType } from '../auth/auth-store.js';
import { xmlTextProblem } from '../query/xml-text.js';
import { escapeHtml } from './html.js';

const SCOPES = ['read', 'write'] as const;
const MAX_NAME = 100;
const MAX_URIS = 10;

/** What the browser sent, as typed: shown again after an error. */
export interface TypedApp {
  readonly name: string;
  readonly redirectUris: string;
  readonly scopes: readonly string[];
  readonly type: string;
}

export interface NewApp {
  readonly name: string;
  readonly redirectUris: string[];
  readonly scopes: string[];
  readonly type: ClientType;
}

/** A new app gets both scopes unless it asks for less (SPEC §7). */
export const EMPTY_APP: TypedApp = { name: '', redirectUris: '', scopes: ['read', 'write'], type: 'confidential' };

/** Characters that turn the direction of the text around them: in a name they could make it read as another one. */
const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * What keeps a text from being shown to other accounts (an app's name, its owner's email, on the consent page; `where`
 * names the field): a character XML cannot carry, or one that turns the text's direction around.
 */
export function shownTextProblem(name: string, where: string): string | undefined {
  const xml = xmlTextProblem(name, where);
  if (xml !== undefined) return xml;
  const turn = DIRECTION_CONTROLS.exec(name);
  if (turn === null) return undefined;
  const code = turn[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return `${where} contains U+${code}, a character that changes the direction of the text around it: shown to others, it could make the text read as something else. Remove it.`;
}

export function typedApp(body: Record<string, unknown>): TypedApp {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const scopes = Array.isArray(body.scopes)
    ? body.scopes.map(text)
    : body.scopes === undefined
      ? []
      : [text(body.scopes)];
  return { name: text(body.name), redirectUris: text(body.redirect_uris), scopes, type: text(body.type) };
}

/** The app the form asks for, or the message that says what to fix. */
export function checkApp(typed: TypedApp): NewApp | string {
  const name = typed.name.trim();
  if (name === '') return 'Give the app a name.';
  if ([...name].length > MAX_NAME) return `The name holds at most ${MAX_NAME} characters.`;
  const nameProblem = shownTextProblem(name, 'The name');
  if (nameProblem !== undefined) return nameProblem;
  const urisProblem = xmlTextProblem(typed.redirectUris, 'The redirect URIs');
  if (urisProblem !== undefined) return urisProblem;
  if (typed.type !== 'confidential' && typed.type !== 'public') return 'Choose the type: confidential or public.';
  if (typed.scopes.length === 0) return 'Choose at least one scope: read, write or both.';
  const unknown = typed.scopes.find((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown !== undefined) return `"${unknown}" is not a scope; choose read, write or both.`;
  const uris = typed.redirectUris
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (typed.type === 'public' && uris.length === 0)
    return 'A public app uses the code flow only: give at least one redirect URI.';
  if (uris.length > MAX_URIS) return `Give at most ${MAX_URIS} redirect URIs.`;
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return `The redirect URI "${uri}" ${problem}`;
  }
  return { name, redirectUris: [...new Set(uris)], scopes: [...new Set(typed.scopes)], type: typed.type };
}

/** Schemes a redirect URI may never have, whatever the app: they run or read something in the browser itself. */
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'blob:', 'about:', 'vbscript:', 'filesystem:']);

/**
 * Why a redirect URI cannot be registered (RFC 6749 §3.1.2), or undefined when it can: https; http for the loopback
 * interface only (localhost, 127.0.0.1, [::1]: RFC 8252 §7.3); or a native app's private-use scheme, a reversed
 * domain name such as com.example.app:/oauth (RFC 8252 §7.1). Never a fragment, nor a user name or password.
 */
function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > 2000) return 'is longer than 2000 characters.';
  // RFC 3986: a URI is visible ASCII; anything else (spaces, controls, direction marks, other letters) %-encoded.
  if (!/^[\x21-\x7e]+$/.test(uri))
    return 'has a character a URI cannot carry as it is (a space, a control or a non-ASCII one): %-encode it.';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL: write it whole, as https://app.example/callback.';
  }
  if (uri.includes('#')) return 'has a fragment (#…): a redirect URI may not have one.';
  if (url.username !== '' || url.password !== '') return 'has a user name or password in it: leave them out.';
  if (url.protocol === 'https:') return undefined;
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol === 'http:' && loopback) return undefined;
  const scheme = url.protocol.slice(0, -1);
  if (!UNSAFE_SCHEMES.has(url.protocol) && scheme.includes('.')) return undefined;
  return (
    'must use https; http only for localhost, 127.0.0.1 or [::1]; or, for a mobile app, a scheme of its own ' +
    'that is a reversed domain name, as com.example.app:/callback.'
  );
}

/** The form; `typed` fills it again after an error. */
export function appForm(prefix: string, csrf: string, typed: TypedApp, error?: string): string {
  const checked = (on: boolean): string => (on ? ' checked' : '');
  const scope = (value: string, label: string): string =>
    `<label class="choice"><input type="checkbox" name="scopes" value="${value}"${checked(typed.scopes.includes(value))}> ${label}</label>`;
  const type = (value: string, label: string): string =>
    `<label class="choice"><input type="radio" name="type" value="${value}"${checked(typed.type === value)}> ${label}</label>`;
  return `<section class="card" aria-labelledby="create-title">
<h2 id="create-title">Create an app</h2>
${error ? `<p class="alert" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${prefix}/dashboard/apps">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<div class="field"><label for="app-name">Name</label>
<input id="app-name" name="name" maxlength="${MAX_NAME}" required value="${escapeHtml(typed.name)}"></div>
<div class="field"><label for="app-uris">Redirect URIs <span class="hint">One per line; https, http for localhost,
127.0.0.1 or [::1], or a mobile app's own scheme (com.example.app:/callback); no fragment. Needed for the code
flow.</span></label>
<textarea id="app-uris" name="redirect_uris" rows="3">${escapeHtml(typed.redirectUris)}</textarea></div>
<fieldset class="field"><legend>Scopes</legend>${scope('read', 'read')}${scope('write', 'write')}</fieldset>
<fieldset class="field"><legend>Type</legend>
${type('confidential', 'Confidential: a server that keeps a secret')}
${type('public', 'Public: a browser or mobile app, no secret, code flow with PKCE only')}</fieldset>
<p><button type="submit">Create app</button></p>
</form>
</section>`;
}
