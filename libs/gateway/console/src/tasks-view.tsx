import { useEffect, useState } from 'preact/hooks';
import { DataTable, type Column } from './data-table';
import { ErrorNotice } from './error-notice';
import type { KnownTask, ListedTask, TaskSnapshot } from './model';
import { rpc } from './rpc';
import { TaskLive } from './task-live';
import { PLAN_TEMPLATES } from './templates';

interface Props {
  token: string;
  tasks: readonly KnownTask[];
  selectedId: string | undefined;
  onTask: (task: KnownTask) => void;
  onListed: (tasks: readonly ListedTask[]) => void;
  onSelect: (taskId: string) => void;
  onSnapshot: (snapshot: TaskSnapshot) => void;
}

/** Tasks agent.listTasks is asked for at a time. */
const LIST_PAGE_SIZE = 25;

const planText = (plan: unknown[]): string => JSON.stringify(plan, null, 2);

function taskColumns(onSelect: (taskId: string) => void): readonly Column<KnownTask>[] {
  return [
    {
      header: 'Task',
      cell: (task) => (
        <button type="button" class="link" onClick={() => onSelect(task.task_id)}>
          {task.task_id.slice(0, 8)}…
        </button>
      ),
    },
    { header: 'Objective', cell: (task) => task.objective },
    { header: 'Status', cell: (task) => task.snapshot?.status ?? task.listed?.status ?? 'accepted' },
    { header: 'Tokens kept out', cell: (task) => (task.snapshot ?? task.listed)?.usage.tokens_kept_out ?? '–' },
  ];
}

/** Submit a plan (agent.submitTask), the caller's tasks (agent.listTasks), one of them live (TaskLive). */
export function TasksView({ token, tasks, selectedId, onTask, onListed, onSelect, onSnapshot }: Props) {
  const [templateId, setTemplateId] = useState(PLAN_TEMPLATES[0]!.id);
  const [objective, setObjective] = useState(PLAN_TEMPLATES[0]!.objective);
  const [plan, setPlan] = useState(planText(PLAN_TEMPLATES[0]!.plan));
  const [lookup, setLookup] = useState('');
  const [error, setError] = useState<{ error: unknown; what: string }>();
  const [busy, setBusy] = useState(false);
  const [listError, setListError] = useState<unknown>();
  const [listing, setListing] = useState(false);
  const [nextCursor, setNextCursor] = useState<string>();
  const selected = tasks.find((task) => task.task_id === selectedId);

  /** The newest page again (cursor undefined), or the page after the last one listed. */
  const list = async (cursor?: string) => {
    setListing(true);
    setListError(undefined);
    try {
      const page = await rpc<{ tasks: ListedTask[]; next_cursor?: string }>(token, 'agent.listTasks', {
        page_size: LIST_PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
      });
      const earlier = cursor ? tasks.flatMap((task) => (task.listed ? [task.listed] : [])) : [];
      onListed([...earlier, ...page.tasks]);
      setNextCursor(page.next_cursor);
    } catch (failure) {
      setListError(failure);
    } finally {
      setListing(false);
    }
  };

  useEffect(() => {
    void list();
  }, [token]);

  const chooseTemplate = (id: string) => {
    const template = PLAN_TEMPLATES.find((candidate) => candidate.id === id);
    if (!template) return;
    setTemplateId(id);
    setObjective(template.objective);
    setPlan(planText(template.plan));
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    let steps: unknown;
    try {
      steps = JSON.parse(plan);
    } catch (failure) {
      return setError({ error: new Error(`the plan is not JSON (${(failure as Error).message})`), what: 'Submitting' });
    }
    setBusy(true);
    try {
      const submitted = await rpc<{ task_id: string }>(token, 'agent.submitTask', { objective, plan: steps });
      onTask({ task_id: submitted.task_id, objective });
      onSelect(submitted.task_id);
      void list();
    } catch (failure) {
      setError({ error: failure, what: 'Submitting the task (agent.submitTask)' });
    } finally {
      setBusy(false);
    }
  };

  const open = (event: Event) => {
    event.preventDefault();
    const taskId = lookup.trim().toLowerCase();
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(taskId)) {
      return setError({ error: new Error('a task id is a UUID'), what: 'Opening the task' });
    }
    setError(undefined);
    if (!tasks.some((task) => task.task_id === taskId)) onTask({ task_id: taskId, objective: '(looked up by id)' });
    onSelect(taskId);
  };

  return (
    <div class="tasks">
      <section aria-labelledby="submit-title">
        <h2 id="submit-title">Submit a task</h2>
        <form onSubmit={submit}>
          <label for="template">Template</label>
          <select id="template" value={templateId} onChange={(event) => chooseTemplate(event.currentTarget.value)}>
            {PLAN_TEMPLATES.map((template) => (
              <option key={template.id} value={template.id}>
                {template.label}
              </option>
            ))}
          </select>
          <label for="objective">Objective</label>
          <input id="objective" value={objective} onInput={(event) => setObjective(event.currentTarget.value)} />
          <label for="plan">Plan (JSON: steps with resource_call, filter or consumer_call)</label>
          <textarea
            id="plan"
            rows={12}
            spellcheck={false}
            value={plan}
            onInput={(event) => setPlan(event.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            Submit task
          </button>
        </form>
        <form onSubmit={open} class="lookup">
          <label for="lookup">Open a task by id</label>
          <input id="lookup" value={lookup} onInput={(event) => setLookup(event.currentTarget.value)} />
          <button type="submit">Open</button>
        </form>
        {error && <ErrorNotice error={error.error} what={error.what} />}
      </section>
      <section aria-labelledby="list-title">
        <h2 id="list-title">Your tasks</h2>
        <button type="button" onClick={() => void list()} disabled={listing}>
          Refresh
        </button>
        {listError !== undefined && <ErrorNotice error={listError} what="Listing your tasks (agent.listTasks)" />}
        {tasks.length === 0 ? (
          <p>None yet.</p>
        ) : (
          <DataTable
            columns={taskColumns(onSelect)}
            rows={tasks}
            rowKey={(task) => task.task_id}
            isCurrent={(task) => task.task_id === selectedId}
            testId="task-list"
          />
        )}
        {nextCursor && (
          <button type="button" onClick={() => void list(nextCursor)} disabled={listing}>
            More tasks
          </button>
        )}
      </section>
      {selected && <TaskLive key={selected.task_id} token={token} task={selected} onSnapshot={onSnapshot} />}
    </div>
  );
}
