// Arrow keys in the consent matrix: clamped at the edges, Home/End per row, Ctrl+Home/End per grid.
import { describe, expect, it } from 'vitest';
import { cellKey, moveCell, parseCellKey } from '../../renderer/src/components/matrix-navigation.js';

describe('matrix navigation', () => {
  const move = (key: string, row: number, col: number, ctrl = false) => moveCell(key, ctrl, { row, col }, 12, 4, 5);

  it('moves by one and stops at the edges', () => {
    expect(move('ArrowDown', 2, 1)).toEqual({ row: 3, col: 1 });
    expect(move('ArrowUp', 0, 1)).toEqual({ row: 0, col: 1 });
    expect(move('ArrowRight', 2, 3)).toEqual({ row: 2, col: 3 });
    expect(move('ArrowLeft', 2, 0)).toEqual({ row: 2, col: 0 });
  });

  it('jumps by page, row ends and grid corners', () => {
    expect(move('PageDown', 2, 1)).toEqual({ row: 7, col: 1 });
    expect(move('PageDown', 10, 1)).toEqual({ row: 11, col: 1 });
    expect(move('PageUp', 3, 1)).toEqual({ row: 0, col: 1 });
    expect(move('Home', 5, 3)).toEqual({ row: 5, col: 0 });
    expect(move('End', 5, 0)).toEqual({ row: 5, col: 3 });
    expect(move('Home', 5, 3, true)).toEqual({ row: 0, col: 0 });
    expect(move('End', 5, 0, true)).toEqual({ row: 11, col: 3 });
  });

  it('ignores other keys and round-trips cell keys', () => {
    expect(move(' ', 2, 1)).toBeUndefined();
    expect(move('Enter', 2, 1)).toBeUndefined();
    expect(parseCellKey(cellKey({ row: 1001, col: 50 }))).toEqual({ row: 1001, col: 50 });
    expect(parseCellKey('x:1')).toBeUndefined();
    expect(parseCellKey(undefined)).toBeUndefined();
  });
});
