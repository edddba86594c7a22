/**
 * `wfa doctor` in process against the msw mock: the mock as is, the other prefix only, a gateway's prefix, a
 * bad key, an envelope the SDK cannot read, unknown fields and statuses, and a server clock that is off.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { Client } from '../../src/index.js';
import { fakeClockInThisTest, settle } from '../helpers/clock.js';
import { API_KEY, BASE_URL, useService } from '../helpers/service.js';
import { runCli } from './process.js';

const service = useService();
const ENV = { WFA_BASE_URL: BASE_URL, WFA_API_KEY: API_KEY };

interface Report {
  ok: boolean;
  prefix: string | null;
  keyAccepted?: boolean;
  clockSkewMs?: number | null;
  envelope?: { shape: string; sdkReads: boolean; unknownFields: string[]; unknownStatuses: string[] };
  checks: Array<{ name: string; level: string; message: string; hint?: string }>;
}

async function doctor(args: string[] = [], env: Record<string, string> = ENV): Promise<{ code: number; report: Report; stderr: string }> {
  const result = await runCli(['doctor', '--json', ...args], { env });
  return { code: result.code ?? -1, report: JSON.parse(result.stdout) as Report, stderr: result.stderr };
}

const check = (report: Report, name: string) => report.checks.find((c) => c.name === name);

const WORKFLOW = {
  name: 'Orders to Slack',
  platform: 'zapier',
  trigger: { type: 'webhook', url: 'https://example.com/hook' },
  actions: [{ app: 'slack', action: 'send_message', config: { channel: '#orders' } }],
};

describe('wfa doctor', () => {
  // Every field of the mock's own workflows (`updated_at` included) is one the SDK's `Workflow` type names.
  test('against the mock: reachable, /api/v1, key accepted, the "data" envelope read by the SDK, every field known', async () => {
    service.useMock({ buildDurationMs: 60_000 });
    await new Client({ baseUrl: BASE_URL, apiKey: API_KEY }).workflows.create(WORKFLOW);
    const { code, report } = await doctor();

    expect(code).toBe(ExitCode.Ok);
    expect(report.ok).toBe(true);
    expect(report.prefix).toBe('/api/v1');
    expect(report.keyAccepted).toBe(true);
    expect(report.envelope).toMatchObject({
      shape: expect.stringContaining('"data"'),
      sdkReads: true,
      unknownFields: [],
      unknownStatuses: [],
    });
    expect(check(report, 'fields')).toMatchObject({ level: 'ok', message: 'every field and status of 1 workflows is known to the SDK' });
    expect(report.checks.map((c) => c.level)).not.toContain('fail');
  });

  test('the human form says each check on a line and ends with the verdict', async () => {
    service.useMock();
    const result = await runCli(['doctor'], { env: ENV });

    expect(result.code).toBe(ExitCode.Ok);
    expect(result.stdout).toMatch(/^wfa doctor: https:\/\/wfa\.test\n {2}ok {4}reachable: responded in \d+ ms\n/);
    expect(result.stdout).toMatch(/ok {4}path prefix: \/api\/v1 responds \(\/v1 too\)/);
    expect(result.stdout).toMatch(/No problems found\.\n$/);
  });

  test('a service under /v1 only: /v1 is the prefix that responds', async () => {
    service.useMock({ prefixes: ['/v1'] });
    const { code, report } = await doctor();

    expect(code).toBe(ExitCode.Ok);
    expect(report.prefix).toBe('/v1');
    expect(check(report, 'path prefix')?.message).toBe('/v1 responds');
  });

  test('a gateway prefix: both known prefixes 404 with a hint, and --api-prefix finds it', async () => {
    service.useMock({ prefixes: ['/gw/wfa'] });
    const lost = await doctor();
    expect(lost.code).toBe(ExitCode.RequestFailed);
    expect(check(lost.report, 'path prefix')).toMatchObject({ level: 'fail', hint: expect.stringContaining('--api-prefix') });

    const found = await doctor(['--api-prefix', '/gw/wfa']);
    expect(found.code).toBe(ExitCode.Ok);
    expect(found.report.prefix).toBe('/gw/wfa');
  });

  test('a bad key: exit 2, the key check fails with a hint, the key is not printed', async () => {
    service.useMock();
    const { code, report, stderr } = await doctor([], { ...ENV, WFA_API_KEY: 'wfa_wrong_key_31415926' });

    expect(code).toBe(ExitCode.RequestFailed);
    expect(check(report, 'API key')).toMatchObject({
      level: 'fail',
      message: expect.stringMatching(/^rejected with 401/),
      hint: expect.any(String),
    });
    expect(JSON.stringify(report) + stderr).not.toContain('wfa_wrong_key_31415926');
  });

  test('no key at all: the prefix is still found, and the key check says how to get one', async () => {
    service.useMock();
    const { code, report } = await doctor([], { WFA_BASE_URL: BASE_URL });

    expect(code).toBe(ExitCode.RequestFailed);
    expect(report.prefix).toBe('/api/v1');
    expect(check(report, 'API key')).toMatchObject({ level: 'fail', message: 'none set', hint: expect.stringContaining('wfa login') });
  });

  test('an envelope the SDK cannot read: exit 2, where the items are, and a hint', async () => {
    service.useMock({ listEnvelope: (page) => ({ records: page.items, count: page.total }) });
    const { code, report } = await doctor();

    expect(code).toBe(ExitCode.RequestFailed);
    expect(report.envelope).toMatchObject({ shape: 'an object with the items under "records" and count', sdkReads: false });
    expect(check(report, 'list envelope')).toMatchObject({ level: 'fail', hint: expect.stringContaining('report') });
  });

  test('a workflow with only the fields and statuses the SDK knows passes', async () => {
    const item = { id: 'wf_1', ...WORKFLOW, status: 'active', created_at: '2026-01-01T00:00:00Z', build_id: 'bld_1' };
    service.reply('GET', '/api/v1/workflows', 200, [item]);
    const { code, report } = await doctor();

    expect(code).toBe(ExitCode.Ok);
    expect(report.envelope).toMatchObject({ shape: 'a bare JSON array', sdkReads: true, unknownFields: [], unknownStatuses: [] });
    expect(check(report, 'fields')).toMatchObject({ level: 'ok', message: 'every field and status of 1 workflows is known to the SDK' });
  });

  test('fields and statuses the SDK does not know are a warning, not a failure', async () => {
    const item = { id: 'wf_1', ...WORKFLOW, status: 'paused', created_at: '2026-01-01T00:00:00Z', priority: 3 };
    service.reply('GET', '/api/v1/workflows', 200, { data: [item], page: 1 });
    const { code, report } = await doctor();

    expect(code).toBe(ExitCode.Ok);
    expect(report.envelope).toMatchObject({ sdkReads: true, unknownFields: ['priority'], unknownStatuses: ['paused'] });
    expect(check(report, 'fields')).toMatchObject({
      level: 'warn',
      message: 'workflows have fields priority and statuses paused this SDK does not know',
      // The hint's example is a field the SDK does not know, read as a user would read it.
      hint: 'The SDK keeps them as received (workflow["priority"]); a newer SDK version may type them.',
    });
  });

  test('a key the service echoes in a status or a field name is not printed, in any form', async () => {
    const forms = [API_KEY, Buffer.from(API_KEY).toString('base64'), Buffer.from(API_KEY).toString('hex')];
    service.handle('GET', '/*/workflows', ({ request }) => {
      const key = request.headers.get('x-api-key') ?? '';
      const hex = Buffer.from(key).toString('hex');
      const item = { id: 'wf_1', ...WORKFLOW, status: `key:${key}`, created_at: '2026-01-01T00:00:00Z', [`seen_${hex}`]: 1 };
      return Response.json({ data: [item], page: 1, [`k_${Buffer.from(key).toString('base64')}`]: 1 });
    });
    const json = await doctor();
    const human = await runCli(['doctor'], { env: ENV });

    expect(json.code).toBe(ExitCode.Ok);
    expect(check(json.report, 'fields')).toMatchObject({ level: 'warn', message: expect.stringContaining('[redacted]') });
    for (const form of forms) expect(JSON.stringify(json.report) + json.stderr + human.stdout + human.stderr).not.toContain(form);
  });

  test('a list call that never responds, after the probes did, fails its check at 10 s, as each probe would', async () => {
    let calls = 0;
    service.handle('GET', '/api/v1/workflows', () =>
      ++calls === 1 ? HttpResponse.json({ data: [] }) : new Promise<never>(() => undefined),
    );
    fakeClockInThisTest();

    const settled = await settle(doctor());

    expect(settled).toMatchObject({ ok: true, elapsedMs: 10_000 });
    const { code, report } = (settled as { value: Awaited<ReturnType<typeof doctor>> }).value;
    expect(code).toBe(ExitCode.RequestFailed);
    expect(check(report, 'list envelope')).toMatchObject({ level: 'fail', message: expect.stringContaining('TimeoutError') });
  });

  test('a server clock an hour off is a problem; the skew is read from the Date header', async () => {
    // Both clocks stand still (timers stay real): the skew is exact, whatever the machine's load.
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    vi.setSystemTime(new Date('2026-11-25T10:00:00Z'));
    const date = new Date('2026-11-25T11:00:00Z').toUTCString();
    service.handle('GET', '/api/v1/workflows', () => HttpResponse.json({ data: [] }, { headers: { Date: date } }));
    const { code, report } = await doctor().finally(() => vi.useRealTimers());

    expect(code).toBe(ExitCode.RequestFailed);
    expect(report.clockSkewMs).toBe(3_600_000);
    expect(check(report, 'clock')).toMatchObject({ level: 'fail', message: expect.stringContaining('ahead of'), hint: expect.any(String) });
  });

  test('a Date header that is not a date is not checked, and said to be unreadable rather than missing', async () => {
    service.handle('GET', '/api/v1/workflows', () => HttpResponse.json({ data: [] }, { headers: { Date: 'yesterday-ish' } }));
    const { code, report } = await doctor();

    expect(code).toBe(ExitCode.Ok);
    expect(report.clockSkewMs).toBeNull();
    expect(check(report, 'clock')).toMatchObject({
      level: 'ok',
      message: 'not checked: the service sent a Date header that is not a date',
    });
  });

  test('an unreachable service: exit 2 and a hint', async () => {
    service.use(http.all('https://unreachable.wfa.test/*', () => HttpResponse.error()));
    const { code, report } = await doctor([], { WFA_BASE_URL: 'https://unreachable.wfa.test', WFA_API_KEY: API_KEY });

    expect(code).toBe(ExitCode.RequestFailed);
    expect(check(report, 'reachable')).toMatchObject({ level: 'fail', hint: expect.any(String) });
  });
});
