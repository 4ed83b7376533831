/** The keepsake's two pages (CONTRACT §10): plain HTML that loads classic scripts from beside it. */
const head = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="style.css">
<link rel="stylesheet" href="fonts.css">
</head>`;

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function indexHtml(name: string): string {
  return `${head(`For ${escape(name)}`)}
<body data-page="gallery" class="min-h-screen bg-amber-50 text-stone-900 dark:bg-stone-950 dark:text-amber-50">
<header class="mx-auto max-w-6xl px-4 pt-8 pb-4">
  <h1 id="title" class="font-display text-4xl font-bold">For ${escape(name)}</h1>
  <p id="made" class="mt-1 text-stone-500 dark:text-stone-400"></p>
  <p class="mt-1 text-sm"><a class="underline" href="verify.html">Check that this keepsake is complete and unaltered</a></p>
</header>
<main id="gallery" class="mx-auto grid max-w-6xl gap-6 px-4 pb-12 sm:grid-cols-2 lg:grid-cols-3"></main>
<script src="data.js"></script>
<script src="keepsake.js"></script>
</body>
</html>
`;
}

export function verifyHtml(name: string): string {
  return `${head(`The log of ${escape(name)}'s gallery`)}
<body data-page="verify" class="min-h-screen bg-amber-50 text-stone-900 dark:bg-stone-950 dark:text-amber-50">
<main class="mx-auto max-w-3xl px-4 py-8">
  <h1 class="font-display text-3xl font-bold">The gallery's log</h1>
  <p class="mt-2">Every event of the gallery is in <code>log.ndjson</code>, each chained to the one before by a
  SHA-256 hash. This page recomputes every link in your browser, with nothing sent anywhere
  (the recipe: docs/canonical-form.md in the gallery's source). Words that are not in this keepsake
  (what was never shown, and every name and note kept private) read as null: their commitments still
  hold the chain.</p>
  <p id="result" role="status" class="mt-6 rounded-lg bg-white p-4 font-mono text-sm break-all dark:bg-stone-900">Checking…</p>
  <form id="key-form" hidden class="mt-4 rounded-lg bg-white p-4 dark:bg-stone-900">
    <p>This gallery sealed its log with a secret key (<code>LOG_HMAC_KEY</code>), so that nobody without
    it, not even someone with the database, could forge a link. The key is not in this keepsake: ask
    whoever ran the gallery for it. It stays in this page and is sent nowhere.</p>
    <p class="mt-3 flex flex-wrap items-center gap-2"><label for="key">Key</label>
    <input id="key" type="password" autocomplete="off" class="min-w-0 flex-1 rounded border border-stone-300 bg-transparent px-2 py-1 dark:border-stone-700">
    <button type="submit" class="rounded bg-stone-900 px-3 py-1 text-amber-50 dark:bg-amber-100 dark:text-stone-900">Check with this key</button></p>
  </form>
  <p class="mt-6"><label>Check another copy of the log: <input id="file" type="file" accept=".ndjson,application/x-ndjson"></label></p>
  <p class="mt-2"><a class="underline" href="index.html">Back to the gallery</a></p>
</main>
<script src="log.js"></script>
<script src="keepsake.js"></script>
</body>
</html>
`;
}
