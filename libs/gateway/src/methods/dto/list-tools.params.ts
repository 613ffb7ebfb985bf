import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Params of tools.list. */
export class ListToolsParams {
  /** Opaque cursor from a previous page's nextCursor. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  cursor?: string;

  /** Only the tools of this MCP server, e.g. "weather". */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  server?: string;

  /** Tools per page; the agents' default when omitted. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  page_size?: number;
}
