import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { ProtocolError } from '@modelcontextprotocol/server';
import { throwError, type Observable } from 'rxjs';

/**
 * Lets an MCP ProtocolError thrown by a resource or prompt handler reach the
 * client as the JSON-RPC error it names (e.g. -32602 invalid params, -32002
 * resource not found): Nest's RPC exception handling would otherwise turn it
 * into an internal error and log it with a stack. Use with @UseFilters.
 */
@Catch(ProtocolError)
export class McpProtocolErrorFilter implements RpcExceptionFilter<ProtocolError> {
  catch(exception: ProtocolError): Observable<never> {
    return throwError(() => exception);
  }
}
