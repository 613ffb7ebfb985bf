import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  EMPTY_LABEL,
  NONE_LABEL,
  NO_DATA_SUBTITLE,
  countBy,
  renderBarChartSvg,
} from '../../apps/stats-server/src/chart/bar-chart';

/** Bars as vega's SVG renderer emits them: one <path role="graphics-symbol" aria-roledescription="bar"> per datum. */
const barCount = (svg: string): number => (svg.match(/aria-roledescription="bar"/g) ?? []).length;

/** Text content of the <text> elements (still XML-escaped). */
const texts = (svg: string): string[] => [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

/** Minimal well-formedness check: tags nest and close properly. */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  for (const match of svg.matchAll(/<(\/?)([A-Za-z][\w:-]*)\b[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = match;
    if (selfClosing) continue;
    if (closing) assert.equal(stack.pop(), name, `unbalanced </${name}>`);
    else stack.push(name);
  }
  assert.deepEqual(stack, [], 'unclosed tags');
}

function assertStandaloneSvg(svg: string): void {
  assert.ok(svg.startsWith('<svg'), 'starts with <svg');
  assert.match(svg, /^<svg[^>]*\sxmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.ok(svg.trimEnd().endsWith('</svg>'));
  assertWellFormed(svg);
}

test('countBy counts values, sorted by count desc then value', () => {
  const rows = [
    { event: 'Wind Advisory' },
    { event: 'Red Flag Warning' },
    { event: 'Wind Advisory' },
    { event: 'Frost Advisory' },
    { event: 'Red Flag Warning' },
    { event: 'Wind Advisory' },
    { event: 'Beach Hazards Statement' },
  ];
  assert.deepEqual(countBy(rows, 'event'), [
    { value: 'Wind Advisory', count: 3 },
    { value: 'Red Flag Warning', count: 2 },
    { value: 'Beach Hazards Statement', count: 1 },
    { value: 'Frost Advisory', count: 1 },
  ]);
  assert.deepEqual(countBy([], 'event'), []);
});

test('countBy: missing, null, empty, numbers, arrays and objects', () => {
  const rows: Record<string, unknown>[] = [
    {},
    { v: null },
    { v: undefined },
    { v: '' },
    { v: 3 },
    { v: '3' },
    { v: true },
    { v: ['EAS', 'NWEM'] },
    { v: ['EAS', 'NWEM'] },
    { v: [] },
    { v: { SAME: ['006037'] } },
    { v: [{ a: 1 }, 'x'] },
    { v: new Date('2025-10-14T00:00:00Z') },
  ];
  const counts = Object.fromEntries(countBy(rows, 'v').map((c) => [c.value, c.count]));
  assert.deepEqual(counts, {
    [NONE_LABEL]: 4, // missing, null, undefined, []
    '3': 2, // number and string collapse: labels are strings
    'EAS, NWEM': 2,
    [EMPTY_LABEL]: 1,
    true: 1,
    '{"SAME":["006037"]}': 1,
    '{"a":1}, x': 1,
    '2025-10-14T00:00:00.000Z': 1,
  });
  // Only own properties count: no prototype lookups.
  assert.deepEqual(countBy([{}, {}], 'toString'), [{ value: NONE_LABEL, count: 2 }]);
});

test('renderBarChartSvg: standalone SVG, one bar per category, title and labels', async () => {
  const counts = countBy(
    [{ e: 'Wind Advisory' }, { e: 'Wind Advisory' }, { e: 'Red Flag Warning' }, { e: 'Frost Advisory' }, {}],
    'e',
  );
  const svg = await renderBarChartSvg(counts, { title: 'Alerts by event', xLabel: 'event' });
  assertStandaloneSvg(svg);
  assert.equal(barCount(svg), 4);
  const t = texts(svg);
  assert.ok(t.includes('Alerts by event'), 'title');
  assert.ok(t.includes('event'), 'x axis title');
  assert.ok(t.includes('count'), 'y axis title');
  for (const label of ['Wind Advisory', 'Red Flag Warning', 'Frost Advisory', NONE_LABEL])
    assert.ok(t.includes(label), `label ${label}`);
  // Each bar is labelled with its category and count (vega's aria-label).
  assert.match(svg, /aria-label="event: Wind Advisory; count: 2"/);
  assert.match(svg, /aria-label="event: Frost Advisory; count: 1"/);
  assert.ok(!/https?:\/\/(?!www\.w3\.org\/)/.test(svg), 'no external references');
});

test('renderBarChartSvg: a title or axis named like an Object.prototype member ("constructor", "toString") renders', async () => {
  for (const name of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    const counts = countBy([{ [name]: 'a' }, { [name]: 'b' }, { [name]: 'a' }], name);
    const svg = await renderBarChartSvg(counts, { title: name, xLabel: name, yLabel: name });
    assertStandaloneSvg(svg);
    assert.equal(barCount(svg), 2, name);
    assert.ok(
      texts(svg).some((text) => text.replace('\u200b', '') === name),
      `${name} is shown`,
    );
  }
});

test('renderBarChartSvg: bars keep the given order and heights follow the counts', async () => {
  const svg = await renderBarChartSvg(
    [
      { value: 'b', count: 4 },
      { value: 'a', count: 2 },
      { value: 'c', count: 1 },
    ],
    { title: 't', xLabel: 'x' },
  );
  const bars = [...svg.matchAll(/<path aria-label="x: (\w); count: (\d+)"[^>]*d="M[\d.]+,[\d.]+h[\d.]+v([\d.]+)/g)].map(
    (m) => ({
      label: m[1],
      count: Number(m[2]),
      height: Number(m[3]),
    }),
  );
  assert.deepEqual(
    bars.map((b) => b.label),
    ['b', 'a', 'c'],
  );
  assert.ok(Math.abs(bars[0].height / bars[1].height - 2) < 0.01, 'height proportional to count');
});

test('renderBarChartSvg: markup in untrusted values and title is escaped', async () => {
  const evil = [
    '<script>alert(1)</script>',
    '"><script>alert(2)</script>',
    '" onload="alert(3)',
    "<img src=x onerror='alert(4)'>",
    '&amp; </text><script>alert(5)</script>',
  ];
  const counts = countBy(
    evil.map((v) => ({ v })),
    'v',
  );
  const svg = await renderBarChartSvg(counts, {
    title: '<script>alert("title")</script>',
    xLabel: '<b onmouseover="x">v</b>',
  });
  assertStandaloneSvg(svg);
  assert.equal(barCount(svg), evil.length);
  assert.ok(!/<script/i.test(svg), 'no <script> element');
  assert.ok(!/<img/i.test(svg), 'no <img> element');
  assert.ok(!/<b[\s>]/i.test(svg), 'no <b> element');
  // No event-handler attributes: look at tags only, with quoted attribute values blanked.
  for (const [tag] of svg.matchAll(/<[A-Za-z][^>]*>/g)) {
    assert.ok(!/\son\w+\s*=/i.test(tag.replace(/"[^"]*"/g, '""')), `event handler in ${tag.slice(0, 80)}`);
  }
  assert.ok(svg.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'label shown escaped');
  assert.ok(
    svg.includes('&lt;script&gt;alert("title")&lt;/script&gt;') ||
      svg.includes('&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt;'),
  );
  // The only elements are SVG drawing elements.
  const elements = new Set([...svg.matchAll(/<([A-Za-z][\w:-]*)/g)].map((m) => m[1]));
  for (const name of elements)
    assert.ok(['svg', 'g', 'path', 'rect', 'line', 'text'].includes(name), `unexpected <${name}>`);
});

test('renderBarChartSvg: empty input renders a valid chart with no bars and a "No data" subtitle', async () => {
  const svg = await renderBarChartSvg(countBy([], 'anything'), { title: 'Nothing here', xLabel: 'anything' });
  assertStandaloneSvg(svg);
  assert.equal(barCount(svg), 0);
  const t = texts(svg);
  assert.ok(t.includes('Nothing here'));
  assert.ok(t.includes(NO_DATA_SUBTITLE));
});

test('renderBarChartSvg: maxBars folds the tail into one "(N other values)" bar', async () => {
  const counts = [5, 4, 3, 2, 1].map((count, i) => ({ value: `v${i}`, count }));
  const svg = await renderBarChartSvg(counts, { title: 't', xLabel: 'x', maxBars: 3 });
  assert.equal(barCount(svg), 3);
  assert.match(svg, /aria-label="x: \(3 other values\); count: 6"/);
  // Duplicate values are merged.
  const merged = await renderBarChartSvg(
    [
      { value: 'a', count: 1 },
      { value: 'a', count: 2 },
    ],
    { title: 't', xLabel: 'x' },
  );
  assert.equal(barCount(merged), 1);
  assert.match(merged, /aria-label="x: a; count: 3"/);
});

test('renderBarChartSvg: rejects bad input', async () => {
  await assert.rejects(renderBarChartSvg([{ value: 'a', count: -1 }], { title: 't', xLabel: 'x' }), RangeError);
  await assert.rejects(renderBarChartSvg([{ value: 'a', count: Number.NaN }], { title: 't', xLabel: 'x' }), RangeError);
  await assert.rejects(renderBarChartSvg([], { title: 't', xLabel: 'x', maxBars: 0 }), RangeError);
});

test('renderBarChartSvg: many categories and repeated renders', async (t) => {
  const counts = Array.from({ length: 30 }, (_, i) => ({ value: `category ${i}`, count: 30 - i }));
  const started = performance.now();
  const svgs = await Promise.all([1, 2, 3].map(() => renderBarChartSvg(counts, { title: 'many', xLabel: 'c' })));
  t.diagnostic(`3 concurrent renders of 30 bars: ${(performance.now() - started).toFixed(1)} ms`);
  for (const svg of svgs) assert.equal(barCount(svg), 30);
  assert.equal(svgs[0], svgs[1], 'rendering is deterministic');
});
