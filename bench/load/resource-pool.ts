import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * Calls `get_alerts` with `abstract_domains` on the weather server until `pool`
 * holds `size` fresh resource_urls or `budgetMs` has passed (each data-plane
 * fetch consumes one: they are issued before a phase, outside its timed window).
 */
export async function fillResourcePool(
  weather: Client,
  pool: string[],
  size: number,
  budgetMs: number,
  area: string,
): Promise<void> {
  const deadline = Date.now() + budgetMs;
  let failures = 0;
  const issuer = async () => {
    while (pool.length < size && Date.now() < deadline) {
      const result = await weather.callTool({ name: 'get_alerts', arguments: { area, abstract_domains: 'event' } });
      const resourceUrl = (result.structuredContent as { resource_url?: unknown } | undefined)?.resource_url;
      if (typeof resourceUrl === 'string') pool.push(resourceUrl);
      else if (++failures > 10)
        throw new Error(`get_alerts issued no resource_url: ${JSON.stringify(result).slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, issuer));
}
