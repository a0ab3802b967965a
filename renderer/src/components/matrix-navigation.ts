// Spreadsheet-style keys for the consent matrix: the grid is one Tab stop and the arrows move
// between cells (ARIA grid pattern). Rows 0-1 are the two header rows, column 0 the folder names.

export interface CellPosition {
  row: number;
  col: number;
}

export const HEADER_ROWS = 2;

export function cellKey(position: CellPosition): string {
  return `${position.row}:${position.col}`;
}

export function parseCellKey(value: string | undefined | null): CellPosition | undefined {
  const match = value ? /^(\d+):(\d+)$/.exec(value) : null;
  return match ? { row: Number(match[1]), col: Number(match[2]) } : undefined;
}

/** The cell a navigation key leads to, or undefined when the key is not a navigation key. */
export function moveCell(
  key: string,
  ctrl: boolean,
  from: CellPosition,
  rowCount: number,
  colCount: number,
  pageRows: number,
): CellPosition | undefined {
  const clampRow = (row: number) => Math.max(0, Math.min(rowCount - 1, row));
  const clampCol = (col: number) => Math.max(0, Math.min(colCount - 1, col));
  switch (key) {
    case 'ArrowUp':
      return { row: clampRow(from.row - 1), col: from.col };
    case 'ArrowDown':
      return { row: clampRow(from.row + 1), col: from.col };
    case 'ArrowLeft':
      return { row: from.row, col: clampCol(from.col - 1) };
    case 'ArrowRight':
      return { row: from.row, col: clampCol(from.col + 1) };
    case 'Home':
      return ctrl ? { row: 0, col: 0 } : { row: from.row, col: 0 };
    case 'End':
      return ctrl ? { row: rowCount - 1, col: colCount - 1 } : { row: from.row, col: colCount - 1 };
    case 'PageUp':
      return { row: clampRow(from.row - pageRows), col: from.col };
    case 'PageDown':
      return { row: clampRow(from.row + pageRows), col: from.col };
    default:
      return undefined;
  }
}
