import { v2 } from '@s2sp/contracts';
import type { JsonRpcCallContext } from '@s2sp/json-rpc';
import type { ReadResourceParams } from '../methods/dto/read-resource.params';
import { authContextOf, traceContextOf } from './call-identity';
import { compact, nonEmpty } from './proto-values';
import { errorInfoToJson, type ErrorInfoJson } from './task-response-transcoding';

/** One of a resource's contents, as MCP's resources/read result spells it: text, or a base64 blob. */
export type ResourceContentsJson =
  { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

/** The result of resources.read. */
export interface ReadResourceResult {
  server: string;
  uri: string;
  contents: ResourceContentsJson[];
  /** Set when the server answered with an MCP error other than a refusal (e.g. a URI it does not know). */
  error?: ErrorInfoJson;
  trace_id?: string;
}

export function readResourceRequest(params: ReadResourceParams, ctx: JsonRpcCallContext): v2.ReadResourceRequest {
  return v2.ReadResourceRequest.create({
    server: params.server,
    uri: params.uri,
    caller_auth: authContextOf(ctx),
    trace: traceContextOf(ctx),
  });
}

export function readResourceResult(response: v2.ReadResourceResponse, params: ReadResourceParams): ReadResourceResult {
  return compact({
    server: params.server,
    uri: params.uri,
    contents: response.contents.map(resourceContentsJson),
    error: errorInfoToJson(response.error),
    trace_id: nonEmpty(response.trace?.trace_id),
  });
}

function resourceContentsJson(contents: v2.ResourceContents): ResourceContentsJson {
  const base = compact({ uri: contents.uri, mimeType: nonEmpty(contents.mime_type) });
  return contents.blob !== undefined
    ? { ...base, blob: Buffer.from(contents.blob).toString('base64') }
    : { ...base, text: contents.text ?? '' };
}
