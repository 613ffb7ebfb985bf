import { useEffect, useState } from 'preact/hooks';
import { DataTable, type Column } from './data-table';
import { ErrorNotice } from './error-notice';
import { fetchHealth, type HealthReport } from './health-report';
import { rpc } from './rpc';

interface Listed {
  tools: Array<{ name: string; server: string; kind: string; requiredScopes?: string[] }>;
  resources?: Array<{ server: string; uri: string; name?: string }>;
  resource_templates?: Array<{ server: string; uriTemplate: string }>;
  prompts?: Array<{ server: string; name: string }>;
}

/** One row of the apps table. */
interface AppRow {
  app: string;
  status: string;
  circuit: string;
  details: string;
  /** The agents' circuit: what the browser test waits for. */
  isAgents?: boolean;
}

const APP_COLUMNS: readonly Column<AppRow>[] = [
  { header: 'App', cell: (row) => row.app },
  { header: 'Status', cell: (row) => row.status },
  { header: 'Circuit', cell: (row) => row.circuit, testId: (row) => (row.isAgents ? 'agents-circuit' : undefined) },
  { header: 'Details', cell: (row) => row.details },
];

function appRows(health: HealthReport): AppRow[] {
  return [
    {
      app: `gateway ${health.gateway.version}`,
      status: health.status,
      circuit: '–',
      details: `contract ${health.gateway.contractVersion}, database ${health.gateway.database.status}`,
    },
    {
      app: `agents (${health.agents.url})`,
      status: health.agents.status,
      circuit: health.agents.circuit.state,
      details: health.agents.error ?? '',
      isAgents: true,
    },
    ...health.mcpServers.map((server) => ({
      app: `MCP server ${server.id}`,
      status: server.connected ? 'connected' : 'disconnected',
      circuit: server.circuit,
      details: `${server.toolCount} tools at ${server.url}${server.lastError ? `; last error: ${server.lastError}` : ''}`,
    })),
  ];
}

/** GET /health (the gateway, the agents' circuit breaker, each MCP server) and tools.list's first page (tools, resources, prompts). */
export function HealthView({ token }: { token: string }) {
  const [health, setHealth] = useState<HealthReport>();
  const [healthError, setHealthError] = useState<unknown>();
  const [listed, setListed] = useState<Listed>();
  const [listError, setListError] = useState<unknown>();
  const [round, setRound] = useState(0);

  useEffect(() => {
    setHealthError(undefined);
    setListError(undefined);
    fetchHealth().then(setHealth, setHealthError);
    rpc<Listed>(token, 'tools.list', { page_size: 200 }).then(setListed, setListError);
  }, [token, round]);

  return (
    <div class="health">
      <button type="button" onClick={() => setRound(round + 1)}>
        Refresh
      </button>
      <section aria-labelledby="health-title">
        <h2 id="health-title">Apps and circuit breakers</h2>
        {healthError !== undefined && <ErrorNotice error={healthError} what="GET /health" />}
        {health && (
          <DataTable columns={APP_COLUMNS} rows={appRows(health)} rowKey={(row) => row.app} testId="health-apps" />
        )}
        {health?.mcpServersError && <p>MCP servers unknown: {health.mcpServersError}</p>}
      </section>
      <section aria-labelledby="surfaces-title">
        <h2 id="surfaces-title">Tools, resources and prompts</h2>
        {listError !== undefined && <ErrorNotice error={listError} what="Listing the tools (tools.list)" />}
        {listed && (
          <ul data-testid="surfaces">
            {listed.tools.map((tool) => (
              <li key={`tool ${tool.server} ${tool.name}`}>
                tool{' '}
                <code>
                  {tool.server}/{tool.name}
                </code>{' '}
                ({tool.kind}){tool.requiredScopes?.length ? `, needs ${tool.requiredScopes.join(' ')}` : ''}
              </li>
            ))}
            {(listed.resources ?? []).map((resource) => (
              <li key={`resource ${resource.server} ${resource.uri}`}>
                resource <code>{resource.uri}</code> on {resource.server}
              </li>
            ))}
            {(listed.resource_templates ?? []).map((template) => (
              <li key={`template ${template.server} ${template.uriTemplate}`}>
                resource template <code>{template.uriTemplate}</code> on {template.server}
              </li>
            ))}
            {(listed.prompts ?? []).map((prompt) => (
              <li key={`prompt ${prompt.server} ${prompt.name}`}>
                prompt <code>{prompt.name}</code> on {prompt.server}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
