// A real OAuth client library (oauth4webapi) discovers the service and runs the client_credentials grant over HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';

test('oauth4webapi discovers the server, gets a token with client_secret_basic, and the token works', async (t) => {
  const storage = new SqliteStorage(':memory:');
  await storage.migrate();
  const probe = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { storage, logger: false });
  await probe.listen({ port: 0, host: '127.0.0.1' });
  const { port } = probe.server.address() as { port: number };
  await probe.close();

  const base = `http://127.0.0.1:${port}`;
  const storage2 = new SqliteStorage(':memory:');
  await storage2.migrate();
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: base }), {
    storage: storage2,
    logger: false,
  });
  await app.listen({ port, host: '127.0.0.1' });
  t.after(() => app.close());

  const signup = await fetch(`${base}/portal/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email: 'lib@example.com', password: 'a long passphrase', appName: 'library test' }),
  });
  const { clientId, clientSecret } = (await signup.json()).client as { clientId: string; clientSecret: string };

  const issuer = new URL(base);
  const options = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
  );
  assert.equal(as.issuer, base);
  const client: oauth.Client = { client_id: clientId };
  const response = await oauth.clientCredentialsGrantRequest(
    as,
    client,
    oauth.ClientSecretBasic(clientSecret),
    new URLSearchParams({ scope: 'read' }),
    options,
  );
  const result = await oauth.processClientCredentialsResponse(as, client, response);
  assert.equal(result.token_type, 'bearer');
  assert.equal(result.scope, 'read');
  const dogs = await fetch(`${base}/v2/dogs`, { headers: { authorization: `Bearer ${result.access_token}` } });
  assert.equal(dogs.status, 200);
  const write = await fetch(`${base}/v2/dogs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${result.access_token}`, 'content-type': 'application/json' },
    body: '{"name":"Rex"}',
  });
  assert.equal(write.status, 403, 'a read-scoped token cannot write');

  const introspection = await oauth.processIntrospectionResponse(
    as,
    client,
    await oauth.introspectionRequest(as, client, oauth.ClientSecretPost(clientSecret), result.access_token, options),
  );
  assert.equal(introspection.active, true);
  await oauth.processRevocationResponse(
    await oauth.revocationRequest(as, client, oauth.ClientSecretBasic(clientSecret), result.access_token, options),
  );
  const after = await fetch(`${base}/v2/dogs`, { headers: { authorization: `Bearer ${result.access_token}` } });
  assert.equal(after.status, 401);
});
