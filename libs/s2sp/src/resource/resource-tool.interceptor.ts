import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { from, mergeMap, Observable, of } from 'rxjs';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { parseAbstractDomains } from '../protocol/abstract-domains';
import { isRow, Row } from '../protocol/row';
import { S2spToolError } from '../protocol/s2sp-error';
import type { S2spResourcePayload } from '../protocol/s2sp-payload';
import { S2SP_META, requestMeta } from '../protocol/s2sp-meta';
import { splitRows } from '../protocol/split-rows';
import { countTokens } from '../protocol/token-count';
import { isToolErrorResult, reportToolErrors, toolErrorResult, toolJsonResult, type ToolResult } from '../protocol/tool-result';
import { toolNameOf } from '../protocol/tool-name';
import { ResourcePublisher } from './resource-publisher.service';

type ResourceToolArgs = Record<string, unknown> & { abstract_domains?: string; mode?: 'async' | 'sync' };

/**
 * Turns the rows a resource tool returns into a plain MCP result or, when
 * abstract_domains is given, into the S2SP control-plane answer.
 */
@Injectable()
export class ResourceToolInterceptor implements NestInterceptor {
  private readonly logger = new Logger('S2spResourceTool');

  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    private readonly publisher: ResourcePublisher,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<ToolResult> {
    const rpc = context.switchToRpc();
    const args = rpc.getData<ResourceToolArgs>();
    const countBodyTokens = requestMeta(rpc.getContext<{ mcpRequest?: unknown } | undefined>()?.mcpRequest)[S2SP_META.COUNT_TOKENS] === true;
    const { abstract_domains: rawDomains, mode = 'async' } = args;
    delete args.abstract_domains;
    delete args.mode;

    let domains: string[] | null;
    try {
      domains = parseAbstractDomains(rawDomains, {
        maxColumns: this.options.limits.maxColumnsPerRequest,
        maxColumnNameLength: this.options.limits.maxColumnNameLength,
      });
    } catch (error) {
      return of(toolErrorResult(error, this.logger));
    }
    const toolName = toolNameOf(context);
    return next.handle().pipe(
      reportToolErrors(),
      mergeMap((result: unknown) => {
        if (isToolErrorResult(result)) return of(result);
        return from(this.answer(toolName, result, domains, mode, countBodyTokens).catch((error: unknown) => toolErrorResult(error, this.logger)));
      }),
    );
  }

  private async answer(
    toolName: string,
    result: unknown,
    domains: string[] | null,
    mode: 'async' | 'sync',
    countBodyTokens: boolean,
  ): Promise<ToolResult> {
    const rows = this.asRows(toolName, result);
    if (domains === null) return toolJsonResult({ result: rows }, rows);

    const split = splitRows(rows, domains);
    const envelope = {
      total_rows: rows.length,
      columns: split.columns,
      abstract_domains: split.abstractDomains,
      body_domains: split.bodyDomains,
    };
    const payload: S2spResourcePayload =
      mode === 'sync'
        ? { ...envelope, abstract: split.abstract, body: split.body }
        : { ...envelope, resource_url: await this.publisher.publish(toolName, split, null), abstract: split.abstract };
    const answer = toolJsonResult({ ...payload });
    if (countBodyTokens) {
      const bodyJson = JSON.stringify(split.body);
      answer._meta = { [S2SP_META.BODY_TOKENS]: countTokens(bodyJson), [S2SP_META.BODY_BYTES]: Buffer.byteLength(bodyJson) };
    }
    return answer;
  }

  private asRows(toolName: string, result: unknown): Row[] {
    const rows = Array.isArray(result) ? result : [result];
    if (!rows.every(isRow)) {
      throw new S2spToolError(`Tool ${toolName} returned something other than rows (an array of objects).`);
    }
    if (rows.length > this.options.limits.maxRows) {
      throw new S2spToolError(`Tool ${toolName} returned ${rows.length} rows; this server caches at most ${this.options.limits.maxRows}.`);
    }
    return rows;
  }
}
