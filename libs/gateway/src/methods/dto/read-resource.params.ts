import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

/** No control characters: the agents refuse them too, and they have no place in an id or a URI. */
// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

/** Params of resources.read. */
export class ReadResourceParams {
  /** The MCP server, by the id the agents know it by (e.g. "weather"; tools.list names each tool's). */
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  @Matches(NO_CONTROL_CHARACTERS, { message: 'server must not contain control characters' })
  server!: string;

  /** The resource's URI as the server names it, e.g. "s2sp://data-plane/activity". */
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  @Matches(NO_CONTROL_CHARACTERS, { message: 'uri must not contain control characters' })
  uri!: string;
}
