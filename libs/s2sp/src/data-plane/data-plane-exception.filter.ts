import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { isDatabaseUnavailable, takeNodeResponse } from '@s2sp/platform/internal';
import { DataPlaneError, sendDataPlaneError } from './data-plane-error';

/**
 * Every data-plane failure as `{ error: { code, message } }`, never a stack or a token.
 * Written on node's response, the same under Express and Fastify.
 */
@Catch()
export class DataPlaneExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('S2spDataPlane');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = takeNodeResponse(host.switchToHttp().getResponse());
    if (response.headersSent) return;
    sendDataPlaneError(response, this.toDataPlaneError(exception));
  }

  private toDataPlaneError(exception: unknown): DataPlaneError {
    if (exception instanceof DataPlaneError) return exception;
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      return new DataPlaneError(exception.getStatus(), 'INVALID_REQUEST', 'The request was not accepted.');
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`The resource store's database is unavailable: ${describe(exception)}`);
      return DataPlaneError.storeUnavailable();
    }
    this.logger.error(describe(exception));
    return new DataPlaneError(500, 'INTERNAL_ERROR', 'The data plane failed unexpectedly.');
  }
}

function describe(exception: unknown): string {
  return exception instanceof Error ? `${exception.name}: ${exception.message.trim()}` : 'non-Error thrown';
}
