import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { callerFrom } from '@s2sp/auth';
import { from, mergeMap, Observable, of } from 'rxjs';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { parseAbstractDomains } from '../protocol/abstract-domains';
import { type AbstractFormat, parseAbstractFormat } from '../protocol/abstract-format';
import { isRow, Row } from '../protocol/row';
import { S2spToolError } from '../protocol/s2sp-error';
import { resourcePayload } from '../protocol/resource-payload';
import { S2SP_META, requestMeta } from '../protocol/s2sp-meta';
import { splitRows } from '../protocol/split-rows';
import { countTokens } from '@s2sp/protocol';
import {
  isToolErrorResult,
  reportToolErrors,
  toolErrorResult,
  toolJsonResult,
  type ToolResult,
} from '../protocol/tool-result';
import { toolNameOf } from '../protocol/tool-name';
import { resourceLinkBlock } from '../protocol/resource-link';
import { ResourcePublisher, type ResourceIssuance } from './resource-publisher.service';
import { S2SP_RESOURCE_TOOL } from './resource-tool.metadata';
import type { S2spResourceToolOptions } from './s2sp-resource-tool.options';

const CONSUMER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

type ResourceToolArgs = Record<string, unknown> & {
  abstract_domains?: string;
  mode?: 'async' | 'sync';
  abstract_format?: string;
};

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
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<ToolResult> {
    const rpc = context.switchToRpc();
    const args = rpc.getData<ResourceToolArgs>();
    const mcp = rpc.getContext<{ mcpRequest?: unknown; getRawRequest?: () => unknown } | undefined>();
    const meta = requestMeta(mcp?.mcpRequest);
    const countBodyTokens = meta[S2SP_META.COUNT_TOKENS] === true;
    const { abstract_domains: rawDomains, mode = 'async', abstract_format: rawFormat } = args;
    delete args.abstract_domains;
    delete args.mode;
    delete args.abstract_format;

    let domains: string[] | null;
    let format: AbstractFormat;
    let issuance: ResourceIssuance;
    try {
      issuance = this.issuanceFor(context, mcp?.getRawRequest?.(), meta);
      domains = parseAbstractDomains(rawDomains, {
        maxColumns: this.options.limits.maxColumnsPerRequest,
        maxColumnNameLength: this.options.limits.maxColumnNameLength,
      });
      format = parseAbstractFormat(rawFormat, domains !== null);
    } catch (error) {
      return of(toolErrorResult(error, this.logger));
    }
    const toolName = toolNameOf(context);
    return next.handle().pipe(
      reportToolErrors(),
      mergeMap((result: unknown) => {
        if (isToolErrorResult(result)) return of(result);
        return from(
          this.answer(toolName, result, { domains, mode, format }, countBodyTokens, issuance).catch((error: unknown) =>
            toolErrorResult(error, this.logger),
          ),
        );
      }),
    );
  }

  private async answer(
    toolName: string,
    result: unknown,
    { domains, mode, format }: { domains: string[] | null; mode: 'async' | 'sync'; format: AbstractFormat },
    countBodyTokens: boolean,
    issuance: ResourceIssuance,
  ): Promise<ToolResult> {
    const rows = this.asRows(toolName, result);
    if (domains === null) return toolJsonResult({ result: rows }, rows);

    const split = splitRows(rows, domains);
    const resourceUrl = mode === 'sync' ? undefined : await this.publisher.publish(toolName, split, issuance);
    const answer = toolJsonResult({ ...resourcePayload(split, format, resourceUrl) });
    if (resourceUrl !== undefined)
      answer.content.push(resourceLinkBlock(toolName, resourceUrl, rows.length, split.bodyDomains.length));
    if (countBodyTokens) {
      const bodyJson = JSON.stringify(split.body);
      answer._meta = {
        [S2SP_META.BODY_TOKENS]: countTokens(bodyJson),
        [S2SP_META.BODY_BYTES]: Buffer.byteLength(bodyJson),
      };
    }
    return answer;
  }

  /**
   * The verified caller (set by the /mcp auth middleware), the tool's scopes,
   * and the consumer the agent named in `_meta["s2sp/consumer"]`. Under the
   * `capability` data-plane policy the resource is bound to neither caller nor
   * consumer: whoever holds the resource_url may fetch it once.
   */
  private issuanceFor(context: ExecutionContext, rawRequest: unknown, meta: Record<string, unknown>): ResourceIssuance {
    const consumer = meta[S2SP_META.CONSUMER];
    if (consumer !== undefined && (typeof consumer !== 'string' || !CONSUMER_NAME.test(consumer))) {
      throw new S2spToolError(`_meta["${S2SP_META.CONSUMER}"] must be a service name matching ${CONSUMER_NAME}.`);
    }
    const tool = this.reflector.get<S2spResourceToolOptions | undefined>(S2SP_RESOURCE_TOOL, context.getHandler());
    if (this.options.dataPlaneAuth === 'capability') {
      return { caller: null, callerScopes: null, requiredScopes: [...(tool?.scopes ?? [])], consumer: null };
    }
    const caller = rawRequest === undefined ? undefined : callerFrom(rawRequest);
    return {
      caller: caller?.subject ?? null,
      callerScopes: caller ? [...caller.scopes] : null,
      requiredScopes: [...(tool?.scopes ?? [])],
      consumer: consumer ?? null,
    };
  }

  private asRows(toolName: string, result: unknown): Row[] {
    const rows = Array.isArray(result) ? result : [result];
    if (!rows.every(isRow)) {
      throw new S2spToolError(`Tool ${toolName} returned something other than rows (an array of objects).`);
    }
    if (rows.length > this.options.limits.maxRows) {
      throw new S2spToolError(
        `Tool ${toolName} returned ${rows.length} rows; this server caches at most ${this.options.limits.maxRows}.`,
      );
    }
    return rows;
  }
}
