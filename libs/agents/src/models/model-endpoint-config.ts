import { readFileSync } from 'node:fs';
import { envInt, envOptional } from '@s2sp/platform';

/**
 * The wire formats the agents can speak to a language model.
 * @public
 */
export type ModelApi = 'openai-chat' | 'anthropic-messages';

/**
 * A language model the agents call over HTTP: for the model planner, and for the MCP servers'
 * sampling requests the policy allows. Unset: the agents call no model at all.
 * @public
 */
export interface ModelEndpointConfig {
  /** `openai-chat`: an OpenAI-compatible Chat Completions endpoint; `anthropic-messages`: the Anthropic Messages API. */
  api: ModelApi;
  /** Base URL; the agents POST to `<url>/chat/completions` or `<url>/messages` (e.g. `https://api.openai.com/v1`). */
  url: string;
  /** The model's name, sent in every request. */
  model: string;
  /** The API key itself; prefer `apiKeyFile`. Never logged. */
  apiKey?: string;
  /** A file holding the API key (read when the agents start; surrounding whitespace ignored). */
  apiKeyFile?: string;
  /** Per request, in ms (default 60000). */
  timeoutMs?: number;
  /** Largest answer read from the model, in bytes (default 1 MiB). */
  maxResponseBytes?: number;
}

export const MODEL_APIS: readonly ModelApi[] = ['openai-chat', 'anthropic-messages'];
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;
export const DEFAULT_MODEL_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * AGENTS_MODEL_API (`openai-chat` or `anthropic-messages`; unset: no model), AGENTS_MODEL_URL,
 * AGENTS_MODEL_NAME, AGENTS_MODEL_API_KEY_FILE or AGENTS_MODEL_API_KEY, AGENTS_MODEL_TIMEOUT_MS,
 * AGENTS_MODEL_MAX_RESPONSE_BYTES.
 */
export function modelEndpointFromEnv(): ModelEndpointConfig | undefined {
  const api = envOptional('AGENTS_MODEL_API');
  if (api === undefined) return undefined;
  const endpoint: ModelEndpointConfig = {
    api: api as ModelApi,
    url: envOptional('AGENTS_MODEL_URL') ?? '',
    model: envOptional('AGENTS_MODEL_NAME') ?? '',
    timeoutMs: envInt('AGENTS_MODEL_TIMEOUT_MS', DEFAULT_MODEL_TIMEOUT_MS, { min: 1 }),
    maxResponseBytes: envInt('AGENTS_MODEL_MAX_RESPONSE_BYTES', DEFAULT_MODEL_MAX_RESPONSE_BYTES, { min: 1 }),
  };
  const apiKey = envOptional('AGENTS_MODEL_API_KEY');
  const apiKeyFile = envOptional('AGENTS_MODEL_API_KEY_FILE');
  if (apiKey !== undefined) endpoint.apiKey = apiKey;
  if (apiKeyFile !== undefined) endpoint.apiKeyFile = apiKeyFile;
  return endpoint;
}

/** Throws naming the bad field. */
export function validateModelEndpoint(endpoint: ModelEndpointConfig, field = 'model'): void {
  if (!MODEL_APIS.includes(endpoint.api))
    throw new Error(`${field}.api must be one of ${MODEL_APIS.join(', ')}; got ${String(endpoint.api)}`);
  let url: URL;
  try {
    url = new URL(endpoint.url);
  } catch {
    throw new Error(`${field}.url must be an http(s) URL; got ${JSON.stringify(endpoint.url)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${field}.url must be an http(s) URL; got ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw new Error(`${field}.url must not hold credentials: give the key in ${field}.apiKeyFile`);
  if (typeof endpoint.model !== 'string' || endpoint.model.trim() === '')
    throw new Error(`${field}.model must name the model`);
  if (endpoint.apiKey !== undefined && endpoint.apiKeyFile !== undefined)
    throw new Error(`${field}: give the API key either as apiKey or as apiKeyFile, not both`);
  if (endpoint.apiKey !== undefined && (typeof endpoint.apiKey !== 'string' || endpoint.apiKey.trim() === ''))
    throw new Error(`${field}.apiKey must be a non-empty string`);
  for (const key of ['timeoutMs', 'maxResponseBytes'] as const) {
    const value = endpoint[key];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1))
      throw new Error(`${field}.${key} must be a positive integer; got ${String(value)}`);
  }
}

/** The API key, from the configuration or its file; undefined when neither is set (e.g. a local model server). */
export function modelApiKey(endpoint: ModelEndpointConfig, field = 'model'): string | undefined {
  if (endpoint.apiKeyFile === undefined) return endpoint.apiKey?.trim();
  let key: string;
  try {
    key = readFileSync(endpoint.apiKeyFile, 'utf8').trim();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`${field}.apiKeyFile ${endpoint.apiKeyFile} cannot be read (${reason})`);
  }
  if (key === '') throw new Error(`${field}.apiKeyFile ${endpoint.apiKeyFile} is empty`);
  return key;
}
