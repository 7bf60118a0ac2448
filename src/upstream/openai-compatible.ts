// OpenAI itself, vLLM, DeepSeek, Together and any server speaking the same wire format:
// one endpoint per model, nothing to pin, the body goes out as the client wrote it.
import type { UpstreamAdapter } from './adapter.js';
import { applySwitch } from './thinking.js';

export const openAICompatible: UpstreamAdapter = {
  kind: 'openai-compatible',
  hasEndpoints: false,
  shapeBody(body, target) {
    body.model = target.upstreamModel;
    if (target.thinking === 'off') delete body.reasoning_effort;
    applySwitch(body, target);
  },
  servedEndpoint() {
    return null;
  },
};
