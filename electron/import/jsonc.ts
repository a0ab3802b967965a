// Host configs are JSON, except that VS Code's mcp.json is JSONC (comments, trailing commas) and
// people hand-edit the others with the same habits. One tolerant reader for all of them, with
// errors that point at a line and column instead of a character offset.
import { CodedError } from '../../shared/result.js';

/**
 * Blanks out comments and trailing commas outside strings, keeping every offset where it was.
 * `stripped` says whether there was anything to blank (a rewrite would lose those comments).
 */
export function stripJsonc(text: string): { json: string; stripped: boolean } {
  const out = text.split('');
  let inString = false;
  let stripped = false;
  for (let i = 0; i < out.length; i++) {
    const c = out[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
    } else if (c === '/' && out[i + 1] === '/') {
      stripped = true;
      while (i < out.length && out[i] !== '\n') out[i++] = ' ';
    } else if (c === '/' && out[i + 1] === '*') {
      stripped = true;
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? out.length : end + 2;
      for (; i < stop; i++) if (out[i] !== '\n') out[i] = ' ';
      i--;
    } else if (c === ',') {
      let j = i + 1;
      while (j < out.length && /\s/.test(out[j] as string)) j++;
      if (out[j] === '}' || out[j] === ']') {
        out[i] = ' ';
        stripped = true;
      }
    }
  }
  return { json: out.join(''), stripped };
}

/** Parses JSON or JSONC; a broken file throws a CodedError naming the file, line and column. */
export function parseJsonc(text: string, file: string): unknown {
  // A UTF-8 BOM is what Windows editors leave at the start; JSON.parse rejects it.
  const body = stripJsonc(text.replace(/^\uFEFF/, '')).json;
  if (body.trim() === '') throw new CodedError('invalid-input', `${file} is empty.`);
  try {
    return JSON.parse(body);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const where = position ? ` at ${lineAndColumn(body, Number(position[1]))}` : '';
    throw new CodedError('invalid-input', `${file} is not valid JSON${where}: ${message.replace(/ in JSON at position \d+.*$/, '')}`);
  }
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}
