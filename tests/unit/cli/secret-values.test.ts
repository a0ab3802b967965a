import { describe, expect, it } from 'vitest';
import { displayArg, displayTransport, displayUrl, displayValue, isSecret, SEALED_MASK, SECRET_MASK } from '../../../electron/cli/secret-values.js';

describe('what the CLI masks', () => {
  it('masks values whose name says secret, and keeps the rest readable', () => {
    expect(displayValue('GITHUB_TOKEN', 'abc')).toBe(SECRET_MASK);
    expect(displayValue('OPENAI_API_KEY', 'x')).toBe(SECRET_MASK);
    expect(displayValue('Authorization', 'Bearer x')).toBe(SECRET_MASK);
    expect(displayValue('DB_PASSWORD', 'hunter2')).toBe(SECRET_MASK);
    expect(displayValue('LOG_LEVEL', 'debug')).toBe('debug');
    expect(displayValue('GIT_AUTHOR_NAME', 'Me')).toBe('Me');
    expect(displayValue('KEYBOARD_LAYOUT', 'de')).toBe('de');
  });

  it('masks values that are credentials whatever they are called', () => {
    expect(displayValue('GH', 'ghp_abcdefghijklmnopqrstuvwxyz0123')).toBe(SECRET_MASK);
    expect(displayValue('X', 'sk-proj-abcdefghijklmnopqrstuv')).toBe(SECRET_MASK);
    expect(displayValue('X-Forward', 'Bearer abcdefghijk')).toBe(SECRET_MASK);
    expect(displayValue('JWT_LIKE', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).toBe(SECRET_MASK);
    expect(displayValue('RANDOM', 'a8F3k2L9q0Zx7Vb1Nm4Pq8Rt2Yw6Ue5T')).toBe(SECRET_MASK);
  });

  it('shows a plain URL whole, hiding only a password and secret query values', () => {
    expect(displayValue('BASE_URL', 'https://api.github.com/v3?per_page=100')).toBe('https://api.github.com/v3?per_page=100');
    expect(displayUrl('https://me:pw@example.com/mcp?api_key=zzz&x=1')).toBe(`https://me:${SECRET_MASK}@example.com/mcp?api_key=${SECRET_MASK}&x=1`);
  });

  it('says a value the desktop app encrypted is encrypted, rather than showing ciphertext', () => {
    expect(displayValue('ANYTHING', 'enc:v1:AAAA')).toBe(SEALED_MASK);
  });

  it('keeps ${roots} placeholders readable: they are configuration', () => {
    expect(displayValue('ROOTS_TOKEN_DIRS', '${roots:,}')).toBe('${roots:,}');
    expect(isSecret('TOKEN', '${roots}')).toBe(false);
  });

  it('masks secret arguments of a command, not the command', () => {
    expect(displayArg('--api-key=abc')).toBe(`--api-key=${SECRET_MASK}`);
    expect(displayArg('-y')).toBe('-y');
    expect(displayArg('ghp_abcdefghijklmnopqrstuvwxyz0123')).toBe(SECRET_MASK);
    expect(displayTransport({ type: 'stdio', command: 'npx', args: ['-y', 'pkg', '${roots}'], env: { TOKEN: 't', MODE: 'fast' } })).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'pkg', '${roots}'],
      env: { TOKEN: SECRET_MASK, MODE: 'fast' },
    });
  });
});
