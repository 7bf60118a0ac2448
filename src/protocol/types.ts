// The slice of the OpenAI Chat Completions wire format that Warden reads or writes.
// Everything else in a request is passed through untouched, so these types stay open.

export interface ChatMessage {
  role: string;
  content?: string | null | Array<{ type: string; text?: string; [k: string]: unknown }>;
  [k: string]: unknown;
}

/** OpenRouter's provider routing preferences (subset Warden reads or writes). */
export interface ProviderPreferences {
  order?: string[] | null;
  only?: string[] | null;
  ignore?: string[] | null;
  allow_fallbacks?: boolean | null;
  [k: string]: unknown;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean; [k: string]: unknown };
  max_tokens?: number;
  max_completion_tokens?: number;
  seed?: number;
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean }; [k: string]: unknown };
  tools?: unknown[];
  tool_choice?: unknown;
  provider?: ProviderPreferences;
  [k: string]: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [k: string]: unknown;
}

export interface ChatChoice {
  index: number;
  message: { role: string; content: string | null; tool_calls?: unknown[]; [k: string]: unknown };
  finish_reason: string | null;
  [k: string]: unknown;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  provider?: string;
  choices: ChatChoice[];
  usage?: Usage;
  [k: string]: unknown;
}

export interface ChatChunkChoice {
  index: number;
  delta: { role?: string; content?: string | null; tool_calls?: unknown[]; [k: string]: unknown };
  finish_reason: string | null;
  [k: string]: unknown;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  provider?: string;
  choices: ChatChunkChoice[];
  usage?: Usage | null;
  error?: unknown;
  [k: string]: unknown;
}
