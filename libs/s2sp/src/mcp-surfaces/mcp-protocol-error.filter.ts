import { Catch, type ArgumentsHost } from '@nestjs/common';
import { BaseRpcExceptionFilter, RpcException } from '@nestjs/microservices';
import { ProtocolError } from '@modelcontextprotocol/server';
import { throwError, type Observable } from 'rxjs';

/** JSON-RPC codes of the platform's authorization refusals (AuthJsonRpcCode in @s2sp/auth: 4001 to 4003). */
const AUTH_REFUSAL_CODES = { min: 4000, max: 4999 } as const;

/**
 * Lets an MCP ProtocolError thrown by a resource or prompt handler reach the
 * client as the JSON-RPC error it names (e.g. -32602 invalid params, -32002
 * resource not found): Nest's RPC exception handling would otherwise turn it
 * into an internal error and log it with a stack. A refusal by the auth guard
 * (McpToolAuthGuard's RpcException) reaches the client with its own code and
 * data, e.g. 4002 with `missing_scopes`, instead of -32603. Other exceptions
 * are handled as Nest's RPC filter does. Use with @UseFilters.
 * @beta
 */
@Catch(ProtocolError, RpcException)
export class McpProtocolErrorFilter extends BaseRpcExceptionFilter<ProtocolError | RpcException> {
  override catch(exception: ProtocolError | RpcException, host: ArgumentsHost): Observable<never> {
    if (exception instanceof ProtocolError) return throwError(() => exception);
    const refusal = authRefusalOf(exception);
    return refusal ? throwError(() => refusal) : (super.catch(exception, host) as Observable<never>);
  }
}

function authRefusalOf(exception: RpcException): ProtocolError | undefined {
  const error = exception.getError();
  if (typeof error !== 'object' || error === null) return undefined;
  const { jsonRpcCode, message, code: _code, ...data } = error as Record<string, unknown>;
  if (
    typeof jsonRpcCode !== 'number' ||
    jsonRpcCode < AUTH_REFUSAL_CODES.min ||
    jsonRpcCode > AUTH_REFUSAL_CODES.max ||
    typeof message !== 'string'
  )
    return undefined;
  return new ProtocolError(jsonRpcCode, message, data);
}
