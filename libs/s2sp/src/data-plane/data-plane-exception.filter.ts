import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { DataPlaneError } from './data-plane-error';

/** Every data-plane failure as `{ error: { code, message } }`, never a stack or a token. */
@Catch()
export class DataPlaneExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('S2spDataPlane');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    const error = this.toDataPlaneError(exception);
    response.status(error.status).json({ error: { code: error.code, message: error.message } });
  }

  private toDataPlaneError(exception: unknown): DataPlaneError {
    if (exception instanceof DataPlaneError) return exception;
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      return new DataPlaneError(exception.getStatus(), 'INVALID_REQUEST', 'The request was not accepted.');
    }
    this.logger.error(exception instanceof Error ? `${exception.name}: ${exception.message}` : 'non-Error thrown');
    return new DataPlaneError(500, 'INTERNAL_ERROR', 'The data plane failed unexpectedly.');
  }
}
