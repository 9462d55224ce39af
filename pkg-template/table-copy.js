// A Markdown table as text to copy: tab-separated values, or a Markdown table again.

/** The table's rows as arrays of cell texts (header row first), with the alignment of
 * each column from its header cells. */
function cells(table) {
  const rows = [...table.rows].map((tr) => [...tr.cells].map((c) => c.textContent.replace(/\s+/g, ' ').trim()));
  const head = table.tHead?.rows[0];
  const align = head ? [...head.cells].map((c) => /\bds-align-(left|right|center)\b/.exec(c.className)?.[1] ?? '') : [];
  return { rows, align };
}

/** Tab-separated values, one line per row. */
export function tableAsTsv(table) {
  return cells(table).rows.map((r) => r.join('\t')).join('\n') + '\n';
}

/** A GitHub Markdown table (`|` in a cell escaped, alignment kept). */
export function tableAsMarkdown(table) {
  const { rows, align } = cells(table);
  if (!rows.length) return '';
  const line = (r) => `| ${r.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  const rule = rows[0].map((_, i) => ({ left: ':--', right: '--:', center: ':-:' })[align[i]] ?? '---');
  return [line(rows[0]), `| ${rule.join(' | ')} |`, ...rows.slice(1).map(line)].join('\n') + '\n';
}
