/**
 * Size budgets of the built package, as a browser app's bundler sees it: `npm run build && npm run check:size`.
 * size-limit bundles each entry with esbuild (minified, tree-shaken) and measures it with gzip.
 * kB here is 1000 bytes, as size-limit prints it (the budgets were first written in KiB: this is a little stricter).
 */

// What the root entry must never carry, read from esbuild's metafile (the modules that went into the bundle),
// not from the output's text, where an option name such as `beforeRetry` is the SDK's own hook too. ky is only
// the benchmark's baseline (the HTTP core calls `fetch` itself); tracing lives in the /otel entry alone.
const FORBIDDEN = [
  [/(^|\/)node_modules\/ky\//, 'ky'],
  [/(^|\/)node_modules\/@opentelemetry\//, '@opentelemetry'],
  [/(^|\/)src\/otel\/|(^|\/)dist\/otel\./, 'the otel entry'],
  // A browser resolves `#node-parts` to none of the Node-only parts (src/core/node-parts.ts), not even lazily.
  [/(^|\/)dist\/node-transport-[^/]*\.js$/, 'the Node transport'],
  [/(^|\/)dist\/write-to-file-[^/]*\.js$/, 'the file writer'],
];
// Node-only code bundled into another chunk shows only in the text: zod's compiled parser keeps its name.
const NODE_ONLY_STRINGS = ['$ZodObjectJIT', 'node:http is not available', 'is in a folder that does not exist'];
const guard = (allowOtel, refuse, forbid) => ({
  name: 'no-ky-no-otel',
  setup(build) {
    build.initialOptions.metafile = true;
    build.onEnd(async (result) => {
      const metaInputs = result.metafile?.inputs ?? {};
      // Bundled modules, and what they import that stays external (size-limit leaves peers such as
      // @opentelemetry/api out, so otel code, wherever tsup's splitting put it, shows as that import).
      const inputs = Object.entries(metaInputs).flatMap(([input, { imports }]) => [
        input,
        ...imports.map((i) => `node_modules/${i.path}/`),
      ]);
      if (inputs.length === 0) throw new Error('no metafile: the guard cannot see what was bundled');
      for (const [pattern, what] of [...FORBIDDEN, ...forbid]) {
        if (allowOtel && what !== 'ky') continue;
        const found = inputs.filter((input) => pattern.test(input));
        if (found.length) throw new Error(`the bundle holds ${what}: ${found.slice(0, 3).join(', ')}`);
      }
      await refuseStrings(result, NODE_ONLY_STRINGS, 'Node-only code');
      await refuseStrings(result, refuse, 'code of what it does not call');
    });
  },
});

/**
 * Every check: gzip (size-limit's default is brotli); an ES module for the browser (esbuild's default, an IIFE,
 * would drop the entry's exports and so shake off what an app may import); and the guard: no ky anywhere, and no
 * OpenTelemetry or otel code but in the /otel entry.
 */
const check = ({ allowOtel = false, refuse = [], forbid = [], ...options }) => ({
  gzip: true,
  modifyEsbuildConfig: (config) => ({
    ...config,
    format: 'esm',
    platform: 'browser',
    metafile: true,
    plugins: [...(config.plugins ?? []), guard(allowOtel, refuse, forbid)],
  }),
  ...options,
});

// Code an app loads by `import()` only on first use: a webhook endpoint's confirm and dedupe (src/webhooks/guard.ts,
// confirm.ts) and downloads' transfer (src/core/transfer.ts). The
// "up front" checks measure what an app loads before that, dynamic imports left unfollowed, and fail if that
// code is in it anyway.
const LAZY_STRINGS = ['not confirmed by the service', 'Webhook dedupe store', 'The connection failed while downloading'];
async function refuseStrings(result, strings, what) {
  const { readFile } = await import('node:fs/promises');
  for (const file of Object.keys(result.metafile?.outputs ?? {})) {
    const text = await readFile(file, 'utf8');
    const found = strings.filter((s) => text.includes(s));
    if (found.length) throw new Error(`${file} holds ${what} (${found.join(', ')})`);
  }
}
const unfollowed = {
  name: 'dynamic-imports-unfollowed',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
    build.onEnd((result) => refuseStrings(result, LAZY_STRINGS, 'code meant to load lazily'));
  },
};
const upFront = (options) => {
  const base = check(options);
  return {
    ...base,
    modifyEsbuildConfig: (config) => {
      const modified = base.modifyEsbuildConfig(config);
      return { ...modified, plugins: [...modified.plugins, unfollowed] };
    },
  };
};
export default [
  // The budgets: everything each entry exports (the file itself is the entry, so nothing can be shaken off).
  // The budget for the client is 20 kB (the redesign measured 18.4); response details, deadlines, paging helpers,
  // gateway prefixes, the key rule and hooks took what an app loads up front past it; then redaction of secrets
  // inside longer base64 values and of signed URLs in error bodies, and the workflow answers' fast check (24.3).
  // These gates stop growth; getting back under 20 is open work (bench/README.md). The rate gate (the fleet issue)
  // took them to 31.3 and 34.4; issue 34's lazy schemas and Node-only seams brought them to 30.65 and 33.2, still
  // over its budget of 24 KiB (24.6 kB) for a one-call app with new Client().
  // With the gate's final version, the waits' shared schedule and the fourth look merged: 32.66 and 35.31; the
  // fourth attack's secrets (any percent-encoding of the key, a credential's value wherever repeated) 0.49 more.
  // A call past its deadline at the gate ending with its own 429 or the deadline's error (no made-up 429), and
  // the cap on a store's word: 0.09 and 0.11 more (33.25 and 35.92 measured); every close and pace held to
  // maxRetryAfterMs, the gate's timer cleared when idle: 33.36 and 36.02 measured. Round 7: the builds' functions
  // apart from the class and the file writer's seam imported on first use (a lazy wrapper), 0.05 and 0.1 more; the
  // one credential-name rule (prefixed, encoded and XML names, any value type, credential headers), 0.3 more; a
  // secret's encoded forms searched for character by character (a long key crashed the regex compiler), 0.2; one
  // abort listener per signal at the gate (20,000 waiting calls on one signal), 0.3: 34.23 and 36.96 measured;
  // the fifth look's wire (transport-owned headers refused, an agent's protocol read), 0.1; the secrets re-attack
  // (known secrets before the name rule, whitespace runs, numbers, names, validation paths, error bodies redacted
  // before their cut) and the callbacks' fixes, 0.4: 34.72 and 37.47; `runPhase` hearing signals through the one
  // listener per signal, the gate and the poll schedule without their own: 34.56 and 37.32 measured. Round 8:
  // options that cannot be read named, and ids refused by the path rule, 0.22; the fourth look's secrets in a
  // response's head (header names, Content-Type, the caller's credential headers) and copies nested past the
  // shown depth, 0.07; the known secrets searched in linear time (a periodic key or credential value took seconds
  // to minutes): a Knuth-Morris-Pratt scan in views of the text (zero-width characters dropped and percent escapes
  // decoded; runs of whitespace folded) for a walker and regular expressions, hex with colons, and names quoted in
  // a body serialised twice, 0.46 and 0.41: 35.33 and 38.05 measured. Round 8's wire: a redirect never sends a
  // URL the call sent already (the prefix fallback sent a POST twice) nor follows user:password@, and a fallback
  // so refused leaves the first 404 standing, 0.19 and 0.18: 35.52 and 38.23 measured. The last look's secrets (a
  // credential a hook sets or a query sends is a known secret), 0.04: 35.56 and 38.28 measured. Options, params and
  // queries read once into the copy checked and used, 0.1; a rate store's answers checked and read inside the
  // guard, and a revoked Proxy thrown by fetch or shouldRetry read safely, 0.22: 35.88 and 38.58 measured. A
  // redirect compared as the request it makes (any spelling of a URL sent), and the key hidden in a download
  // host's error, 0.08 and 0.1: 35.96 and 38.68 measured.
  upFront({ name: 'full client, loaded up front (import() not followed)', path: 'dist/index.js', limit: '36 kB' }),
  check({ name: 'full client, with what downloads load on first use', path: 'dist/index.js', limit: '38.7 kB' }),
  // The issue-17 budget: the webhooks entry stays within 8 kB for users who do not confirm (or dedupe).
  upFront({ name: 'webhooks entry, without confirm or dedupe (their import() not followed)', path: 'dist/webhooks.js', limit: '8 kB' }),
  // The fourth outside look (issue 35) took it from 9.99 kB: errors' toJSON (30 B), the Node adapter's
  // checkContinue and bounded drain after an early 413, onDelivery and dedupe.key (0.68 kB with the lazy code);
  // dedupe keying numbers by their digits as sent (past 2^53), 0.19: 11.04 kB. A key for an event nested past
  // the stack (its text as sent) and a key that fails as a 500, not a rejection (atk9), 0.02: 11.06 kB.
  check({ name: 'webhooks entry, with what confirm and dedupe load on first use', path: 'dist/webhooks.js', limit: '11.07 kB' }),
  // The tracing entry, @opentelemetry/api left out (a peer the app has anyway).
  check({ name: 'otel entry: otelHooks', path: 'dist/otel.js', limit: '2 kB', ignore: ['@opentelemetry/api'], allowOtel: true }),
  // The Redis entry: the rate store and its command sender, with no HTTP core (the root entry never imports it).
  check({ name: 'redis entry: redisRateStore', path: 'dist/redis.js', limit: '1.8 kB' }),
  // Tree-shaking proofs. The webhooks subpath alone carries no zod, no resources and no HTTP core: zod alone
  // is about 6 kB min+gzip, the resources and HTTP core about 8 kB more.
  check({ name: 'import { parseWebhookEvent } from /webhooks', import: { 'dist/webhooks.js': '{ parseWebhookEvent }' }, limit: '1.5 kB' }),
  // Round 7: the webhooks' time bounds on the core's one timer (monotonic, armed in steps): 3.62 to 3.75 kB.
  upFront({
    name: 'import { createWebhookHandler } from /webhooks, without confirm or dedupe',
    import: { 'dist/webhooks.js': '{ createWebhookHandler }' },
    limit: '3.8 kB',
  }),
  // Issue 34: an app calling one function bundles that endpoint's schema and none of the others (their messages
  // below), of build waits or of downloads. Issue 34's budget is 18 KiB (18.4 kB), not met (26.44 kB with the gate's final version, 26.95 with the fourth attack's secrets, 27.02 with the gate's deadline errors).
  // Round 7: 27.13 to 26.81 once the app no longer reaches the downloads (where the rest goes: bench/README.md),
  // then 0.3 more for the one credential-name rule, 0.5 for long secrets and one abort listener per signal, 0.1
  // for the fifth look's wire, 0.35 for the secrets re-attack and the callbacks, 0.1 less for one signal listener in runPhase: 28.03 kB;
  // round 8: 0.16 for options that cannot be read and ids refused by the path rule, 0.1 for the fourth look's
  // secrets, 0.51 for the known secrets searched in linear time: 28.79 kB; 0.18 for round 8's wire (no URL sent
  // twice by a redirect, none with user:password@ followed): 28.97 kB; the last look's secrets: 29.00 kB; options read once, the rate store's answers checked, revoked Proxies read safely: 29.26 kB; a redirect compared as its request: 29.33 kB.
  check({
    name: 'import { createCore, workflowsList } from /funcs, with what it loads on first use',
    import: { 'dist/funcs.js': '{ createCore, workflowsList }' },
    limit: '29.35 kB',
    refuse: [
      'must be snake_case',
      'must change at least one field',
      'must be an email address',
      'must not be less than intervalMs',
      'nothing to download',
    ],
    // Not even as a module reached: esbuild keeps what an `import()` names when the code holding it is shaken
    // off, and wraps the modules the two share in lazy initialisers (0.32 kB).
    forbid: [[/(^|\/)dist\/transfer-[^/]*\.js$/, "the downloads' transfer"]],
  }),
  // The root entry shakes as well as the subpaths do: error classes alone carry neither zod nor the client.
  check({
    name: 'import { NotFoundError, ApiError } from the root',
    import: { 'dist/index.js': '{ NotFoundError, ApiError }' },
    limit: '2 kB',
  }),
];
