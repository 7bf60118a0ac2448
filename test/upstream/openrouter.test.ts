import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeProviderPreferences, parseEndpointListing } from '../../src/upstream/index.js';

const target = (pinned: string | null, ignored: string[], routingSlugs = new Map<string, string>()) => ({ upstreamModel: 'm', pinnedEndpoint: pinned, ignoredEndpoints: ignored, routingSlugs, thinking: 'auto' as const });
// As the catalog keeps them: display name (and lowercased) to slug.
const SLUGS = new Map([['Google AI Studio', 'google-ai-studio'], ['google ai studio', 'google-ai-studio'], ['DeepInfra', 'deepinfra'], ['deepinfra', 'deepinfra']]);

test('no pin and nothing out of service leaves the client preferences alone', () => {
  const client = { order: ['A'], sort: 'price' };
  assert.equal(mergeProviderPreferences(client, target(null, [])), client);
  assert.equal(mergeProviderPreferences(undefined, target(null, [])), undefined);
});

test('out-of-service endpoints are added to the ignore list without duplicates', () => {
  assert.deepEqual(mergeProviderPreferences(undefined, target(null, ['B'])), { ignore: ['B'] });
  assert.deepEqual(mergeProviderPreferences({ ignore: ['b', 'C'], sort: 'price' }, target(null, ['B', 'D'])), { ignore: ['b', 'C', 'D'], sort: 'price' });
});

test('a pin and an ignore name the endpoint by its slug, not its display name', () => {
  assert.deepEqual(mergeProviderPreferences(undefined, target('Google AI Studio', [], SLUGS))?.order, ['google-ai-studio']);
  assert.deepEqual(mergeProviderPreferences(undefined, target('google ai studio', [], SLUGS))?.order, ['google-ai-studio'], 'a pin in another case');
  assert.deepEqual(mergeProviderPreferences({ sort: 'price' }, target(null, ['Google AI Studio', 'DeepInfra'], SLUGS)), { sort: 'price', ignore: ['google-ai-studio', 'deepinfra'] });
  assert.deepEqual(mergeProviderPreferences(undefined, target(null, ['Unlisted One'], SLUGS)), { ignore: ['Unlisted One'] }, 'a name with no known slug is sent as it is');
});

test('an endpoint the client already ignores, by display name, slug or name written as a slug, is not added again', () => {
  for (const given of ['Google AI Studio', 'GOOGLE-AI-STUDIO', ' google ai studio ']) {
    assert.deepEqual(mergeProviderPreferences({ ignore: [given] }, target(null, ['Google AI Studio', 'DeepInfra'], SLUGS)), { ignore: [given, 'deepinfra'] }, given);
  }
  assert.deepEqual(mergeProviderPreferences(undefined, target(null, ['Google AI Studio', 'google ai studio'], SLUGS)), { ignore: ['google-ai-studio'] }, 'two names of one slug');
  // One endpoint of a provider is not the provider: Warden's ignore of the whole provider still goes.
  assert.deepEqual(mergeProviderPreferences({ ignore: ['deepinfra/fp8'] }, target(null, ['DeepInfra'], SLUGS)), { ignore: ['deepinfra/fp8', 'deepinfra'] });
});

test('a pin sends order [name] with fallbacks off and drops the client ordering', () => {
  const merged = mergeProviderPreferences({ order: ['X'], only: ['X'], ignore: ['Y'], data_collection: 'deny' }, target('Gamma', ['Y']));
  assert.deepEqual(JSON.parse(JSON.stringify(merged)), { order: ['Gamma'], allow_fallbacks: false, data_collection: 'deny' });
});

test('the endpoint listing is read into routes; a malformed listing is a named failure', () => {
  const listing = { data: { id: 'a/b', endpoints: [{ provider_name: 'DeepInfra', tag: 'deepinfra/fp8', quantization: 'fp8', context_length: 8192, pricing: { prompt: '0.0000003', completion: '0.0000012' } }, { name: 'no provider' }] } };
  const endpoints = parseEndpointListing(JSON.stringify(listing));
  assert.equal(endpoints.length, 1);
  assert.equal(endpoints[0]!.name, 'DeepInfra');
  assert.equal(endpoints[0]!.quantization, 'fp8');
  assert.ok(Math.abs(endpoints[0]!.pricing!.prompt - 0.3) < 1e-9);
  assert.throws(() => parseEndpointListing('<html>'), /not JSON/);
  assert.throws(() => parseEndpointListing('{"data":{}}'), /no data.endpoints/);
});

test('several endpoints of one provider in the listing are one route, the provider\u2019s, tagged with its slug', () => {
  const endpoint = (tag: string, quantization: string) => ({ provider_name: 'DeepInfra', tag, quantization, context_length: 8192, pricing: { prompt: '0.0000003', completion: '0.0000012' } });
  const listing = { data: { id: 'a/b', endpoints: [endpoint('deepinfra/fp8', 'fp8'), { provider_name: 'Together', tag: 'together' }, endpoint('deepinfra/turbo', 'fp4')] } };
  const endpoints = parseEndpointListing(JSON.stringify(listing));
  assert.deepEqual(endpoints.map((e) => [e.name, e.tag, e.quantization]), [['DeepInfra', 'deepinfra', null], ['Together', 'together', null]]);
});
