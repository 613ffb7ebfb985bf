/** A resource an MCP server lists (`resources/list`). */
export interface ListedResource {
  serverId: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A resource template an MCP server lists (`resources/templates/list`). */
export interface ListedResourceTemplate {
  serverId: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A prompt an MCP server lists (`prompts/list`), with its arguments. */
export interface ListedPrompt {
  serverId: string;
  name: string;
  title?: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

/** What one MCP server offers besides tools: empty lists where it declares no such capability. */
export interface ServerSurfaces {
  resources: ListedResource[];
  resourceTemplates: ListedResourceTemplate[];
  prompts: ListedPrompt[];
}

export const NO_SURFACES: ServerSurfaces = Object.freeze({ resources: [], resourceTemplates: [], prompts: [] });
