/**
 * How long an error status's body takes to redact (read to 1 MiB, redacted whole, cut), with keys that made the
 * search quadratic: a periodic 12,000-character key (`abab…`) in a body of near copies. Medians of five runs.
 * Alone: node --import tsx bench/redact.ts
 */
import { statusError } from '../src/core/call-failure.js';

const request = { method: 'GET', url: 'http://127.0.0.1/v1/workflows' };
const fail = (text: string, key: string) => statusError([key], request, { status: 400, headers: new Headers(), text });

function median(name: string, run: () => unknown): void {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  console.log(`${name.padEnd(48)} ${times.sort((a, b) => a - b)[2]!.toFixed(1)} ms`);
}

const periodic = 'ab'.repeat(6_000);
const mixed = Array.from({ length: 12_000 }, (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789'[(i * 7919) % 36]).join('');
const padded = JSON.stringify({ token: `tok_${'q'.repeat(20)}`, error: { message: 'bad' }, pad: 'x'.repeat(1_040_000) });
const nearCopies = `${'ab'.repeat(5_999)}ax`.repeat(80);
const copies = [periodic, `${periodic.slice(0, -1)}%62`, `${periodic.slice(0, 99)}\u200b${periodic.slice(99)}`].join('|');
median('periodic 12k key, 1 MiB of `ab`', () => fail('ab'.repeat(520_000), periodic));
median('periodic 12k key, 1 MiB of near copies, `%62`', () => fail(`${'ab'.repeat(5_999)}a%62x`.repeat(87), periodic));
median('periodic 12k key, 1 MiB of near copies + 3 copies', () => fail(`|${copies}|${nearCopies}`, periodic));
median('a periodic 12k token field, 1 MiB of near copies', () =>
  fail(JSON.stringify({ token: periodic, pad: nearCopies }), 'wfa_sk_live_0123456789'),
);
median('12k key, 66 KB JSON body', () => fail(padded.slice(0, 66_000), mixed));
median('12k key, 1 MiB JSON body', () => fail(padded, mixed));
median('22-character key, 1 MiB JSON body', () => fail(padded, 'wfa_sk_live_0123456789'));
