// One compatibility contract, run against each client library (STYLE §8): a client is
// wrapped in a CompatClient that reports what the library itself made of the answer — the
// text it assembled, the tool call it parsed, the object it validated, the usage it read —
// and this suite holds every client to the same expectations, through each target.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../helpers/harness.js';
import { CITY_REPORT, CLIENT_KEY, lastUpstream, PROMPTS, reference, startCompatHarness, TARGETS, WEATHER_TOOL, type Target } from './fleet.js';

export type Mode = 'whole' | 'stream';

export interface ChatResult {
  text: string;
  /** As the client reports it (`stop`, or the AI SDK's own spelling). */
  finishReason: string | null | undefined;
}

export interface StreamResult extends ChatResult {
  /** Text pieces the client handed out one by one. */
  deltas: number;
}

export interface ToolCallResult {
  name: string;
  /** The arguments as the client parsed them. */
  args: unknown;
  /** Argument fragments the client saw before assembling them; 0 when not streamed. */
  argumentDeltas: number;
  finishReason: string | null | undefined;
}

export interface UsageResult {
  text: string;
  promptTokens: number | undefined;
  completionTokens: number | undefined;
  totalTokens: number | undefined;
}

/** One client library, pointed at the gateway's `/v1` with the compat client key. */
export interface CompatClient {
  chat(model: string, prompt: string, seed: number): Promise<ChatResult>;
  stream(model: string, prompt: string, seed: number): Promise<StreamResult>;
  /** Forces a call of WEATHER_TOOL with tool_choice. */
  callTool(model: string, mode: Mode): Promise<ToolCallResult>;
  /** Asks for CITY_REPORT with response_format json_schema; returns what the client parsed. */
  structured(model: string, mode: Mode): Promise<unknown>;
  /** A stream with stream_options.include_usage; the usage as the client reports it. */
  streamUsage(model: string, prompt: string, seed: number): Promise<UsageResult>;
}

export type ClientFactory = (baseURL: string, apiKey: string) => CompatClient;

const STOP = /^stop$/;
const TOOL_CALLS = /^tool[-_]calls$/;

/** The contract, for every target. `extra` adds the library's own tests on the same gateway. */
export function compatSuite(library: string, factory: ClientFactory, extra?: (ctx: { harness(): Harness }) => void): void {
  // A hang (a stream that never ends) fails the suite instead of stalling the run.
  describe(`${library} through Warden`, { timeout: 60_000 }, () => {
    let h: Harness;
    let client: CompatClient;
    before(async () => {
      h = await startCompatHarness();
      client = factory(`${h.url}/v1`, CLIENT_KEY);
    });
    after(() => h.close());
    beforeEach(() => h.fleet.reset());

    /** The request went upstream once, as asked: to the target's provider, streamed or not. */
    async function assertUpstream(target: Target, mode: Mode): Promise<Record<string, unknown>> {
      const sent = await lastUpstream(h.fleet);
      assert.equal(h.fleet.stats().recent.length, 1, 'one upstream attempt, no retry or fallback');
      assert.match(sent.path, target.path);
      assert.equal(sent.served, target.servedBy);
      assert.equal(sent.model, target.upstreamModel);
      assert.equal(sent.stream, mode === 'stream', `the upstream request was ${sent.stream ? '' : 'not '}streamed`);
      assert.equal(sent.status, 200);
      return sent.body as Record<string, unknown>;
    }

    for (const target of TARGETS) {
      describe(target.label, () => {
        test('plain chat: the answer to a fact question', async () => {
          const result = await client.chat(target.model, PROMPTS.fact, 1);
          assert.equal(result.text, 'Paris');
          assert.match(String(result.finishReason), STOP);
          await assertUpstream(target, 'whole');
        });

        test('streaming: the assembled text is the non-streamed answer, and the stream ends with stop', async () => {
          const expected = await reference(h, target.model, PROMPTS.open, 42);
          assert.ok(expected.content.length > 40, 'a reply of several sentences');
          h.fleet.reset();
          const result = await client.stream(target.model, PROMPTS.open, 42);
          assert.equal(result.text, expected.content);
          assert.ok(result.deltas > 3, `the text arrived in pieces (${result.deltas})`);
          assert.match(String(result.finishReason), STOP);
          await assertUpstream(target, 'stream');
        });

        for (const mode of ['whole', 'stream'] as const) {
          test(`tool call (${mode}): forced by tool_choice, arguments parsed and valid`, async () => {
            const call = await client.callTool(target.model, mode);
            assert.equal(call.name, WEATHER_TOOL.name);
            const parsed = WEATHER_TOOL.schema.safeParse(call.args);
            assert.ok(parsed.success, `arguments match the tool's schema: ${JSON.stringify(call.args)}`);
            assert.match(String(call.finishReason), TOOL_CALLS);
            if (mode === 'stream') assert.ok(call.argumentDeltas > 1, `the arguments arrived in fragments (${call.argumentDeltas})`);
            const body = await assertUpstream(target, mode);
            assert.deepEqual(body.tool_choice, { type: 'function', function: { name: WEATHER_TOOL.name } });
          });
        }

        test('tool call: streamed arguments assemble to the non-streamed ones', async () => {
          const whole = await client.callTool(target.model, 'whole');
          const streamed = await client.callTool(target.model, 'stream');
          assert.deepEqual(streamed.args, whole.args);
        });

        for (const mode of ['whole', 'stream'] as const) {
          test(`response_format json_schema (${mode}): the parsed object validates`, async () => {
            const value = await client.structured(target.model, mode);
            const parsed = CITY_REPORT.schema.safeParse(value);
            assert.ok(parsed.success, `the object matches the schema: ${JSON.stringify(value)}`);
            assert.equal(parsed.data.city, 'Paris');
            assert.equal(parsed.data.country, 'France');
            const body = await assertUpstream(target, mode);
            const format = body.response_format as { type?: string; json_schema?: { name?: string; schema?: { properties?: object } } };
            assert.equal(format.type, 'json_schema');
            assert.equal(format.json_schema?.name, CITY_REPORT.name);
            assert.deepEqual(Object.keys(format.json_schema?.schema?.properties ?? {}).sort(), Object.keys(CITY_REPORT.schema.shape).sort());
          });
        }

        test('stream_options.include_usage: the final usage chunk reaches the client', async () => {
          const expected = await reference(h, target.model, PROMPTS.open, 7);
          h.fleet.reset();
          const result = await client.streamUsage(target.model, PROMPTS.open, 7);
          assert.equal(result.text, expected.content);
          assert.ok((result.promptTokens ?? 0) > 0 && (result.completionTokens ?? 0) > 0, `usage reported: ${JSON.stringify(result)}`);
          assert.equal(result.promptTokens, expected.usage.prompt_tokens);
          assert.equal(result.completionTokens, expected.usage.completion_tokens);
          assert.equal(result.totalTokens, expected.usage.total_tokens);
          const body = await assertUpstream(target, 'stream');
          assert.deepEqual(body.stream_options, { include_usage: true });
        });
      });
    }

    extra?.({ harness: () => h });
  });
}
