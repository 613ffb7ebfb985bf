import type { v2 } from '@s2sp/contracts';
import type { ServerSurfaces } from '../mcp/server-surfaces';

/** The MCP servers' resources, resource templates and prompts as s2sp.v2 messages. */
export function listSurfacesResponse(surfaces: ServerSurfaces): v2.ListSurfacesResponse {
  return {
    resources: surfaces.resources.map((resource) => ({
      server: resource.serverId,
      uri: resource.uri,
      name: resource.name,
      title: resource.title ?? '',
      description: resource.description ?? '',
      mime_type: resource.mimeType ?? '',
    })),
    resource_templates: surfaces.resourceTemplates.map((template) => ({
      server: template.serverId,
      uri_template: template.uriTemplate,
      name: template.name,
      title: template.title ?? '',
      description: template.description ?? '',
      mime_type: template.mimeType ?? '',
    })),
    prompts: surfaces.prompts.map((prompt) => ({
      server: prompt.serverId,
      name: prompt.name,
      title: prompt.title ?? '',
      description: prompt.description ?? '',
      arguments: prompt.arguments.map((argument) => ({
        name: argument.name,
        description: argument.description ?? '',
        required: argument.required,
      })),
    })),
  };
}
