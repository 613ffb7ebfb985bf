import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  registerDecorator,
  validate,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { JsonRpcError } from '../../libs/json-rpc/src/json-rpc-error';
import { bindParams, PARAMS_VALIDATOR_OPTIONS } from '../../libs/json-rpc/src/params-binder';
import { toParamsInstance } from '../../libs/json-rpc/src/params-instance';
import { ParamsValidationPlan } from '../../libs/json-rpc/src/params-validation-plan';
import { CallToolParams } from '../../libs/gateway/src/methods/dto/call-tool.params';
import { CancelTaskParams } from '../../libs/gateway/src/methods/dto/cancel-task.params';
import { GetTaskParams } from '../../libs/gateway/src/methods/dto/get-task.params';
import { ListToolsParams } from '../../libs/gateway/src/methods/dto/list-tools.params';
import { SubmitTaskParams } from '../../libs/gateway/src/methods/dto/submit-task.params';
import { mulberry32 } from '../../libs/platform/src';

type Dto = new () => object;

/** A sync custom constraint that looks at another property (as class-validator passes it the object). */
function IsBelowProperty(other: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isBelowProperty',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [other],
      validator: {
        validate: (value: unknown, args?: ValidationArguments) =>
          typeof value === 'number' &&
          value < Number((args?.object as Record<string, unknown>)[args?.constraints[0] as string]),
      },
    });
}

function IsEventuallyTrue(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isEventuallyTrue',
      target: target.constructor,
      propertyName: String(propertyName),
      async: true,
      validator: { validate: async (value: unknown) => value === true },
    });
}

class ConditionalParams {
  @IsString()
  kind!: string;

  @ValidateIf((params: ConditionalParams) => params.kind === 'ranged')
  @IsInt()
  @IsBelowProperty('upper')
  lower?: number;

  @IsOptional()
  @IsInt()
  upper?: number;

  @IsDefined()
  marker!: unknown;
}

class AsyncParams {
  @IsEventuallyTrue()
  flag!: boolean;
}

class EachParams {
  @IsString({ each: true })
  names!: string[];
}

class Leaf {
  @IsInt()
  value!: number;
}

class NestedParams {
  @ValidateNested()
  @Type(() => Leaf)
  leaf!: Leaf;
}

/** Values that sit on and around every boundary the gateway's DTOs declare. */
const VALUE_POOL: readonly unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'a',
  'echo',
  'get_alerts',
  'ranged',
  'soft',
  'hard',
  'with space',
  'tab\there',
  'ключ',
  '😀',
  'x'.repeat(127),
  'x'.repeat(128),
  'x'.repeat(129),
  'x'.repeat(255),
  'x'.repeat(256),
  'x'.repeat(257),
  'x'.repeat(1000),
  'x'.repeat(1001),
  'x'.repeat(1024),
  'x'.repeat(1025),
  'x'.repeat(4000),
  'x'.repeat(4001),
  '😀'.repeat(128),
  '😀'.repeat(129),
  '😀'.repeat(256),
  '0190b7a0-7c1e-7a3b-9f21-3c4d5e6f7a8b',
  '0190B7A0-7C1E-7A3B-9F21-3C4D5E6F7A8B',
  '6f1c2b9e-3d4a-4f5b-8c6d-7e8f9a0b1c2d',
  'not-a-uuid',
  0,
  1,
  -1,
  1.5,
  2,
  999,
  1000,
  1001,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 32,
  '5',
  true,
  false,
  [],
  ['a'],
  [1],
  {},
  { text: 'hi' },
  { nested: { deep: [1, 2] } },
  { '': 'x' },
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** A valid base with some members replaced from the pool, some removed, sometimes an extra member. */
function randomParams(random: () => number, valid: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [property, value] of Object.entries(valid)) {
    const roll = random();
    if (roll < 0.1) continue;
    params[property] = roll < 0.35 ? pick(random, VALUE_POOL) : value;
  }
  if (random() < 0.1) params[pick(random, ['extra', 'Name', 'deadline'])] = pick(random, VALUE_POOL);
  return params;
}

async function classValidatorAccepts(instance: object): Promise<boolean> {
  return (await validate(instance, PARAMS_VALIDATOR_OPTIONS)).length === 0;
}

const TASK_ID = '0190b7a0-7c1e-7a3b-9f21-3c4d5e6f7a8b';

/** Each DTO with a plan, and one valid params object with every member set. */
const PLANNED: ReadonlyArray<[Dto, Record<string, unknown>]> = [
  [CallToolParams, { name: 'echo', arguments: { text: 'hi' }, server: 'testkit', idempotency_key: 'key-1' }],
  [ListToolsParams, { cursor: 'abc', server: 'weather', page_size: 50 }],
  [GetTaskParams, { task_id: TASK_ID }],
  [CancelTaskParams, { task_id: TASK_ID, mode: 'soft', reason: 'no longer needed', idempotency_key: 'key-2' }],
  [ConditionalParams, { kind: 'ranged', lower: 1, upper: 2, marker: 'set' }],
];

describe('params validation plan', () => {
  for (const [dto, valid] of PLANNED) {
    test(`${dto.name}: accepts exactly what class-validator accepts (3,000 random params)`, async () => {
      const plan = ParamsValidationPlan.of(dto);
      assert.ok(plan, `${dto.name} has a plan`);
      const random = mulberry32(dto.name.length * 7919);
      let accepted = 0;
      for (let index = 0; index < 3000; index++) {
        const params = randomParams(random, valid);
        const instance = toParamsInstance(dto, params);
        const expected = await classValidatorAccepts(instance);
        assert.equal(
          plan.accepts(instance),
          expected,
          `${dto.name} ${JSON.stringify(params)}: class-validator says ${expected ? 'valid' : 'invalid'}`,
        );
        if (expected) accepted++;
      }
      // Both verdicts must occur, or the comparison proves little.
      assert.ok(accepted > 30 && accepted < 2970, `${accepted} of 3000 valid`);
    });
  }

  test('DTOs it cannot mirror exactly get no plan: nested, `each`, async constraints', () => {
    assert.equal(ParamsValidationPlan.of(NestedParams), undefined);
    assert.equal(ParamsValidationPlan.of(SubmitTaskParams), undefined);
    assert.equal(ParamsValidationPlan.of(EachParams), undefined);
    assert.equal(ParamsValidationPlan.of(AsyncParams), undefined);
  });

  test("params the plan refuses still get class-validator's own violations", async () => {
    const method = { name: 'tools.call', params: CallToolParams } as Parameters<typeof bindParams>[0];
    await assert.rejects(bindParams(method, { name: '', arguments: [], extra: 1 }), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      const violations = (error.data as { fields: Array<{ path: string; constraints: Record<string, string> }> })
        .fields;
      const byPath = Object.fromEntries(
        violations.map((violation) => [violation.path, Object.keys(violation.constraints).sort()]),
      );
      assert.deepEqual(byPath, { extra: ['whitelistValidation'], name: ['isNotEmpty'], arguments: ['isObject'] });
      return true;
    });
    const bound = await bindParams(method, { name: 'echo', arguments: { text: 'hi' } });
    assert.ok(bound instanceof CallToolParams);
  });
});
