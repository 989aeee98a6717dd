// Rendering an email template that uses 5 components (`{{> componentId}}`, one of them nested in
// another, one inside an {{#each}}), through the TemplateRenderer the router uses (its compiled-
// template cache warm, as for a stored template): per render p50/p99 and renders per second.
// Baseline in the same run, interleaved render by render: the same template with the components
// inlined (expandComponents), which renders to the same HTML.
import { expandComponents, MAX_COMPONENT_DEPTH, TemplateRenderer } from '@notify/domain';
import { type Figure, percentile, report, runBench } from '../report';
import { sized } from '../smoke';

const RENDERS = Number(process.env.BENCH_RENDERS ?? sized(100_000, 500));
const WARM_UP = sized(5_000, 50);

const components = new Map([
  ['logo', '<img src="{{brand.logo}}" alt="{{brand.name}}" width="120">'],
  ['header', '<table class="header"><tr><td>{{> logo}}</td><td>{{brand.tagline}}</td></tr></table>'],
  ['greeting', '<h1>Hello {{user.firstName}},</h1><p>Here is what happened on {{date}}.</p>'],
  [
    'item',
    '<tr><td><a href="{{url}}">{{title}}</a></td><td>{{#if unread}}<b>new</b>{{else}}seen{{/if}}</td></tr>',
  ],
  [
    'footer',
    '<footer><p>{{brand.name}}, {{brand.address}}</p><a href="{{unsubscribeUrl}}">Unsubscribe</a></footer>',
  ],
]);
const template = `<html><body>{{> header}}{{> greeting}}<table>{{#each items}}{{> item}}{{/each}}</table>
<p>{{summary}}</p>{{> footer}}</body></html>`;
const inlined = expandComponents(template, components, MAX_COMPONENT_DEPTH);

const parameters = {
  brand: { name: 'Acme & Co', logo: 'https://acme.test/logo.png', tagline: 'Things', address: '1 Main St' },
  user: { firstName: 'Ann' },
  date: '2026-01-05',
  summary: 'You have 10 updates.',
  unsubscribeUrl: 'https://acme.test/u?id=42',
  items: Array.from({ length: 10 }, (_, i) => ({
    title: `Update <${i}>`,
    url: `https://acme.test/i/${i}`,
    unread: i % 2 === 0,
  })),
};

const micros = (from: bigint) => Number(process.hrtime.bigint() - from) / 1_000;

async function main(): Promise<void> {
  const renderer = new TemplateRenderer(64 * 1024 * 1024);
  const withComponents = () =>
    renderer.render(template, parameters, {
      html: true,
      field: 'email.html',
      cache: true,
      partials: components,
    });
  const withInlined = () =>
    renderer.render(inlined, parameters, { html: true, field: 'email.html', cache: true });
  if (withComponents() !== withInlined()) throw new Error('the inlined template renders other HTML');
  for (let i = 0; i < WARM_UP; i++) {
    withComponents();
    withInlined();
  }
  const timesComponents = new Float64Array(RENDERS);
  const timesInlined = new Float64Array(RENDERS);
  for (let i = 0; i < RENDERS; i++) {
    let started = process.hrtime.bigint();
    withComponents();
    timesComponents[i] = micros(started);
    started = process.hrtime.bigint();
    withInlined();
    timesInlined[i] = micros(started);
  }
  timesComponents.sort();
  timesInlined.sort();
  const sum = (times: Float64Array) => times.reduce((a, b) => a + b, 0);
  const figures: Figure[] = [
    {
      name: 'render p50',
      value: percentile(timesComponents, 50),
      unit: 'µs',
      baseline: percentile(timesInlined, 50),
    },
    {
      name: 'render p99',
      value: percentile(timesComponents, 99),
      unit: 'µs',
      baseline: percentile(timesInlined, 99),
    },
    {
      name: 'renders per second',
      value: (RENDERS / sum(timesComponents)) * 1e6,
      unit: '/s',
      baseline: (RENDERS / sum(timesInlined)) * 1e6,
      note: `${RENDERS} renders each, interleaved; ${withComponents().length} characters of HTML`,
    },
  ];
  report(
    'components',
    'a template with 5 components (value) against the same template inlined (baseline)',
    figures,
  );
}

runBench(main);
