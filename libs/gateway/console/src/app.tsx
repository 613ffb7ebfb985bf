import { useState } from 'preact/hooks';
import { HealthView } from './health-view';
import { mergeListed, type KnownTask, type ListedTask, type TaskSnapshot } from './model';
import { ResourcesView } from './resources-view';
import { SavingsView } from './savings-view';
import { SignIn } from './sign-in';
import { TasksView } from './tasks-view';

const VIEWS = [
  { id: 'tasks', label: 'Tasks' },
  { id: 'savings', label: 'Savings' },
  { id: 'resources', label: 'Resources' },
  { id: 'health', label: 'Health' },
] as const;
type ViewId = (typeof VIEWS)[number]['id'];

export function App() {
  const [session, setSession] = useState<{ token: string; subject: string }>();
  const [view, setView] = useState<ViewId>('tasks');
  const [tasks, setTasks] = useState<KnownTask[]>([]);
  const [selectedId, setSelectedId] = useState<string>();

  if (!session) {
    return (
      <main id="main">
        <SignIn onToken={(token, subject) => setSession({ token, subject })} />
      </main>
    );
  }

  const addTask = (task: KnownTask) =>
    setTasks((previous) => [...previous.filter((known) => known.task_id !== task.task_id), task]);
  const addListed = (listed: readonly ListedTask[]) => setTasks((previous) => mergeListed(previous, listed));
  const updateSnapshot = (snapshot: TaskSnapshot) =>
    setTasks((previous) => previous.map((task) => (task.task_id === snapshot.task_id ? { ...task, snapshot } : task)));
  const signOut = () => {
    setSession(undefined);
    setView('tasks');
    setTasks([]);
    setSelectedId(undefined);
  };

  return (
    <>
      <header>
        <span class="brand">S2SP console</span>
        <nav aria-label="Views">
          <ul>
            {VIEWS.map((entry) => (
              <li key={entry.id}>
                <button
                  type="button"
                  aria-current={view === entry.id ? 'page' : undefined}
                  onClick={() => setView(entry.id)}
                >
                  {entry.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          Signed in as <strong data-testid="subject">{session.subject}</strong>{' '}
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {view === 'tasks' && (
          <TasksView
            token={session.token}
            tasks={tasks}
            selectedId={selectedId}
            onTask={addTask}
            onListed={addListed}
            onSelect={setSelectedId}
            onSnapshot={updateSnapshot}
          />
        )}
        {view === 'savings' && <SavingsView tasks={tasks} />}
        {view === 'resources' && <ResourcesView token={session.token} />}
        {view === 'health' && <HealthView token={session.token} />}
      </main>
    </>
  );
}
