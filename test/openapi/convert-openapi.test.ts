// The OpenAPI documents describe GET /convert, and live conversions match the documented schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { build } from '../helper.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads deep into parsed JSON documents
type Json = { [key: string]: any };

test('each version documents GET /convert with its three required parameters and both formats', async (t) => {
  const api = await build(t);
  for (const version of [1, 2]) {
    const document: Json = (await api.request({ url: `/portal/openapi/v${version}.json` })).json();
    assert.equal((await new Validator().validate(document)).valid, true);
    const operation = document.paths['/convert'].get;
    assert.deepEqual(
      operation.parameters.filter((parameter: Json) => parameter.required).map((parameter: Json) => parameter.name),
      ['from', 'to', 'amount'],
    );
    assert.equal(operation.parameters.find((parameter: Json) => parameter.name === 'amount').schema.type, 'string');
    assert.deepEqual(Object.keys(operation.responses['200'].content), ['application/json', 'application/xml']);
    assert.deepEqual(Object.keys(document.paths['/convert']).sort(), ['get', 'options', 'parameters']);
  }
});

test('live conversions match the documented envelope, and the canonical amount pattern refuses what the API would not echo', async (t) => {
  const api = await build(t);
  const document: Json = (await api.request({ url: '/portal/openapi/v2.json' })).json();
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addKeyword('xml');
  const rewired = JSON.parse(
    JSON.stringify(document.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'),
  );
  ajv.addSchema({ $id: 'https://openapi.test/schemas', $defs: rewired });
  const validate = ajv.getSchema('https://openapi.test/schemas#/$defs/ConversionEnvelope')!;
  for (const query of [
    'from=EUR&to=USD&amount=100.50',
    'from=EUR&to=JPY&amount=0.000001',
    'from=gbp&to=isk&amount=999999999999999.999999',
  ]) {
    const body = (await api.request({ url: `/v2/convert?${query}` })).json();
    assert.ok(validate(body), `${query}: ${JSON.stringify(validate.errors)}`);
  }
  const amount = new RegExp(document.components.schemas.Conversion.properties.amount.pattern);
  for (const text of ['100.50', '0100', '1000000000000000', '0.0000001', '-1']) assert.doesNotMatch(text, amount, text);
  for (const text of ['0', '100.5', '999999999999999.999999']) assert.match(text, amount, text);
});
