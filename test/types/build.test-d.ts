/**
 * `Build` narrows on `status === 'completed'` (issue 28, item 6), as a webhook event narrows on its kind: a
 * status this SDK does not know is kept, typed `UnknownBuildStatus`, which no literal is comparable to.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { Client, type WfaError, type Build, type BuildStatus, type CompletedBuild, type UnknownBuildStatus } from '../../src/index.js';

const client = new Client({ apiKey: 'k' });

describe('Build narrows on its status', () => {
  it("status === 'completed' makes download_url a string, without isCompletedBuild", async () => {
    const build = await client.builds.get('bld_1');
    if (build.status === 'completed') {
      expectTypeOf(build).toEqualTypeOf<CompletedBuild>();
      expectTypeOf(build.download_url).toEqualTypeOf<string>();
    } else {
      expectTypeOf(build.download_url).toEqualTypeOf<string | null | undefined>();
      expectTypeOf(build.status).toEqualTypeOf<Exclude<BuildStatus, 'completed'> | UnknownBuildStatus>();
    }
  });

  it('so does !== and a switch, and what watch() yields', async () => {
    for await (const build of client.builds.watch('bld_1')) {
      if (build.status !== 'completed') continue;
      expectTypeOf(build.download_url).toEqualTypeOf<string>();
    }
    const build = await client.builds.get('bld_1');
    switch (build.status) {
      case 'completed':
        expectTypeOf(build.download_url).toEqualTypeOf<string>();
        break;
      case 'building':
        expectTypeOf(build.progress).toEqualTypeOf<number | null | undefined>();
        break;
    }
  });

  it('keeps the status open: an unknown one is a string, compared once widened', async () => {
    const build = await client.builds.get('bld_1');
    expectTypeOf<UnknownBuildStatus>().toExtend<string>();
    expectTypeOf(build.status).toExtend<string>();
    const status: string = build.status;
    expectTypeOf(status === 'queued').toBeBoolean();
    // @ts-expect-error a status this SDK does not know is compared after widening to string, as above
    if (build.status === 'queued') return;
  });

  it('a completed build must carry its URL; a status the SDK does not know is not a literal', () => {
    // @ts-expect-error a completed build without a download_url is not a Build
    const missing: Build = { status: 'completed' };
    // @ts-expect-error only the SDK's own reads produce an UnknownBuildStatus
    const unknown: Build = { status: 'queued' };
    const building: Build = { status: 'building', progress: 10 };
    expectTypeOf([missing, unknown, building]).toEqualTypeOf<Build[]>();
  });
});

describe('builds.waitForAll', () => {
  it('narrows each result on its status, as Promise.allSettled does: a completed build or a WfaError', async () => {
    const [result] = await client.builds.waitForAll(['bld_1', { id: 'wf_1', build_id: 'bld_2' }]);
    if (result?.status === 'fulfilled') expectTypeOf(result.value).toEqualTypeOf<CompletedBuild>();
    else if (result) expectTypeOf(result.reason).toEqualTypeOf<WfaError>();
    expectTypeOf(result!.buildId).toEqualTypeOf<string>();
  });

  it('builds.notify takes a webhook event or a build id', () => {
    expectTypeOf(client.builds.notify).toBeCallableWith({
      event: 'build.completed',
      workflow_id: 'wf_1',
      data: { download_url: 'https://x' },
    });
    expectTypeOf(client.builds.notify).toBeCallableWith('bld_1');
  });
});
