import { envInt, envList } from '@s2sp/platform';

/**
 * What the default sampling policy (ConfiguredSamplingPolicy) allows.
 * @public
 */
export interface SamplingConfig {
  /** MCP server ids allowed to ask the agents for completions; any other server is refused (deny by default). */
  allowedServers: string[];
  /** Model names a server may hint at; hints outside it are dropped, a request hinting only at others is refused. Empty: any hint. */
  allowedModelHints: string[];
  /** Largest `maxTokens` one request may ask for. */
  maxTokensPerRequest: number;
  /** `maxTokens` summed over the requests made for one task. */
  maxTokensPerTask: number;
  /** Requests one server may make in any 60 s. */
  requestsPerMinute: number;
  /** Largest request accepted, in characters of its JSON (messages, system prompt, hints). */
  maxRequestChars: number;
}

export const DEFAULT_SAMPLING_CONFIG: SamplingConfig = {
  allowedServers: [],
  allowedModelHints: [],
  maxTokensPerRequest: 1_024,
  maxTokensPerTask: 8_192,
  requestsPerMinute: 30,
  maxRequestChars: 200_000,
};

/**
 * AGENTS_SAMPLING_SERVERS (ids, comma-separated), AGENTS_SAMPLING_MODEL_HINTS,
 * AGENTS_SAMPLING_MAX_TOKENS, AGENTS_SAMPLING_MAX_TASK_TOKENS,
 * AGENTS_SAMPLING_RATE_PER_MINUTE, AGENTS_SAMPLING_MAX_REQUEST_CHARS.
 */
export function samplingConfigFromEnv(defaults: SamplingConfig = DEFAULT_SAMPLING_CONFIG): SamplingConfig {
  return {
    allowedServers: envList('AGENTS_SAMPLING_SERVERS', defaults.allowedServers),
    allowedModelHints: envList('AGENTS_SAMPLING_MODEL_HINTS', defaults.allowedModelHints),
    maxTokensPerRequest: envInt('AGENTS_SAMPLING_MAX_TOKENS', defaults.maxTokensPerRequest, { min: 1 }),
    maxTokensPerTask: envInt('AGENTS_SAMPLING_MAX_TASK_TOKENS', defaults.maxTokensPerTask, { min: 1 }),
    requestsPerMinute: envInt('AGENTS_SAMPLING_RATE_PER_MINUTE', defaults.requestsPerMinute, { min: 1 }),
    maxRequestChars: envInt('AGENTS_SAMPLING_MAX_REQUEST_CHARS', defaults.maxRequestChars, { min: 1 }),
  };
}

/** Throws naming the bad field; `serverIds` are the configured MCP servers (an allowed server must be one of them). */
export function validateSamplingConfig(config: SamplingConfig, serverIds: readonly string[], field = 'sampling'): void {
  stringList(`${field}.allowedServers`, config.allowedServers);
  for (const id of config.allowedServers) {
    if (!serverIds.includes(id))
      throw new Error(`${field}.allowedServers names "${id}", which is not a configured MCP server`);
  }
  stringList(`${field}.allowedModelHints`, config.allowedModelHints);
  for (const key of ['maxTokensPerRequest', 'maxTokensPerTask', 'requestsPerMinute', 'maxRequestChars'] as const) {
    const value = config[key];
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`${field}.${key} must be a positive integer; got ${String(value)}`);
  }
}

function stringList(field: string, value: unknown): void {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.trim() === '')) {
    throw new Error(`${field} must be an array of non-empty strings`);
  }
}
