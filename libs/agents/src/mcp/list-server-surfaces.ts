import type { Client } from '@modelcontextprotocol/client';
import { listAllPages } from './list-all-pages';
import type { ListedPrompt, ListedResource, ListedResourceTemplate, ServerSurfaces } from './server-surfaces';

type RequestOptions = { timeout?: number; signal?: AbortSignal };

/** Longest text kept of a listed name, URI or description: a server's strings reach every caller of tools.list. */
const MAX_TEXT = 1024;

/** The resources, resource templates and prompts a connected server declares (each list only when its capability is declared). */
export async function listServerSurfaces(
  serverId: string,
  client: Client,
  options: RequestOptions,
): Promise<ServerSurfaces> {
  const capabilities = client.getServerCapabilities() ?? {};
  const [resources, resourceTemplates, prompts] = await Promise.all([
    capabilities.resources
      ? listAllPages('resources/list', async (cursor) => {
          const page = await client.listResources(cursor === undefined ? undefined : { cursor }, options);
          return { items: page.resources, nextCursor: page.nextCursor };
        })
      : [],
    capabilities.resources
      ? listAllPages('resources/templates/list', async (cursor) => {
          const page = await client.listResourceTemplates(cursor === undefined ? undefined : { cursor }, options);
          return { items: page.resourceTemplates, nextCursor: page.nextCursor };
        })
      : [],
    capabilities.prompts
      ? listAllPages('prompts/list', async (cursor) => {
          const page = await client.listPrompts(cursor === undefined ? undefined : { cursor }, options);
          return { items: page.prompts, nextCursor: page.nextCursor };
        })
      : [],
  ]);
  return {
    resources: resources.map((resource): ListedResource => ({
      serverId,
      uri: text(resource.uri),
      name: text(resource.name),
      ...describe(resource),
    })),
    resourceTemplates: resourceTemplates.map((template): ListedResourceTemplate => ({
      serverId,
      uriTemplate: text(template.uriTemplate),
      name: text(template.name),
      ...describe(template),
    })),
    prompts: prompts.map((prompt): ListedPrompt => ({
      serverId,
      name: text(prompt.name),
      ...optional('title', prompt.title),
      ...optional('description', prompt.description),
      arguments: (prompt.arguments ?? []).map((argument) => ({
        name: text(argument.name),
        ...optional('description', argument.description),
        required: argument.required === true,
      })),
    })),
  };
}

function describe(item: { title?: string; description?: string; mimeType?: string }): {
  title?: string;
  description?: string;
  mimeType?: string;
} {
  return {
    ...optional('title', item.title),
    ...optional('description', item.description),
    ...optional('mimeType', item.mimeType),
  };
}

function optional<K extends string>(key: K, value: unknown): { [P in K]?: string } {
  return typeof value === 'string' && value !== '' ? ({ [key]: text(value) } as { [P in K]?: string }) : {};
}

function text(value: unknown): string {
  return String(value).slice(0, MAX_TEXT);
}
