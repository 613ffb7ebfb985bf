import {
  getMetadataStorage,
  ValidationTypes,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';

type Dto = new () => object;

/** One decorator's checks on one property, resolved from class-validator's metadata. */
interface ConstraintCheck {
  readonly constraints: unknown[];
  readonly validateIf?: (object: object, value: unknown) => boolean;
  readonly validators: readonly ValidatorConstraintInterface[];
}

interface PropertyPlan {
  readonly name: string;
  /** @IsOptional / @ValidateIf: when one says no, the property is not validated at all. */
  readonly conditions: ReadonlyArray<(object: object, value: unknown) => boolean>;
  readonly checks: readonly ConstraintCheck[];
}

/**
 * A DTO's class-validator metadata, looked up once: for each property, the
 * conditions and the constraint instances its decorators registered.
 * class-validator looks all of that up again on every `validate()` call,
 * which costs more per call than the checks themselves.
 *
 * {@link accepts} only ever answers "valid" or "not sure": it runs the same
 * constraint instances, in the same order and with the same arguments as
 * class-validator's executor under the gateway's options (whitelist,
 * forbidNonWhitelisted, no groups), and says "not sure" on the first failure,
 * so class-validator itself then validates the params and words the error.
 * DTOs it cannot mirror exactly (nested or promise validation, `each`,
 * groups, `always`, async constraints) get no plan and always go through
 * class-validator.
 */
export class ParamsValidationPlan {
  /** Properties with any metadata: the only ones the whitelist lets through. */
  private readonly known: ReadonlySet<string>;

  private constructor(private readonly properties: readonly PropertyPlan[]) {
    this.known = new Set(properties.map((property) => property.name));
  }

  /** The plan of a DTO, or undefined when it needs class-validator's full executor. */
  static of(dto: Dto): ParamsValidationPlan | undefined {
    let plan = plans.get(dto);
    if (plan === undefined) {
      plan = ParamsValidationPlan.compile(dto) ?? null;
      plans.set(dto, plan);
    }
    return plan ?? undefined;
  }

  /** True when class-validator would find no error in `instance` (an instance of the plan's DTO). */
  accepts(instance: object): boolean {
    const values = instance as Record<string, unknown>;
    for (const key of Object.keys(values)) {
      if (!this.known.has(key)) return false;
    }
    for (const property of this.properties) {
      const value = values[property.name];
      if (!property.conditions.every((condition) => condition(instance, value))) continue;
      for (const check of property.checks) {
        if (check.validateIf && !check.validateIf(instance, value)) continue;
        const args: ValidationArguments = {
          targetName: instance.constructor.name,
          property: property.name,
          object: instance,
          value,
          constraints: check.constraints,
        };
        for (const validator of check.validators) {
          const valid = validator.validate(value, args);
          if (valid instanceof Promise) {
            valid.catch(() => undefined); // class-validator runs it again and reports
            return false;
          }
          if (!valid) return false;
        }
      }
    }
    return true;
  }

  private static compile(dto: Dto): ParamsValidationPlan | undefined {
    const storage = getMetadataStorage();
    // The arguments class-validator's executor passes for validate(instance, { no groups }).
    const metadatas = storage.getTargetValidationMetadatas(
      dto,
      undefined as unknown as string,
      false,
      false,
      undefined,
    );
    if (metadatas.length === 0) return undefined;
    const byProperty = new Map<
      string,
      { conditions: PropertyPlan['conditions'][number][]; checks: ConstraintCheck[] }
    >();
    for (const metadata of metadatas) {
      if (metadata.each || metadata.always || (metadata.groups?.length ?? 0) > 0) return undefined;
      const property = byProperty.get(metadata.propertyName) ?? { conditions: [], checks: [] };
      byProperty.set(metadata.propertyName, property);
      switch (metadata.type) {
        case ValidationTypes.WHITELIST:
          break;
        case ValidationTypes.CONDITIONAL_VALIDATION:
          property.conditions.push(metadata.constraints[0] as PropertyPlan['conditions'][number]);
          break;
        case ValidationTypes.IS_DEFINED:
        case ValidationTypes.CUSTOM_VALIDATION: {
          const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
          if (constraints.some((constraint) => constraint.async)) return undefined;
          const check: ConstraintCheck = {
            constraints: metadata.constraints,
            validateIf: (metadata as { validateIf?: ConstraintCheck['validateIf'] }).validateIf,
            validators: constraints.map((constraint) => constraint.instance),
          };
          // class-validator checks @IsDefined before the property's other constraints.
          if (metadata.type === ValidationTypes.IS_DEFINED) property.checks.unshift(check);
          else property.checks.push(check);
          break;
        }
        default:
          return undefined; // nested and promise validation
      }
    }
    return new ParamsValidationPlan(
      [...byProperty].map(([name, { conditions, checks }]) => ({ name, conditions, checks })),
    );
  }
}

const plans = new WeakMap<Dto, ParamsValidationPlan | null>();
