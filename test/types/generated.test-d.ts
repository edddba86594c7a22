/**
 * The public resource types are interfaces generated from the schemas. Each schema is typed by its interface
 * (`parsesTo<T>()`), which compiles only while the schema's own inferred type is exactly that interface; these
 * check that every schema parses to (and takes) its public type, and that `parsesTo` refuses each way a schema
 * can drift from it.
 */
import type * as core from 'zod/v4/core';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  Build,
  BuildStatus,
  UnknownBuildStatus,
  Credentials,
  Integration,
  IntegrationSaveParams,
  Order,
  Workflow,
  WorkflowCreateParams,
  WorkflowUpdateParams,
} from '../../src/index.js';
import { looseObject, nullableString, openString, optional, parsesTo, strictObject, string, type Schema } from '../../src/core/schema.js';
import type { credentialsSchema } from '../../src/resources/credentials.js';
import type { buildSchema } from '../../src/resources/build.js';
import type { integrationSaveSchema, integrationSchema } from '../../src/resources/integration.js';
import type { orderSchema } from '../../src/resources/order.js';
import type { workflowCreateSchema, workflowSchema, workflowUpdateSchema } from '../../src/resources/workflow.js';

describe('each schema parses to its generated type', () => {
  it('Workflow, WorkflowCreateParams, WorkflowUpdateParams, WorkflowStatus', () => {
    expectTypeOf<core.output<ReturnType<typeof workflowSchema>>>().toEqualTypeOf<Workflow>();
    expectTypeOf<core.input<ReturnType<typeof workflowSchema>>>().toEqualTypeOf<Workflow>();
    expectTypeOf<core.output<ReturnType<typeof workflowCreateSchema>>>().toEqualTypeOf<WorkflowCreateParams>();
    expectTypeOf<core.input<ReturnType<typeof workflowCreateSchema>>>().toEqualTypeOf<WorkflowCreateParams>();
    expectTypeOf<core.output<ReturnType<typeof workflowUpdateSchema>>>().toEqualTypeOf<WorkflowUpdateParams>();
    expectTypeOf<core.input<ReturnType<typeof workflowUpdateSchema>>>().toEqualTypeOf<WorkflowUpdateParams>();
  });

  it('Build, BuildStatus', () => {
    expectTypeOf<core.output<ReturnType<typeof buildSchema>>>().toEqualTypeOf<Build>();
    expectTypeOf<core.input<ReturnType<typeof buildSchema>>>().toEqualTypeOf<Build>();
  });

  it('Order, Integration, IntegrationSaveParams, Credentials', () => {
    expectTypeOf<core.output<ReturnType<typeof orderSchema>>>().toEqualTypeOf<Order>();
    expectTypeOf<core.input<ReturnType<typeof orderSchema>>>().toEqualTypeOf<Order>();
    expectTypeOf<core.output<ReturnType<typeof integrationSchema>>>().toEqualTypeOf<Integration>();
    expectTypeOf<core.input<ReturnType<typeof integrationSchema>>>().toEqualTypeOf<Integration>();
    expectTypeOf<core.output<ReturnType<typeof integrationSaveSchema>>>().toEqualTypeOf<IntegrationSaveParams>();
    expectTypeOf<core.input<ReturnType<typeof integrationSaveSchema>>>().toEqualTypeOf<IntegrationSaveParams>();
    expectTypeOf<core.output<ReturnType<typeof credentialsSchema>>>().toEqualTypeOf<Credentials>();
    expectTypeOf<core.input<ReturnType<typeof credentialsSchema>>>().toEqualTypeOf<Credentials>();
  });

  it('the generated types name no zod type', () => {
    expectTypeOf<Workflow['actions']>().toEqualTypeOf<
      Array<{ app: string; action: string; config?: Record<string, unknown> | undefined; [key: string]: unknown }> | undefined
    >();
    expectTypeOf<Order['id']>().toEqualTypeOf<string | number>();
    expectTypeOf<Build['status']>().toEqualTypeOf<BuildStatus | UnknownBuildStatus>();
  });
});

describe('parsesTo refuses a schema that differs from its interface', () => {
  interface Thing {
    id: string;
    note?: string | undefined;
    state: 'on' | 'off' | (string & {});
    [key: string]: unknown;
  }
  const fields = { id: string(), note: optional(string()), state: openString(['on', 'off']) };

  it('accepts a schema whose inferred type is the interface', () => {
    expectTypeOf(parsesTo<Thing>()(looseObject(fields))).toEqualTypeOf<Schema<Thing>>();
  });

  it('refuses each kind of drift', () => {
    // @ts-expect-error a field the interface has is missing from the schema
    parsesTo<Thing>()(looseObject({ id: fields.id, state: fields.state }));
    // @ts-expect-error a field the interface lacks
    parsesTo<Thing>()(looseObject({ ...fields, extra: string() }));
    // @ts-expect-error optional in the interface, required in the schema
    parsesTo<Thing>()(looseObject({ ...fields, note: string() }));
    // @ts-expect-error nullable in the schema only
    parsesTo<Thing>()(looseObject({ ...fields, note: optional(nullableString()) }));
    // @ts-expect-error another known value
    parsesTo<Thing>()(looseObject({ ...fields, state: openString(['on', 'off', 'broken']) }));
    // @ts-expect-error a closed object has no index signature
    parsesTo<Thing>()(strictObject(fields));
  });
});
