import { useEffect, useState } from 'preact/hooks';
import { DataTable, type Column } from './data-table';
import { ErrorNotice } from './error-notice';
import { fetchHealth } from './health-report';
import { rpc } from './rpc';

/** The resource an S2SP resource server answers its data-plane activity with (libs/s2sp/src/activity). */
const ACTIVITY_URI = 's2sp://data-plane/activity';

/** One row of the activity summary (ResourceActivityRow in libs/s2sp/src/activity/resource-activity-summary.ts). */
interface ActivityRow {
  toolName: string;
  caller: string | null;
  issued: number;
  consumed: number;
  expired: number;
  live: number;
  fetches: number;
  bytes: number;
  lastFetch: string | null;
}

/** resources.read's result (libs/gateway/src/transcoding/resource-transcoding.ts), as far as this view reads it. */
interface ReadResult {
  contents: Array<{ uri: string; mimeType?: string; text?: string }>;
  error?: { code: number; message: string };
}

/** What one server answered. */
type ServerActivity =
  | { state: 'reading' }
  | { state: 'rows'; generatedAt: string; rows: ActivityRow[] }
  | { state: 'not-offered'; message: string }
  | { state: 'failed'; error: unknown };

const count = (value: number) => value.toLocaleString('en');

const ACTIVITY_COLUMNS: readonly Column<ActivityRow>[] = [
  { header: 'Tool', cell: (row) => row.toolName },
  { header: 'Caller', cell: (row) => row.caller ?? '(anonymous)' },
  { header: 'Issued', cell: (row) => count(row.issued), numeric: true },
  { header: 'Consumed', cell: (row) => count(row.consumed), numeric: true },
  { header: 'Expired', cell: (row) => count(row.expired), numeric: true },
  { header: 'Live', cell: (row) => count(row.live), numeric: true },
  { header: 'Fetches', cell: (row) => count(row.fetches), numeric: true },
  { header: 'Bytes', cell: (row) => count(row.bytes), numeric: true },
  { header: 'Last fetch', cell: (row) => row.lastFetch ?? '–' },
];

/** The activity summary out of resources.read's answer; a server without it, or with something else at that URI, "does not offer it". */
function activityOf(result: ReadResult): ServerActivity {
  if (result.error) return { state: 'not-offered', message: result.error.message };
  const text = result.contents.find(
    (content) => content.uri === ACTIVITY_URI && typeof content.text === 'string',
  )?.text;
  try {
    const summary = JSON.parse(text ?? '') as { generatedAt?: unknown; rows?: unknown };
    if (typeof summary.generatedAt === 'string' && Array.isArray(summary.rows))
      return { state: 'rows', generatedAt: summary.generatedAt, rows: summary.rows as ActivityRow[] };
  } catch {
    // not JSON: answered below as not an activity summary
  }
  return { state: 'not-offered', message: `what it answers at ${ACTIVITY_URI} is not an activity summary` };
}

/**
 * Per MCP server that GET /health lists: its data-plane activity
 * (resources.read of s2sp://data-plane/activity), one table per server that
 * offers it. Each server checks s2sp:activity:read itself, so a refusal is shown per server.
 */
export function ResourcesView({ token }: { token: string }) {
  const [servers, setServers] = useState<string[]>();
  const [healthError, setHealthError] = useState<unknown>();
  const [activity, setActivity] = useState<Record<string, ServerActivity>>({});
  const [round, setRound] = useState(0);

  useEffect(() => {
    let current = true;
    setHealthError(undefined);
    fetchHealth().then(
      (health) => {
        if (!current) return;
        const ids = health.mcpServers.map((server) => server.id);
        setServers(ids);
        setActivity(Object.fromEntries(ids.map((id) => [id, { state: 'reading' }])));
        for (const id of ids) {
          rpc<ReadResult>(token, 'resources.read', { server: id, uri: ACTIVITY_URI }).then(
            (result) => current && setActivity((previous) => ({ ...previous, [id]: activityOf(result) })),
            (error: unknown) =>
              current && setActivity((previous) => ({ ...previous, [id]: { state: 'failed', error } })),
          );
        }
      },
      (error: unknown) => current && setHealthError(error),
    );
    return () => {
      current = false;
    };
  }, [token, round]);

  return (
    <div class="resources">
      <p>
        Resources each S2SP resource server issued, consumed and saw expire, and the data-plane fetches that served
        them, by tool and caller (<code>{ACTIVITY_URI}</code>, scope <code>s2sp:activity:read</code>).
      </p>
      <button type="button" onClick={() => setRound(round + 1)}>
        Refresh
      </button>
      {healthError !== undefined && <ErrorNotice error={healthError} what="GET /health" />}
      {servers?.length === 0 && <p>The agents know no MCP server.</p>}
      {servers?.map((server) => (
        <ServerSection key={server} server={server} activity={activity[server] ?? { state: 'reading' }} />
      ))}
    </div>
  );
}

function ServerSection({ server, activity }: { server: string; activity: ServerActivity }) {
  const titleId = `resources-${server}`;
  return (
    <section aria-labelledby={titleId} data-testid={`resources-server-${server}`}>
      <h2 id={titleId}>MCP server {server}</h2>
      {activity.state === 'reading' && <p>Reading…</p>}
      {activity.state === 'not-offered' && (
        <p data-testid="not-offered">
          {server} does not offer its data-plane activity ({activity.message}).
        </p>
      )}
      {activity.state === 'failed' && (
        <ErrorNotice error={activity.error} what={`Reading the activity of ${server} (resources.read)`} />
      )}
      {activity.state === 'rows' &&
        (activity.rows.length === 0 ? (
          <p>No resources issued or fetched yet.</p>
        ) : (
          <DataTable
            columns={ACTIVITY_COLUMNS}
            rows={activity.rows}
            rowKey={(row) => JSON.stringify([row.toolName, row.caller])}
            caption={`As of ${activity.generatedAt}`}
            testId={`activity-${server}`}
          />
        ))}
    </section>
  );
}
