import { S2SP_CONSUMER_PARAMETERS } from '@s2sp/platform/internal';
import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Telemetry, traceDataPlaneFetch } from '@s2sp/telemetry';
import { from, Observable, of, switchMap } from 'rxjs';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { ConsumerToolArguments, parseConsumerInput } from '../protocol/consumer-input';
import { mergeRows } from '../protocol/merge-rows';
import { Row, ROW_ID } from '../protocol/row';
import { S2spToolError } from '../protocol/s2sp-error';
import { deadlineFromMeta, requestMeta, totalRowsFromMeta } from '../protocol/s2sp-meta';
import { reportToolErrors, toolErrorResult } from '../protocol/tool-result';
import { DataPlaneClient } from './data-plane-client.service';
import { DataPlaneCredentials } from './data-plane-credentials.service';
import { explainUnauthenticatedFetch } from './unauthenticated-fetch';
import { S2SP_CONSUMER_TOOL } from './consumer-tool.metadata';
import type { S2spConsumerToolOptions } from './s2sp-consumer-tool.options';
import { confirmationGate } from './consumer-confirmation';
import { isConsumerContinuation } from './consumer-continuation';
import type { McpContext } from '@rekog/mcp-nest';
import { budgetUntil } from '@s2sp/platform';

/**
 * What a consumer tool method receives: its own parameters plus the merged rows.
 * @public
 */
export type S2spConsumerPayload<TExtra extends object = Record<string, unknown>> = TExtra & { rows: Row[] };

/** The data-plane fetch may use all the time left before the caller's deadline. */
const NO_RESERVE = { reserveMs: 0, minimumMs: 1 };

/**
 * Resolves the S2SP parameters of a consumer tool (parse, fetch or take the
 * inline body, merge, rename) before the method runs, and hands it the rows.
 * @public
 */
@Injectable()
export class ConsumerToolInterceptor implements NestInterceptor {
  private readonly logger = new Logger('S2spConsumerTool');

  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    private readonly dataPlane: DataPlaneClient,
    private readonly credentials: DataPlaneCredentials,
    private readonly reflector: Reflector,
    /** Present when the app imports TelemetryModule: the fetch is then an `s2sp.data.fetch` span. */
    @Optional() private readonly telemetry?: Telemetry,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpc = context.switchToRpc();
    const args = rpc.getData<ConsumerToolArguments & Record<string, unknown>>();
    const mcp = rpc.getContext<{ mcpRequest?: unknown; getRawRequest?: () => unknown } | undefined>();
    const meta = requestMeta(mcp?.mcpRequest);
    const deadline = deadlineFromMeta(meta);
    const totalRows = totalRowsFromMeta(meta);
    const tool = this.reflector.get<S2spConsumerToolOptions | undefined>(S2SP_CONSUMER_TOOL, context.getHandler());
    try {
      // A later round of a call whose rows an earlier round fetched (the resource_url is spent):
      // the tool resumes from the state it sealed then.
      if (isConsumerContinuation(rpc.getContext<McpContext | undefined>())) {
        for (const key of S2SP_CONSUMER_PARAMETERS) delete args[key];
        args.rows = [];
        return next.handle().pipe(reportToolErrors());
      }
    } catch (error) {
      return of(toolErrorResult(error, this.logger));
    }
    if (tool?.confirm) {
      const rows = this.rowsHandedBy(args);
      // An invalid call is refused below, before anyone is asked.
      if (rows !== undefined && (tool.confirm.when?.(args, rows) ?? true)) {
        try {
          const gate = confirmationGate(rpc.getContext<McpContext | undefined>(), tool.confirm, args, rows);
          if (!gate.proceed) return of(gate.result);
        } catch (error) {
          return of(toolErrorResult(error, this.logger));
        }
      }
    }
    const caller = { rawRequest: mcp?.getRawRequest?.(), toolScopes: tool?.scopes ?? [] };
    const resolved = this.resolveRows(args, { deadline, totalRows }, caller).then(
      (rows) => ({ rows }),
      (error: unknown) => ({ error }),
    );
    return from(resolved).pipe(
      switchMap((outcome) => {
        if ('error' in outcome) return of(toolErrorResult(outcome.error, this.logger));
        for (const key of S2SP_CONSUMER_PARAMETERS) delete args[key];
        args.rows = outcome.rows;
        return next.handle().pipe(reportToolErrors());
      }),
    );
  }

  /** How many rows the call hands the tool, or undefined when its S2SP arguments are invalid. */
  private rowsHandedBy(args: ConsumerToolArguments): number | undefined {
    try {
      const input = parseConsumerInput(args, { maxRows: this.options.limits.maxRows });
      return input.abstract.length > 0 ? input.abstract.length : (input.body?.length ?? 0);
    } catch {
      return undefined;
    }
  }

  /**
   * `deadline` (epoch ms, from the caller's `_meta`) bounds the data-plane fetch;
   * `totalRows` (also from `_meta`) lets it name no row ids when every row was chosen.
   */
  private async resolveRows(
    args: ConsumerToolArguments,
    { deadline, totalRows }: { deadline: number | undefined; totalRows: number | undefined },
    caller: { rawRequest: unknown; toolScopes: readonly string[] },
  ): Promise<Row[]> {
    const input = parseConsumerInput(args, { maxRows: this.options.limits.maxRows });
    let body = input.body;
    if (input.resourceUrl !== null && input.abstract.length === 0) body = [];
    else if (input.resourceUrl !== null) {
      const budget = deadline === undefined ? undefined : budgetUntil(deadline, NO_RESERVE);
      if (budget !== undefined && !budget.sufficient) {
        throw new S2spToolError(
          'The deadline passed before the data-plane fetch could start.',
          'DEADLINE_EXCEEDED',
          'data-plane',
        );
      }
      const chosen = input.abstract.map((row) => row[ROW_ID] as number);
      const rowIds = totalRows !== undefined && isEveryRow(chosen, totalRows) ? null : chosen;
      const origin = this.dataPlane.allowedUrl(input.resourceUrl).origin;
      const credential = await this.credentials.credentialFor({ origin, ...caller, remainingMs: budget?.budgetMs });
      const resourceUrl = input.resourceUrl;
      const fetchBody = (headers?: Record<string, string>) =>
        this.dataPlane.fetchBody(resourceUrl, {
          rowIds,
          expectedRows: chosen.length,
          timeoutMs: budget?.budgetMs,
          authorization: credential.authorization,
          headers,
        });
      try {
        body = this.telemetry
          ? await traceDataPlaneFetch(this.telemetry, resourceUrl, chosen.length, fetchBody)
          : await fetchBody();
      } catch (error) {
        throw explainUnauthenticatedFetch(error, origin, credential);
      }
    }
    return mergeRows(input.abstract, body, input.columnMapping);
  }
}

/** Whether distinct ids (as parseConsumerInput guarantees) are exactly 0..totalRows-1. */
function isEveryRow(rowIds: readonly number[], totalRows: number): boolean {
  return rowIds.length === totalRows && rowIds.every((id) => id < totalRows);
}
