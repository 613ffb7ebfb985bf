import { Module } from '@nestjs/common';
import { InMemoryResourceStore, MCP_COMPLETION_SOURCE, S2spModule } from '@s2sp/core';
import { ConformanceCompletions } from './conformance-completions';
import { ContentToolsController } from './content-tools.controller';
import { DiagnosticsController } from './diagnostics.controller';
import { InteractionToolsController } from './interaction-tools.controller';
import { ListMutations } from './list-mutations';
import { ResourcesAndPromptsController } from './resources-and-prompts.controller';
import { TaskToolsController } from './task-tools.controller';

/** Every fixture the MCP conformance suite's server scenarios call, on an S2spModule app. */
@Module({
  imports: [S2spModule.forRoot({ resourceStore: { useValue: new InMemoryResourceStore() }, warmUp: false })],
  controllers: [
    ContentToolsController,
    InteractionToolsController,
    ResourcesAndPromptsController,
    DiagnosticsController,
    TaskToolsController,
  ],
  providers: [ListMutations, { provide: MCP_COMPLETION_SOURCE, useClass: ConformanceCompletions }],
})
export class ConformanceServerModule {}
