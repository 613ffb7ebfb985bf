import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator, Tool } from '@modelcontextprotocol/client';
import { OutputSchemaValidators } from '../../libs/agents/src/mcp/output-schema-validators';

const ALERTS: JsonSchemaType = {
  type: 'object',
  properties: { count: { type: 'integer' } },
  required: ['count'],
};

function tool(name: string, outputSchema?: JsonSchemaType): Tool {
  return { name, inputSchema: { type: 'object' }, ...(outputSchema ? { outputSchema } : {}) } as Tool;
}

/** A compiler that counts what it compiles and refuses schemas titled "broken". */
function countingCompiler(): jsonSchemaValidator & { compiled: string[] } {
  const compiled: string[] = [];
  return {
    compiled,
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      compiled.push(JSON.stringify(schema));
      if ((schema as { title?: string }).title === 'broken') throw new Error('unresolvable $ref');
      return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
    },
  };
}

describe('OutputSchemaValidators', () => {
  test('validates with the SDK AJV validator: a result that matches passes, one that does not names what is wrong', () => {
    const validate = new OutputSchemaValidators().getValidator<{ count: number }>(ALERTS);
    assert.equal(validate({ count: 3 }).valid, true);
    const refused = validate({ count: 'three' });
    assert.equal(refused.valid, false);
    assert.match(refused.errorMessage ?? '', /count|integer/);
  });

  test('precompile compiles each listed output schema once; the call then reuses it, and an equal schema shares it', () => {
    const compiler = countingCompiler();
    const validators = new OutputSchemaValidators(compiler);
    validators.precompile([tool('get_alerts', ALERTS), tool('ping'), tool('get_alerts_copy', { ...ALERTS })]);
    assert.equal(compiler.compiled.length, 1);
    const first = validators.getValidator(ALERTS);
    assert.equal(validators.getValidator(JSON.parse(JSON.stringify(ALERTS)) as JsonSchemaType), first);
    assert.equal(compiler.compiled.length, 1);
  });

  test('a schema that does not compile is skipped by precompile and throws at getValidator, each time', () => {
    const compiler = countingCompiler();
    const validators = new OutputSchemaValidators(compiler);
    const broken: JsonSchemaType = { title: 'broken', type: 'object' };
    assert.doesNotThrow(() => validators.precompile([tool('bad', broken), tool('get_alerts', ALERTS)]));
    assert.throws(() => validators.getValidator(broken), /unresolvable/);
    assert.throws(() => validators.getValidator(broken), /unresolvable/);
    assert.equal(compiler.compiled.filter((schema) => schema.includes('broken')).length, 3);
  });

  test('keeps at most maxSchemas compiled: past it the oldest is compiled again when asked', () => {
    const compiler = countingCompiler();
    const validators = new OutputSchemaValidators(compiler, 2);
    const schema = (index: number): JsonSchemaType => ({ type: 'object', title: `schema ${index}` });
    for (const index of [1, 2, 3]) validators.getValidator(schema(index));
    validators.getValidator(schema(3));
    assert.equal(compiler.compiled.length, 3);
    validators.getValidator(schema(1));
    assert.equal(compiler.compiled.length, 4);
  });
});
