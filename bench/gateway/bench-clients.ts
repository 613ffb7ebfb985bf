// The clients the gateway benchmarks drive the platform with, shared by gateway-bench and gateway-hop-breakdown.
import * as http from 'node:http';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_LOADER_OPTIONS, toStruct, type JsonObject } from '@s2sp/contracts';
import { toTimestamp } from '@s2sp/contracts/internal';
import { PROTO_FILE_PATHS } from '../../libs/contracts/src/proto-path';

/**
 * A function that POSTs a JSON body to `url` with node:http over a keep-alive agent and
 * resolves to the parsed reply. The URL is parsed once: given a URL, http.request parses
 * it again on every call.
 */
export function jsonPoster(url: string, authorization: string, agent: http.Agent): (body: unknown) => Promise<any> {
  const { hostname, port, pathname, search } = new URL(url);
  const target = { hostname, port, path: `${pathname}${search}`, method: 'POST', agent };
  return (body) => {
    const text = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          ...target,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), authorization },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      request.on('error', reject);
      request.end(text);
    });
  };
}

/** A gRPC client of the agents' ToolService, as the gateway makes it (same proto options). */
export function toolServiceClient(address: string): grpc.Client {
  const loaded = grpc.loadPackageDefinition(
    protoLoader.loadSync([...PROTO_FILE_PATHS], { ...PROTO_LOADER_OPTIONS }),
  ) as any;
  return new loaded.s2sp.v1.ToolService(address, grpc.credentials.createInsecure());
}

/** InvokeTool as the gateway sends it for tools.call (no usage counting asked for); rejects unless the tool succeeded. */
export function invokeTool(
  toolService: grpc.Client,
  metadata: grpc.Metadata,
  tool: string,
  server: string,
  args: JsonObject,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const request = {
      invocation_id: '',
      tool_name: tool,
      server,
      input_params: toStruct(args),
      deadline: toTimestamp(deadline),
    };
    (toolService as any).InvokeTool(request, metadata, { deadline }, (error: Error | null, response: any) => {
      if (error) reject(error);
      else if (response.status !== 'TOOL_RESULT_STATUS_SUCCESS') reject(new Error(`InvokeTool: ${response.status}`));
      else resolve();
    });
  });
}
