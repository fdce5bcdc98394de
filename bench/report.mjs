// The benchmark's printed table.

const format = (value, unit) => {
  if (!Number.isFinite(value)) return '';
  const digits = unit === 'ms' && value < 10 ? 2 : unit === 'MB' || unit === 'KiB' ? 1 : 0;
  return `${value.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
};

/** Prints one row per figure: value, baseline, ratio (lower is better), and a note (a target, PASS/FAIL). */
export function printTable(rows, { firstLoad, mcp, localModel, elapsedSeconds }) {
  const widths = [62, 12, 34, 12, 8];
  const line = (cells) => cells.map((cell, index) => (index === 0 || index === 2 ? String(cell).padEnd(widths[index]) : String(cell).padStart(widths[index]))).join(' ');
  console.log('\nParley benchmark: medians; ratios against baselines measured in this run (lower is better)\n');
  console.log(line(['figure', 'value', 'baseline', 'baseline', 'ratio']), ' note');
  let section = '';
  for (const row of rows) {
    if (row.section !== section) {
      section = row.section;
      console.log(`-- ${section}`);
    }
    const ratio = row.ratio === undefined || !Number.isFinite(row.ratio) ? '' : `${row.ratio.toFixed(2)}×`;
    console.log(line([row.name, format(row.value, row.unit), row.baselineName ?? '', format(row.baseline, row.unit), ratio]), ` ${row.note ?? ''}`);
  }
  console.log(`\nfirst-load JS (gzip), every script the cold page and its worker fetched: ${firstLoad.totalKiB.toFixed(1)} KiB`);
  for (const entry of firstLoad.files) console.log(`  ${entry.gzipKiB.toFixed(1).padStart(6)} KiB  ${entry.file}`);
  if (mcp.skipped) console.log(`MCP approvals: skipped: ${mcp.skipped}`);
  if (localModel?.skipped) console.log(`in-browser model: skipped: ${localModel.skipped}`);
  console.log(`finished in ${elapsedSeconds.toFixed(0)} s`);
}
