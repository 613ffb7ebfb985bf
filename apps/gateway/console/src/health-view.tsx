import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from './error-notice';
import { rpc } from './rpc';

interface HealthReport {
  status: string;
  gateway: { version: string; contractVersion: string; database: { status: string }; audit: { status?: string } };
  agents: { url: string; status: string; circuit: { state: string }; error?: string };
  mcpServers: Array<{ id: string; url: string; connected: boolean; circuit: string; toolCount: number; lastError?: string }>;
  mcpServersError?: string;
}

interface Listed {
  tools: Array<{ name: string; server: string; kind: string; requiredScopes?: string[] }>;
  resources?: Array<{ server: string; uri: string; name?: string }>;
  resource_templates?: Array<{ server: string; uriTemplate: string }>;
  prompts?: Array<{ server: string; name: string }>;
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
    fetch('/health')
      .then((response) => response.json() as Promise<HealthReport>)
      .then(setHealth, setHealthError);
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
          <table data-testid="health-apps">
            <thead>
              <tr>
                <th scope="col">App</th>
                <th scope="col">Status</th>
                <th scope="col">Circuit</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>gateway {health.gateway.version}</td>
                <td>{health.status}</td>
                <td>–</td>
                <td>
                  contract {health.gateway.contractVersion}, database {health.gateway.database.status}
                </td>
              </tr>
              <tr>
                <td>agents ({health.agents.url})</td>
                <td>{health.agents.status}</td>
                <td data-testid="agents-circuit">{health.agents.circuit.state}</td>
                <td>{health.agents.error ?? ''}</td>
              </tr>
              {health.mcpServers.map((server) => (
                <tr key={server.id}>
                  <td>MCP server {server.id}</td>
                  <td>{server.connected ? 'connected' : 'disconnected'}</td>
                  <td>{server.circuit}</td>
                  <td>
                    {server.toolCount} tools at {server.url}
                    {server.lastError ? `; last error: ${server.lastError}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
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
                tool <code>{tool.server}/{tool.name}</code> ({tool.kind}){tool.requiredScopes?.length ? `, needs ${tool.requiredScopes.join(' ')}` : ''}
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
