import { ENDED, type KnownTask } from './model';

const WIDTH = 640;
const HEIGHT = 240;
const MARGIN = { top: 16, right: 16, bottom: 36, left: 56 };

/** Tokens that entered the model's context and tokens S2SP kept out, per finished task in order, as bars (from the tasks' snapshots). */
export function SavingsView({ tasks }: { tasks: readonly KnownTask[] }) {
  const finished = tasks.filter((task) => task.snapshot && ENDED.has(task.snapshot.status));
  const inContext = finished.reduce((sum, task) => sum + task.snapshot!.usage.tokens_in_context, 0);
  const keptOut = finished.reduce((sum, task) => sum + task.snapshot!.usage.tokens_kept_out, 0);
  return (
    <section aria-labelledby="savings-title">
      <h2 id="savings-title">Token savings</h2>
      <p data-testid="savings-total">
        {finished.length} finished task{finished.length === 1 ? '' : 's'}: {inContext} tokens in the model's context,{' '}
        {keptOut} kept out
        {inContext + keptOut > 0
          ? ` (${Math.round((100 * keptOut) / (inContext + keptOut))} % of the data never reached the model)`
          : ''}
        .
      </p>
      {finished.length === 0 ? <p>No finished task yet: submit one in Tasks.</p> : <SavingsChart tasks={finished} />}
    </section>
  );
}

function SavingsChart({ tasks }: { tasks: readonly KnownTask[] }) {
  const max = Math.max(
    1,
    ...tasks.flatMap((task) => [task.snapshot!.usage.tokens_in_context, task.snapshot!.usage.tokens_kept_out]),
  );
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / tasks.length;
  const bar = Math.min(40, slot / 2.5);
  const y = (value: number) => MARGIN.top + plotHeight - (value / max) * plotHeight;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="savings-chart-title"
        data-testid="savings-chart"
        class="chart"
      >
        <title id="savings-chart-title">Tokens in context and kept out, per task</title>
        <line
          x1={MARGIN.left}
          y1={MARGIN.top + plotHeight}
          x2={WIDTH - MARGIN.right}
          y2={MARGIN.top + plotHeight}
          class="axis"
        />
        <text x={MARGIN.left - 8} y={MARGIN.top + 4} class="tick" text-anchor="end">
          {max}
        </text>
        <text x={MARGIN.left - 8} y={MARGIN.top + plotHeight} class="tick" text-anchor="end">
          0
        </text>
        {tasks.map((task, index) => {
          const usage = task.snapshot!.usage;
          const x = MARGIN.left + index * slot + slot / 2;
          return (
            <g key={task.task_id} data-testid="savings-bar-group">
              <rect
                class="bar in-context"
                x={x - bar}
                y={y(usage.tokens_in_context)}
                width={bar}
                height={MARGIN.top + plotHeight - y(usage.tokens_in_context)}
              >
                <title>{`${usage.tokens_in_context} tokens in context`}</title>
              </rect>
              <rect
                class="bar kept-out"
                x={x}
                y={y(usage.tokens_kept_out)}
                width={bar}
                height={MARGIN.top + plotHeight - y(usage.tokens_kept_out)}
              >
                <title>{`${usage.tokens_kept_out} tokens kept out`}</title>
              </rect>
              <text x={x} y={HEIGHT - 12} class="tick" text-anchor="middle">
                {task.task_id.slice(0, 8)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        <span class="key in-context" aria-hidden="true" /> in the model's context{' '}
        <span class="key kept-out" aria-hidden="true" /> kept out by S2SP
      </figcaption>
    </figure>
  );
}
