import { Payload } from '@nestjs/microservices';
import { McpController, Tool } from '@rekog/mcp-nest';
import { ECHO, echoResult } from './overhead-tools';

@McpController()
export class EchoController {
  @Tool(ECHO)
  echo(@Payload() { text }: { text: string }) {
    return echoResult(text);
  }
}
