import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator, Tool } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';

/** Most distinct output schemas kept compiled; past it the oldest is dropped (a server may change its schemas at will). */
const DEFAULT_MAX_SCHEMAS = 1_000;

/**
 * The JSON Schema validator of the agents' MCP clients: the SDK's own (AJV), with each output
 * schema compiled once per process, when discovery lists the tool, rather than at the tool's first
 * call: the SDK compiles every tool's output schema of a server at the first `tools/call` to it, and
 * a fresh process builds its AJV engine then too (bench/startup: part of the first task's extra).
 * Identical schemas share one compiled validator (validators are pure).
 */
export class OutputSchemaValidators implements jsonSchemaValidator {
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  constructor(
    private readonly compiler: jsonSchemaValidator = new AjvJsonSchemaValidator(),
    private readonly maxSchemas = DEFAULT_MAX_SCHEMAS,
  ) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (!validator) {
      // A schema that does not compile throws here, at every call: the SDK reports it for that tool only.
      validator = this.compiler.getValidator<unknown>(schema);
      if (this.compiled.size >= this.maxSchemas) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(key, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }

  /** Compiles the output schemas of `tools` now; one that does not compile is left for its call to report. */
  precompile(tools: readonly Tool[]): void {
    for (const tool of tools) {
      if (!tool.outputSchema) continue;
      try {
        this.getValidator(tool.outputSchema);
      } catch {
        // Reported by the SDK when the tool is called.
      }
    }
  }
}
