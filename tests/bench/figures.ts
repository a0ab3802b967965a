// One measured figure, its budget from DESIGN.md, and how it compares with the floor measured in
// the same run. The table and the JSON are both made from these.
export interface Figure {
  id: string;
  label: string;
  value: number;
  unit: 'ms' | 'µs' | 'count' | 'MB' | '%' | 'x';
  budget?: { max: number; text: string } | undefined;
  /** The same thing done by a bare SDK client (or the OS), measured in this run. */
  floor?: number | undefined;
  note?: string | undefined;
}

export function verdict(figure: Figure): 'PASS' | 'MISS' | '' {
  if (!figure.budget) return '';
  return figure.value <= figure.budget.max ? 'PASS' : 'MISS';
}

export function ratio(figure: Figure): number | undefined {
  return figure.floor && figure.floor > 0 ? figure.value / figure.floor : undefined;
}

function fmt(value: number): string {
  if (value === 0) return '0';
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function table(figures: Figure[]): string {
  const rows = figures.map((f) => {
    const r = ratio(f);
    return [
      f.label,
      `${fmt(f.value)} ${f.unit}`,
      f.floor !== undefined ? `${fmt(f.floor)} ${f.unit}` : '',
      r !== undefined ? `${r.toFixed(2)}x` : '',
      f.budget?.text ?? '',
      verdict(f),
    ];
  });
  const head = ['figure', 'value', 'floor', 'ratio', 'budget', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}
