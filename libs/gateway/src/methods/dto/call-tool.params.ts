import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { IdempotencyKey } from '../../idempotency/idempotency-key.decorator';

/** Params of tools.call: MCP's tools/call params, plus the server and an idempotency key. */
export class CallToolParams {
  /** Tool name as the MCP server exposes it, e.g. "get_alerts". */
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  name!: string;

  /** The tool's arguments (a JSON object, passed to the tool as is); {} when omitted. */
  @IsOptional()
  @IsObject()
  arguments?: Record<string, unknown>;

  /** MCP server id; omitted = resolved by tool name. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  server?: string;

  @IdempotencyKey()
  idempotency_key?: string;
}
