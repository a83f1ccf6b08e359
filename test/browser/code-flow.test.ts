// The whole code flow in a real browser (SPEC §12): a third-party app (a node:http server in the test) registered by
// its developer on the dashboard sends a person to /oauth2/authorize; they log in, read the consent page and allow or
// deny; the browser lands on the app's redirect URI, and the app exchanges the code for tokens that act on the
// consenting account's data. Replay of a code and reuse of a retired refresh token revoke what they issued.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { openPortal, useBrowser, type Portal } from './browser.js';
import {
  createAppOnPage,
  createDog,
  dogsSeen,
  logInOnPage,
  refusedWithinFiveSeconds,
  signUp,
  submit,
  tokenCall,
  type Shown,
  type TokenAnswer,
} from './flows-helper.js';

const chromium = useBrowser(import.meta.url);

/** The third-party app: answers its callback with a small page, and keeps the query of every callback it got. */
async function thirdPartyApp(t: TestContext): Promise<{ callback: string; calls: URLSearchParams[] }> {
  const calls: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://app');
    if (url.pathname !== '/callback') {
      response.writeHead(404).end();
      return;
    }
    calls.push(url.searchParams);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html lang="en"><title>Walkies</title><link rel="icon" href="data:,"><p>Back in Walkies.</p>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as { port: number };
  return { callback: `http://127.0.0.1:${port}/callback`, calls };
}

interface Flow {
  readonly portal: Portal;
  readonly app: Shown;
  readonly callback: string;
  readonly calls: URLSearchParams[];
  readonly type: 'confidential' | 'public';
  readonly mode: string;
}

/**
 * The app's developer registers it on the dashboard; the person who will use it (ann) and the developer each have a
 * dog. The browser ends logged out, on nothing.
 */
async function setUp(t: TestContext, type: 'confidential' | 'public', javaScript: boolean): Promise<Flow> {
  const portal = await openPortal(t, chromium, { javaScript });
  portal.page.setDefaultTimeout(5000);
  const { callback, calls } = await thirdPartyApp(t);
  // The app's own host is where the flow ends: the one other host these pages may send the browser to.
  await portal.page.route(`${new URL(callback).origin}/**`, (route) => route.continue());
  const mode = `${type}-${javaScript ? 'js' : 'nojs'}`;
  const developer = await signUp(portal.base, 'dev@example.com');
  const ann = await signUp(portal.base, 'ann@example.com');
  await createDog(portal.base, developer.token, 'Rex');
  await createDog(portal.base, ann.token, 'Biscuit');
  await portal.visit('/login', `${mode}-developer-login`);
  await logInOnPage(portal.page, 'dev@example.com');
  const app = await createAppOnPage(portal, { name: 'Walkies', redirectUri: callback, type }, `${mode}-app-created`);
  await portal.page.context().clearCookies();
  return { portal, app, callback, calls, type, mode };
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(flow: Flow, challenge: string, state: string, redirectUri = flow.callback): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: flow.app.clientId,
    redirect_uri: redirectUri,
    scope: 'read',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return `${flow.portal.base}/oauth2/authorize?${query}`;
}

/** The app's token request: HTTP Basic for a confidential app, its client_id alone for a public one. */
function appTokenCall(flow: Flow, form: Record<string, string>): Promise<TokenAnswer> {
  if (flow.type === 'public') return tokenCall(flow.portal.base, { ...form, client_id: flow.app.clientId });
  return tokenCall(flow.portal.base, form, `${flow.app.clientId}:${flow.app.secret}`);
}

/** From the app's link to its callback: consent page (after a login when asked), a decision, the query the app got. */
async function authorize(flow: Flow, decision: 'Allow' | 'Deny', step: string) {
  const { page, capture } = flow.portal;
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  const first = await page.goto(authorizeUrl(flow, challenge, state));
  if (page.url().includes('/portal/login')) {
    await capture(`${flow.mode}-${step}-login`);
    await logInOnPage(page, 'ann@example.com');
  } else assert.equal(first?.status(), 200);
  assert.match(page.url(), /\/oauth2\/authorize\?/);
  await capture(`${flow.mode}-${step}-consent`);
  const consent = (await page.locator('main').textContent()) ?? '';
  assert.match(consent, /Walkies/);
  assert.match(consent, /dev@example\.com/);
  assert.match(consent, /ann@example\.com/);
  assert.match(consent, /read your dogs/);
  const calls = flow.calls.length;
  const landed = await submit(page, () => page.getByRole('button', { name: decision }).click());
  assert.equal(landed.status(), 200);
  assert.equal(page.url().split('?')[0], flow.callback);
  await capture(`${flow.mode}-${step}-back-in-app`);
  assert.equal(flow.calls.length, calls + 1);
  const query = flow.calls.at(-1)!;
  assert.equal(query.get('state'), state);
  return { query, verifier };
}

function exchange(flow: Flow, code: string, verifier: string): Promise<TokenAnswer> {
  return appTokenCall(flow, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: flow.callback,
    code_verifier: verifier,
  });
}

for (const [type, javaScript] of [
  ['public', true],
  ['confidential', false],
] as const) {
  test(`code flow, ${type} app${javaScript ? '' : ' without JavaScript'}: allow, the API, refresh rotation and reuse`, async (t) => {
    const flow = await setUp(t, type, javaScript);
    const { base } = flow.portal;
    const { query, verifier } = await authorize(flow, 'Allow', 'allow');
    assert.ok(query.get('code'));
    const tokens = await exchange(flow, query.get('code')!, verifier);
    assert.equal(tokens.status, 200, tokens.error);
    assert.ok(tokens.refreshToken);
    // The token acts on ann's data (the consenting account), not the developer's.
    assert.deepEqual(await dogsSeen(base, tokens.accessToken!), { status: 200, names: ['Biscuit'] });

    const rotated = await appTokenCall(flow, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
    assert.equal(rotated.status, 200, rotated.error);
    assert.notEqual(rotated.refreshToken, tokens.refreshToken);
    const next = await appTokenCall(flow, { grant_type: 'refresh_token', refresh_token: rotated.refreshToken! });
    assert.equal(next.status, 200, 'the new refresh token works');
    assert.deepEqual(await dogsSeen(base, next.accessToken!), { status: 200, names: ['Biscuit'] });
    // The retired one presented again: refused, and the whole chain revoked.
    const reused = await appTokenCall(flow, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
    assert.equal(reused.status, 400);
    assert.equal(reused.error, 'invalid_grant');
    await refusedWithinFiveSeconds(base, next.accessToken!);
    await refusedWithinFiveSeconds(base, tokens.accessToken!);
    const latest = await appTokenCall(flow, { grant_type: 'refresh_token', refresh_token: next.refreshToken! });
    assert.equal(latest.error, 'invalid_grant');
  });

  test(`code flow, ${type} app${javaScript ? '' : ' without JavaScript'}: deny, code replay, unregistered redirect`, async (t) => {
    const flow = await setUp(t, type, javaScript);
    const { base, page, capture } = flow.portal;
    const denied = await authorize(flow, 'Deny', 'deny');
    assert.equal(denied.query.get('error'), 'access_denied');
    assert.equal(denied.query.get('code'), null);

    // Logged in already: straight to the consent page.
    const { query, verifier } = await authorize(flow, 'Allow', 'again');
    const code = query.get('code')!;
    const tokens = await exchange(flow, code, verifier);
    assert.equal(tokens.status, 200, tokens.error);
    assert.equal((await dogsSeen(base, tokens.accessToken!)).status, 200);
    const replay = await exchange(flow, code, verifier);
    assert.equal(replay.status, 400);
    assert.equal(replay.error, 'invalid_grant');
    await refusedWithinFiveSeconds(base, tokens.accessToken!);
    const refresh = await appTokenCall(flow, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken! });
    assert.equal(refresh.error, 'invalid_grant');

    // A redirect_uri the app did not register: the person is told, and the browser stays on the service.
    const calls = flow.calls.length;
    const answer = await page.goto(authorizeUrl(flow, pkce().challenge, 'st', `${flow.callback}/elsewhere`));
    assert.equal(answer?.status(), 400);
    assert.equal(new URL(page.url()).origin, base);
    assert.match((await page.locator('main').textContent()) ?? '', /not one the app registered/);
    await capture(`${flow.mode}-authorize-error`);
    assert.equal(flow.calls.length, calls);

    // The consent page's header is the session's: its Log out ends it, and the flow asks for a login again.
    await page.goto(authorizeUrl(flow, pkce().challenge, 'st'));
    await submit(page, () => page.getByRole('button', { name: 'Log out' }).click());
    assert.equal(page.url(), `${base}/portal`);
    await page.goto(authorizeUrl(flow, pkce().challenge, 'st'));
    assert.match(page.url(), /\/portal\/login\?next=%2Foauth2%2Fauthorize/);
  });
}
