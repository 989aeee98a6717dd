import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Series } from './queries';

const COLOURS = ['#1f5fbf', '#1d8a45', '#c0392b', '#8a5a00'];

/**
 * A time-series chart (uPlot, canvas). The canvas is described for screen readers by `summary`; the
 * same figures are in the page's tables. It takes the width of its container and follows it.
 */
export function Chart({
  times,
  series,
  summary,
  unit,
}: {
  times: number[];
  series: Series[];
  summary: string;
  unit: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const options: uPlot.Options = {
      width: element.clientWidth,
      height: 220,
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: COLOURS[i % COLOURS.length] ?? '#1f5fbf',
          width: 2,
          spanGaps: false,
          value: (_: uPlot, v: number | null) => (v === null ? '—' : `${Math.round(v * 100) / 100} ${unit}`),
        })),
      ],
      axes: [{}, { size: 60 }],
      legend: { live: false },
      cursor: { drag: { x: false, y: false } },
    };
    const plot = new uPlot(options, [times, ...series.map((s) => s.values)], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [times, series, unit]);
  return <div ref={box} className="chart" role="img" aria-label={summary} />;
}
