import type { AgentsConfig } from '../agents.config';
import type { McpConnectorService } from '../mcp/mcp-connector.service';
import type { ModelProvider } from '../sampling/model-provider';
import { RefusingModelProvider } from '../sampling/refusing-model-provider';
import { DeclarativePlanner } from '../tasks/declarative-planner';
import type { TaskPlanner } from '../tasks/task-planner';
import { ModelPlanner } from './model-planner';

/** The planner `config.planner` names; the model planner needs a model (config.model or a MODEL_PROVIDER of your own). */
export function plannerFromConfig(
  config: AgentsConfig,
  model: ModelProvider,
  connector: McpConnectorService,
): TaskPlanner {
  if (config.planner !== 'model') return new DeclarativePlanner();
  if (model instanceof RefusingModelProvider) {
    throw new Error(
      'planner "model" needs a language model: set model (AGENTS_MODEL_API, AGENTS_MODEL_URL, AGENTS_MODEL_NAME) or give AgentsModule a modelProvider',
    );
  }
  return new ModelPlanner(model, connector, config);
}
